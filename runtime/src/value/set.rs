//! Sets in cty order.
//!
//! cty keeps set elements in hash buckets (CRC-32 of a "hash text"), keeps
//! the first of equal elements, and iterates by bucket order followed by a
//! stable sort with its `Less` rule: nulls last, unknowns just before
//! them, strings bytewise, numbers numerically, false before true, and any
//! other type by comparing hash texts bytewise. Elements that `Less` cannot
//! tell apart always share a hash text and therefore a bucket, where cty
//! keeps insertion order; so deduplicating in insertion order and then
//! stable-sorting by `Less` reproduces cty's iteration order. The one
//! exception is numbers that compare equal without being cty-equal (-0
//! and 0): they land in different buckets, so their CRC-32 decides.

use super::{Tri, Value};
use crate::number::Number;
use crate::strings::write_go_quoted;
use crate::types::Type;
use ahash::{AHashMap as HashMap, AHashSet as HashSet};
use std::cmp::Ordering;
use std::hash::BuildHasher;

/// Deduplicates (keeping the first of equal elements) and orders `elems`.
pub(crate) fn build_set(ety: &Type, elems: Vec<Value>) -> Vec<Value> {
    if elems.len() <= 1 {
        return elems;
    }
    let kept = dedup(elems);
    order(ety, kept)
}

/// Deduplicates in insertion order, keeping the first of equal elements.
/// Strings and bools are keyed exactly; numbers and structured values are
/// grouped by a hash of their hash bucket and equality text
/// ([`bucket_key`]: equal values share it) and compared with cty `Equals`
/// inside a group. Unknowns, and values holding them, are never equal to
/// anything. Once the evaluation is out of steps, the rest are kept
/// uncompared (it ends as the call returns).
fn dedup(elems: Vec<Value>) -> Vec<Value> {
    let mut keep = vec![true; elems.len()];
    let mut seen_null = false;
    let mut strings: HashSet<&str> = HashSet::with_capacity(elems.len());
    // Integers (other than -0, which hashes apart from 0) are equal exactly
    // when their values are, so they need no hash text.
    let mut ints: HashSet<i64> = HashSet::new();
    let mut bools = [false; 2];
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    let seed = ahash::RandomState::new();
    for (i, v) in elems.iter().enumerate() {
        keep[i] = match v {
            Value::Unknown(_) => true,
            Value::Null(_) => !std::mem::replace(&mut seen_null, true),
            Value::String(s) => strings.insert(s),
            Value::Bool(b) => !std::mem::replace(&mut bools[*b as usize], true),
            Value::Number(n) if !n.is_neg_zero() && n.to_i64().is_some() => ints.insert(n.to_i64().unwrap_or(0)),
            // An element holding an unknown at any depth is never equal
            // (`Tri::True`) to anything, so it is kept and never compared:
            // many of them sharing one hash text would otherwise make the
            // group scan quadratic.
            _ if !v.is_wholly_known() => true,
            _ => {
                let Some(key) = bucket_key(v, &seed) else { return elems };
                let group = groups.entry(key).or_default();
                if group.iter().any(|&j| elems[j].equals_tri(v) == Tri::True) {
                    false
                } else {
                    group.push(i);
                    true
                }
            }
        };
    }
    elems.into_iter().zip(keep).filter_map(|(v, k)| k.then_some(v)).collect()
}

fn order(ety: &Type, elems: Vec<Value>) -> Vec<Value> {
    if ety.is_primitive() {
        let mut elems = elems;
        elems.sort_by(|a, b| compare(a, b, None));
        return elems;
    }
    // cty's order: the hash buckets in ascending order (CRC-32 of the hash
    // text), each in insertion order, then Go's `sort.SliceStable` by
    // `setRules.Less`. That `Less` is not a strict weak order here: values
    // that are raw-equal but written apart (a set holding -0, another 0)
    // are neither less than the other, yet each is ordered by its text
    // against a third, so the result is the algorithm's: Go's is repeated.
    // (Each text held is charged as it is written: see `HeldText`.)
    let mut keyed: Vec<(String, Value)> = elems.into_iter().map(|v| (set_hash_text(&v), v)).collect();
    // Only a -0 (written "-0", raw-equal to 0) makes values raw-equal but
    // written apart: without one, `Less` orders by text, consistently, and
    // any stable sort of the insertion order gives Go's result (values of
    // one text are in one bucket, in insertion order).
    if keyed.iter().any(|(k, _)| k.contains("-0")) {
        keyed.sort_by_cached_key(|(k, _)| crc32_ieee(k.as_bytes()));
        go_stable_sort(&mut keyed, |(ka, a), (kb, b)| !a.raw_equals(b) && compare(a, b, Some((ka, kb))) == Ordering::Less);
    } else {
        keyed.sort_by(|(ka, a), (kb, b)| compare(a, b, Some((ka, kb))));
    }
    keyed.into_iter().map(|(_, v)| v).collect()
}

