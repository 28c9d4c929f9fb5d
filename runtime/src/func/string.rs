//! upper lower title chomp trimspace trim trimprefix trimsuffix indent join
//! split replace substr reverse sort

use super::{go_int, str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::graphemes::{self, graphemes, Textseg};
use crate::types::Type;
use crate::value::{Str, Value};

/// Go's `unicode.ToUpper`: the simple (one-to-one) mapping; characters
/// whose only uppercase form is several characters stay as they are.
fn simple_upper(c: char) -> char {
    // Greek letters with ypogegrammeni: their full uppercase is two
    // characters, their simple one the titlecase letter with prosgegrammeni.
    if let '\u{1F80}'..='\u{1F87}' | '\u{1F90}'..='\u{1F97}' | '\u{1FA0}'..='\u{1FA7}' | '\u{1FB3}' | '\u{1FC3}' | '\u{1FF3}' = c {
        return char::from_u32(c as u32 + if (c as u32) < 0x1FB0 { 8 } else { 9 }).unwrap_or(c);
    }
    let mut m = c.to_uppercase();
    match (m.next(), m.next()) {
        (Some(u), None) if !cased_after_unicode_13(u) => u,
        _ => c,
    }
}

/// Letters that got case mappings after Unicode 13, the version of Go
/// 1.19's tables: Go maps neither them nor to them.
fn cased_after_unicode_13(c: char) -> bool {
    matches!(c,
        '\u{1C89}' | '\u{1C8A}' | '\u{2C2F}' | '\u{2C5F}' | '\u{A7C0}' | '\u{A7C1}' | '\u{A7CB}'..='\u{A7DC}'
        // Vithkuqi (Unicode 14), Garay (16), Beria Erfe (17).
        | '\u{10570}'..='\u{105BC}' | '\u{10D50}'..='\u{10D85}' | '\u{16EA0}'..='\u{16ED3}')
}

fn simple_lower(c: char) -> char {
    if c == '\u{130}' {
        return 'i';
    }
    let mut m = c.to_lowercase();
    match (m.next(), m.next()) {
        (Some(l), None) if !cased_after_unicode_13(c) => l,
        _ => c,
    }
}

/// Go's `unicode.ToTitle`: uppercase except for the Latin digraphs that
/// have a titlecase form of their own.
fn simple_title(c: char) -> char {
    match c {
        '\u{1C4}'..='\u{1C6}' => '\u{1C5}',
        '\u{1C7}'..='\u{1C9}' => '\u{1C8}',
        '\u{1CA}'..='\u{1CC}' => '\u{1CB}',
        '\u{1F1}'..='\u{1F3}' => '\u{1F2}',
        // Georgian Mkhedruli letters are their own titlecase (their
        // uppercase is Mtavruli).
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => c,
        _ => simple_upper(c),
    }
}

pub fn upper(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.scan(s);
    if s.is_ascii() {
        return ascii_case(&args[0], s, u8::is_ascii_lowercase, str::to_ascii_uppercase, ctx);
    }
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(s.chars().map(simple_upper).collect()))
}

pub fn lower(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.scan(s);
    if s.is_ascii() {
        return ascii_case(&args[0], s, u8::is_ascii_uppercase, str::to_ascii_lowercase, ctx);
    }
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(s.chars().map(simple_lower).collect()))
}

/// Case mapping of ASCII text, where Go's simple mapping is the ASCII one:
/// the argument itself when no byte changes (the common "already lower
/// case" check), else the mapped copy (ASCII is NFC).
fn ascii_case(arg: &Value, s: &str, changes: fn(&u8) -> bool, map: fn(&str) -> String, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if matches!(arg, Value::String(_)) && !s.as_bytes().iter().any(changes) {
        return Ok(arg.clone());
    }
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(map(s)))
}

/// Go's `strings.Title` word separators.
fn is_separator(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphanumeric() || c == '_');
    }
    if c.is_alphabetic() || c.is_numeric() {
        return false;
    }
    c.is_whitespace()
}

pub fn title(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.scan(s);
    ctx.charge(s.len() as u64)?;
    let mut prev = ' ';
    let out: String = s
        .chars()
        .map(|c| {
            let r = if is_separator(prev) { simple_title(c) } else { c };
            prev = c;
            r
        })
        .collect();
    Ok(Value::from_string(out))
}

pub fn reverse(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.segment(s);
    ctx.charge(s.len() as u64)?;
    let mut out = String::with_capacity(s.len());
    let clusters: Vec<&str> = graphemes(s, Textseg::V13).collect();
    for g in clusters.iter().rev() {
        out.push_str(g);
    }
    Ok(Value::from_string(out))
}

pub fn chomp(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    ctx.scan(str_arg(&args[0]));
    Ok(Value::string(str_arg(&args[0]).trim_end_matches(['\r', '\n'])))
}

pub fn trimspace(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    ctx.scan(str_arg(&args[0]));
    Ok(Value::string(str_arg(&args[0]).trim()))
}

pub fn trim(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (s, cutset) = (str_arg(&args[0]), str_arg(&args[1]));
    ctx.scan(s);
    ctx.scan(cutset);
    let cut = Cutset::new(cutset);
    Ok(Value::string(s.trim_matches(|c: char| cut.contains(c))))
}

/// The characters of a `trim` cutset, looked up in constant or logarithmic
/// time: searching the cutset for each character of the string would take
/// the product of their lengths (a long string of one character against a
/// long cutset ending in it took 42 s).
struct Cutset {
    ascii: u128,
    /// The others, sorted and without repeats.
    others: Vec<char>,
}

impl Cutset {
    fn new(cutset: &str) -> Cutset {
        let mut cut = Cutset { ascii: 0, others: Vec::new() };
        for c in cutset.chars() {
            if c.is_ascii() {
                cut.ascii |= 1u128 << (c as u32);
            } else {
                cut.others.push(c);
            }
        }
        cut.others.sort_unstable();
        cut.others.dedup();
        cut
    }

    fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii & (1u128 << (c as u32)) != 0
        } else {
            self.others.binary_search(&c).is_ok()
        }
    }
}

pub fn trimprefix(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (s, p) = (str_arg(&args[0]), str_arg(&args[1]));
    trimmed(&args[0], s, s.strip_prefix(p), ctx)
}

pub fn trimsuffix(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (s, p) = (str_arg(&args[0]), str_arg(&args[1]));
    trimmed(&args[0], s, s.strip_suffix(p), ctx)
}

/// The string `s` (argument `arg`) without what `trimprefix`/`trimsuffix`
/// stripped: the argument itself when nothing was, else a copy (charged).
fn trimmed(arg: &Value, s: &str, stripped: Option<&str>, ctx: &mut CallCtx) -> Result<Value, FnError> {
    match stripped {
        Some(rest) if rest.len() < s.len() => {
            ctx.scan(rest);
            ctx.charge(rest.len() as u64)?;
            Ok(Value::string(rest))
        }
        _ if matches!(arg, Value::String(_)) => Ok(arg.clone()),
        _ => Ok(Value::string(s)),
    }
}

/// Go's `maxAlloc` on 64-bit Linux: `make` panics above it.
const GO_MAX_ALLOC: i64 = 1 << 48;