/// Go's `sort.SliceStable` (insertion sorts of blocks of 20, then
/// `symMerge`), step for step: with a `less` that is not a strict weak
/// order, the order it leaves depends on the comparisons it makes.
fn go_stable_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    let insertion = |v: &mut [T], a: usize, b: usize| {
        for i in a + 1..b {
            let mut j = i;
            while j > a && less(&v[j], &v[j - 1]) {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
    };
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion(v, a, b);
        a = b;
        b += block;
    }
    insertion(v, a, n);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(v, a, a + block, b, &less);
            a = b;
            b += 2 * block;
        }
        if a + block < n {
            sym_merge(v, a, a + block, n, &less);
        }
        block *= 2;
    }
}

/// Go's `symMerge`: merges the sorted runs `v[a..m]` and `v[m..b]`.
fn sym_merge<T>(v: &mut [T], a: usize, m: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&v[h], &v[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            v.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&v[m], &v[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            v.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&v[p - c], &v[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        v[start..end].rotate_left(m - start);
    }
    if a < start && start < mid {
        sym_merge(v, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(v, mid, end, b, less);
    }
}

/// Total order derived from cty's `Less` (ties compare equal, so the
/// stable sort keeps insertion order among them). `texts` are the
/// precomputed hash texts for non-primitive elements.
fn compare(a: &Value, b: &Value, texts: Option<(&String, &String)>) -> Ordering {
    // Nulls after everything else, unknowns after known values.
    let rank = |v: &Value| match v {
        Value::Null(_) => 2u8,
        Value::Unknown(_) => 1,
        _ => 0,
    };
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb || ra != 0 {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => match x.cmp(y) {
            // Numerically equal but not cty-equal numbers sit in different
            // hash buckets, and cty's iteration visits the buckets in
            // ascending CRC-32 order before its stable sort. Their hash
            // texts (`Text('g', 10)`, of the exact value) differ only for
            // -0 and 0: other equal values are tied without writing them
            // (a text takes a millisecond at 1e-99999, and a set past its
            // step budget keeps its copies uncompared, to be sorted).
            Ordering::Equal if x.is_zero() => crc32_ieee(x.hash_text().as_bytes()).cmp(&crc32_ieee(y.hash_text().as_bytes())),
            o => o,
        },
        _ => match texts {
            Some((ka, kb)) => ka.as_bytes().cmp(kb.as_bytes()),
            None => set_hash_text(a).as_bytes().cmp(set_hash_text(b).as_bytes()),
        },
    }
}

/// CRC-32 (IEEE), the checksum cty buckets set elements by.
fn crc32_ieee(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// cty's set membership (`Has`: the same hash bucket, and equal) over one
/// set's elements, answered through an index on [`bucket_key`]: a lookup
/// costs one key, not a scan of the set (intersecting two sets of 300,000
/// numbers by scanning took two and a half minutes). Once the evaluation
/// is out of steps, the index stops growing and finds nothing.
pub struct SetIndex<'a> {
    buckets: HashMap<u64, Vec<&'a Value>>,
    seed: ahash::RandomState,
}

impl<'a> SetIndex<'a> {
    pub fn new(elems: &'a [Value]) -> SetIndex<'a> {
        let seed = ahash::RandomState::new();
        let mut buckets: HashMap<u64, Vec<&'a Value>> = HashMap::with_capacity(elems.len());
        for e in elems {
            let Some(key) = bucket_key(e, &seed) else { break };
            buckets.entry(key).or_default().push(e);
        }
        SetIndex { buckets, seed }
    }

    /// Whether an element of the set is in `v`'s bucket and equal to it.
    pub fn contains(&self, v: &Value) -> bool {
        let Some(key) = bucket_key(v, &self.seed) else { return false };
        self.buckets.get(&key).is_some_and(|es| es.iter().any(|e| e.equals_tri(v) == Tri::True))
    }
}

/// A value's hash bucket (its set hash text) and its equality text: two
/// values are in one bucket and equal only if they share both. Numbers
/// share a hash text when their first ten significant digits agree, so a
/// bucket alone may hold thousands of values that are all different, each
/// compared with all the others (30,000 numbers `1.000000000000NN...`: 17 s).
/// Kept as a hash of the two texts, never written out whole (a hundred
/// tuples sharing a list of a million numbers held 700 MB of keys): values
/// keyed alike are then compared, so a collision costs a comparison only.
/// `None` once the evaluation is out of steps: the text was cut short.
fn bucket_key(v: &Value, seed: &ahash::RandomState) -> Option<u64> {
    // One walk: each number written as both texts (neither holds a NUL).
    hashed_text(v, seed, |n, out| {
        out.push_str(&n.hash_text());
        out.push('\0');
        n.append_equality_text(out);
    })
}

/// The hash of `v`'s text (numbers written by `number`), or `None` once
/// the evaluation is out of steps: the text was cut short.
fn hashed_text(v: &Value, seed: &ahash::RandomState, number: fn(&Number, &mut String)) -> Option<u64> {
    let mut key = HashedText::starting_as(&seed.build_hasher());
    write_text(v, &mut key, number);
    let key = key.finish();
    (!crate::work::exhausted()).then_some(key)
}

/// Where [`write_text`] writes: a string, or a hash of what would be one.
trait TextSink: Sized {
    fn buf(&mut self) -> &mut String;
    /// An element was written: a sink may take what is buffered.
    fn element_done(&mut self) {}
    /// A set's elements, in the set's order.
    fn set_elements(&mut self, vals: &[Value], number: fn(&Number, &mut String)) {
        write_elements(vals, self, number);
    }
}

/// A text written to be held (the set hash texts a set is ordered by):
/// each 8 bytes written are a step of work, so that what an evaluation
/// holds of them is bounded by its steps (a step per 64 bytes, as for a
/// scan, let 50 M steps hold 3 GB).
struct HeldText {
    text: String,
    noted: usize,
}

impl TextSink for HeldText {
    fn buf(&mut self) -> &mut String {
        &mut self.text
    }
    fn element_done(&mut self) {
        let steps = (self.text.len() - self.noted) / 8;
        crate::work::note(steps as u64);
        self.noted += steps * 8;
    }
}

/// A text hashed as it is written, a kilobyte at a time (each piece a
/// scan's work, [`crate::work::note_scan`]). Equal values write equal
/// texts element by element, so they are fed to the hasher in the same
/// pieces and hash alike.
struct HashedText {
    hasher: ahash::AHasher,
    /// The hasher as it starts, for the elements of sets.
    fresh: ahash::AHasher,
    buf: String,
}

impl HashedText {
    fn starting_as(fresh: &ahash::AHasher) -> HashedText {
        HashedText { hasher: fresh.clone(), fresh: fresh.clone(), buf: String::new() }
    }

    fn finish(mut self) -> u64 {
        use std::hash::Hasher;
        self.take_piece();
        self.hasher.finish()
    }

    fn take_piece(&mut self) {
        use std::hash::Hasher;
        crate::work::note_scan(&self.buf);
        self.hasher.write(self.buf.as_bytes());
        self.buf.clear();
    }
}

impl TextSink for HashedText {
    fn buf(&mut self) -> &mut String {
        &mut self.buf
    }
    /// Each element hashed alone, the hashes in ascending order: equal
    /// sets may hold their elements in different orders (elements whose
    /// set hash texts are alike but that are not equal stay in the order
    /// they were inserted in, as in cty), and must key alike.
    fn set_elements(&mut self, vals: &[Value], number: fn(&Number, &mut String)) {
        crate::work::note(vals.len() as u64);
        let mut hashes = Vec::with_capacity(vals.len());
        for e in vals {
            if crate::work::exhausted() {
                return;
            }
            let mut one = HashedText::starting_as(&self.fresh);
            write_text(e, &mut one, number);
            hashes.push(one.finish());
        }
        hashes.sort_unstable();
        for h in hashes {
            use std::fmt::Write as _;
            let _ = write!(self.buf, "{h:x};");
            self.element_done();
        }
    }
    fn element_done(&mut self) {
        if self.buf.len() >= 1024 {
            self.take_piece();
        }
    }
}

/// A hash that two wholly known values of one type share whenever cty
/// `Equals` calls them equal: that of their set hash text with numbers as
/// the text cty compares them by (`Number::append_equality_text`), hashed
/// as it is written (see [`bucket_key`]). For deduplicating by hashing what
/// cty deduplicates by comparing every pair (`distinct`). `None` once the
/// evaluation is out of steps.
pub fn equality_hash(v: &Value, seed: &ahash::RandomState) -> Option<u64> {
    hashed_text(v, seed, Number::append_equality_text)
}

/// cty's set `Less(a, b)` for two elements of one set.
pub fn set_less(a: &Value, b: &Value) -> bool {
    if a.raw_equals(b) {
        return false;
    }
    compare(a, b, None) == Ordering::Less
}

/// cty's set hash text of a value (`makeSetHashBytes`): `?` unknown, `~`
/// null, numbers as `big.Float.String()`, bools `T`/`F`, strings Go-quoted,
/// maps `{k:v;}`, lists and sets `[e;]`, objects and tuples `<e;>`.
pub fn set_hash_text(v: &Value) -> String {
    let mut out = HeldText { text: String::new(), noted: 0 };
    write_text(v, &mut out, |n, out| out.push_str(&n.hash_text()));
    out.element_done();
    out.text
}

/// The hash text's form (see [`set_hash_text`]), numbers written by
/// `number`. Each element written is a step of work
/// ([`crate::work`]): a collection's parts may be shared, so a small value
/// can have a long text. Once the running evaluation is out of steps the
/// text is cut short (the evaluation ends as the call returns; checked
/// after each element, whose own text the sink has charged).
fn write_text<S: TextSink>(v: &Value, out: &mut S, number: fn(&Number, &mut String)) {
    if v.is_collection() {
        return crate::stack::guarded(|| write_text_here(v, out, number));
    }
    write_text_here(v, out, number)
}

/// The elements `vals` of a collection, each followed by `;`.
fn write_elements<S: TextSink>(vals: &[Value], out: &mut S, number: fn(&Number, &mut String)) {
    crate::work::note(vals.len() as u64);
    if crate::work::exhausted() {
        return;
    }
    for e in vals {
        write_text(e, out, number);
        out.buf().push(';');
        out.element_done();
        if crate::work::exhausted() {
            return;
        }
    }
}

fn write_text_here<S: TextSink>(v: &Value, out: &mut S, number: fn(&Number, &mut String)) {
    let all = write_elements::<S>;
    match v {
        Value::Unknown(_) => out.buf().push('?'),
        Value::Null(_) => out.buf().push('~'),
        Value::Number(n) => number(n, out.buf()),
        Value::Bool(b) => out.buf().push(if *b { 'T' } else { 'F' }),
        Value::String(s) => write_go_quoted(out.buf(), s),
        Value::Map(m) => {
            out.buf().push('{');
            crate::work::note(m.vals().len() as u64);
            if !crate::work::exhausted() {
                for (k, e) in m.keys().iter().zip(m.vals()) {
                    write_go_quoted(out.buf(), k);
                    out.buf().push(':');
                    write_text(e, out, number);
                    out.buf().push(';');
                    out.element_done();
                    if crate::work::exhausted() {
                        break;
                    }
                }
            }
            out.buf().push('}');
        }
        Value::List(_) => {
            out.buf().push('[');
            all(v.elements_slice(), out, number);
            out.buf().push(']');
        }
        Value::Set(_) => {
            out.buf().push('[');
            out.set_elements(v.elements_slice(), number);
            out.buf().push(']');
        }
        Value::Object(_) | Value::Tuple(_) => {
            out.buf().push('<');
            all(v.elements_slice(), out, number);
            out.buf().push('>');
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc32_matches_zlib() {
        assert_eq!(super::crc32_ieee(b"-0"), 1193965756);
        assert_eq!(super::crc32_ieee(b"0"), 4108050209);
    }
}