pub fn indent(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let spaces = go_int(&args[0]).map_err(FnError::new)?;
    let s = str_arg(&args[1]);
    if spaces < 0 {
        return Err(FnError::new("panic in function implementation: strings: negative Repeat count"));
    }
    // cty builds the padding before looking for newlines; Go refuses to
    // make a buffer larger than its address space (1<<48 bytes on 64-bit).
    if spaces > GO_MAX_ALLOC {
        return Err(FnError::new("panic in function implementation: runtime error: makeslice: cap out of range"));
    }
    let lines = s.bytes().filter(|&b| b == b'\n').count() as u64;
    ctx.charge((s.len() as u64).saturating_add(lines.saturating_mul(spaces as u64)))?;
    if lines == 0 {
        return Ok(args[1].clone());
    }
    // Built at its exact size, without a padding string: a wide indent
    // of a few lines peaked at three times its result.
    let spaces = spaces as usize;
    // Overflows only without a size budget; Go's slice would not fit.
    let Some(len) = (lines as usize).checked_mul(spaces).and_then(|pads| pads.checked_add(s.len())) else {
        return Err(FnError::new("panic in function implementation: runtime error: makeslice: len out of range"));
    };
    const PAD: &str = "                                                                ";
    let mut out = String::with_capacity(len);
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            let mut left = spaces;
            while left > 0 {
                let n = left.min(PAD.len());
                out.push_str(&PAD[..n]);
                left -= n;
            }
        }
        out.push_str(line);
    }
    Ok(Value::from_string(out))
}

pub fn replace(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (s, old, new) = (str_arg(&args[0]), str_arg(&args[1]), str_arg(&args[2]));
    let matches = if old.is_empty() { s.chars().count() as u64 + 1 } else { s.matches(old).count() as u64 };
    ctx.charge((s.len() as u64).saturating_add(matches.saturating_mul(new.len() as u64)))?;
    Ok(Value::from_string(s.replace(old, new)))
}

pub fn split(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (sep, s) = (str_arg(&args[0]), str_arg(&args[1]));
    let parts: Vec<&str> = if sep.is_empty() {
        // Go splits into single UTF-8 sequences, without empty ends.
        s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()]).collect()
    } else {
        s.split(sep).collect()
    };
    ctx.charge(parts.len() as u64 * ELEMENT_COST + s.len() as u64)?;
    if parts.is_empty() {
        return Ok(Value::list_empty(Type::String));
    }
    Ok(Value::List(list_of_strings(parts.into_iter().map(Value::string).collect())))
}

fn list_of_strings(vals: Vec<Value>) -> std::sync::Arc<crate::value::ListVal> {
    match Value::list_of(Type::String, vals) {
        Ok(Value::List(l)) => l,
        _ => match Value::list_empty(Type::String) {
            Value::List(l) => l,
            _ => unreachable!("list_empty builds a list"),
        },
    }
}

pub fn join(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let sep = str_arg(&args[0]);
    let lists = &args[1..];
    if lists.is_empty() {
        return Err(FnError::new("at least one list is required"));
    }
    let mut total: u64 = 0;
    for l in lists {
        if !l.is_wholly_known() {
            return Ok(Value::unknown(Type::String));
        }
        for e in l.elements_slice() {
            total = total.saturating_add(e.as_str().map_or(0, |s| s.len() as u64) + sep.len() as u64);
        }
    }
    ctx.charge(total)?;
    // A single string element is the result as it is.
    if let [l] = lists {
        if let [e @ Value::String(_)] = l.elements_slice() {
            return Ok(e.clone());
        }
    }
    // `total` bounds the output (it counts one separator per element).
    let mut out = String::with_capacity(usize::try_from(total).unwrap_or(0));
    let mut first = true;
    for (ai, l) in lists.iter().enumerate() {
        for (ei, e) in l.elements_slice().iter().enumerate() {
            let Some(s) = e.as_str() else {
                return Err(if lists.len() > 1 {
                    FnError::arg(ai + 1, format!("element {ei} of list {} is null; cannot concatenate null values", ai + 1))
                } else {
                    FnError::arg(ai + 1, format!("element {ei} is null; cannot concatenate null values"))
                });
            };
            if !first {
                out.push_str(sep);
            }
            first = false;
            out.push_str(s);
        }
    }
    Ok(Value::from_string(out))
}

pub fn sort(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let list = &args[0];
    if !list.is_wholly_known() {
        // The order is unknown, the length is not.
        let mut b = Value::unknown(ret.clone()).refine();
        if list.ty().is_list() {
            let (lo, hi) = list.length_bounds();
            b.collection_length_lower_bound(lo).collection_length_upper_bound(hi);
        }
        return Ok(b.into_value());
    }
    let elems = list.elements_slice();
    if elems.is_empty() {
        return Ok(list.clone());
    }
    let mut strs: Vec<&Str> = Vec::with_capacity(elems.len());
    for (i, e) in elems.iter().enumerate() {
        match e {
            Value::String(s) => strs.push(s),
            _ => return Err(FnError::new(format!("given list element {i} is null; a null string cannot be sorted"))),
        }
    }
    // The elements are shared, not copied; one string shared by many
    // elements compares equal to itself without reading it, and other
    // comparisons count the bytes they may read.
    let mut compared: u64 = 0;
    strs.sort_unstable_by(|a, b| {
        if std::sync::Arc::ptr_eq(a.as_arc(), b.as_arc()) {
            return std::cmp::Ordering::Equal;
        }
        compared += a.len().min(b.len()) as u64;
        a.as_bytes().cmp(b.as_bytes())
    });
    ctx.work(compared / crate::work::SCAN_BYTES_PER_STEP);
    Ok(Value::List(list_of_strings(strs.into_iter().map(|s| Value::String(s.clone())).collect())))
}

pub fn substr(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.segment(s);
    let mut offset = go_int(&args[1]).map_err(FnError::new)?;
    let length = go_int(&args[2]).map_err(FnError::new)?;
    // Cluster end offsets, computed lazily only as far as needed would be
    // nicer; strings are bounded by the input size, so walk them directly.
    if offset < 0 {
        let total = graphemes::count(s, Textseg::V13) as i64;
        offset = offset.saturating_add(total);
    } else if length == 0 {
        return Ok(Value::string(""));
    }
    let mut sub = s;
    if offset > 0 {
        let mut pos: i64 = 0;
        let mut i = 0;
        for g in graphemes(sub, Textseg::V13) {
            i += g.len();
            pos += 1;
            if pos == offset {
                break;
            }
            if i >= s.len() {
                return Ok(Value::string(""));
            }
        }
        sub = &sub[i..];
    }
    if length < 0 {
        return Ok(Value::string(sub));
    }
    let mut pos: i64 = 0;
    let mut i = 0;
    for g in graphemes(sub, Textseg::V13) {
        i += g.len();
        pos += 1;
        if pos == length {
            break;
        }
    }
    Ok(Value::string(&sub[..i]))
}

#[cfg(test)]
mod tests {
    use crate::func::{FunctionTable, Functions, SizeBudget};
    use crate::value::Value;

    fn call(name: &str, args: Vec<Value>) -> Value {
        let t = Functions::stdlib();
        let id = t.lookup(name).expect("stdlib function");
        t.call_unconverted(id, &args, &mut SizeBudget::unlimited()).expect("call succeeds")
    }

    /// The ASCII fast path and the general mapping agree with Go's simple
    /// case mapping.
    #[test]
    fn case_mapping() {
        let rows: &[(&str, &str, &str)] = &[
            ("lower", "Hello-World_1", "hello-world_1"),
            ("lower", "already lower", "already lower"),
            ("lower", "", ""),
            ("lower", "ÀB\u{130}", "àbi"),
            ("upper", "MiXeD 42", "MIXED 42"),
            ("upper", "UPPER", "UPPER"),
            ("upper", "straße", "STRAßE"),
        ];
        for &(f, input, want) in rows {
            assert_eq!(call(f, vec![Value::string(input)]).as_str(), Some(want), "{f}({input:?})");
        }
    }

    #[test]
    fn join_sizes_output_exactly() {
        let list = Value::list(vec![Value::string("a"), Value::string("bb"), Value::string("ccc")]).unwrap();
        assert_eq!(call("join", vec![Value::string(", "), list.clone()]).as_str(), Some("a, bb, ccc"));
        assert_eq!(call("join", vec![Value::string(""), list.clone(), list]).as_str(), Some("abbcccabbccc"));
    }
}
