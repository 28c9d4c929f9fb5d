//! "Did you mean" suggestions: the edit distance hcl measures names with
//! (`github.com/agext/levenshtein`, over characters), and the two ways a
//! suggestion is chosen: [`closest`], deterministically as the oracle
//! normalizes hcl's choices among names it keeps in Go maps (variables,
//! functions), and [`first_close`], hcl's `nameSuggestion` over a list it
//! keeps in order (template keywords).

/// Levenshtein distance over characters (Unicode scalar values, as
/// agext/levenshtein counts runes), each edit costing 1.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Whether `name` is within distance < 3 of `given`, the closeness every
/// suggestion asks for ([`distance`] `< 3`, found without measuring the
/// whole distance: a table's names are mostly far from the name given).
pub fn is_close(given: &str, name: &str) -> bool {
    // A character is at most four bytes: lengths this far apart are more
    // than two edits apart, whatever the text.
    if given.len().abs_diff(name.len()) > 8 {
        return false;
    }
    if given.is_ascii() && name.is_ascii() {
        // Two edits change the length by two at most.
        return given.len().abs_diff(name.len()) <= 2 && within_two(given.as_bytes(), name.as_bytes());
    }
    let (a, b): (Vec<char>, Vec<char>) = (given.chars().collect(), name.chars().collect());
    within_two(&a, &b)
}

/// Whether the Levenshtein distance of `a` and `b` is at most 2. A common
/// prefix and suffix do not change the distance, lengths that differ by 3
/// or more put it past 2, and no row of the distance matrix has an entry
/// below the distance: the rows stop once all their entries are past 2.
fn within_two<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    if a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    if a.is_empty() || b.is_empty() {
        return true;
    }
    // Two rows of the matrix, on the stack for names of usual lengths.
    // Entries are capped at 3 (only "at most 2" matters, and the minimum
    // of capped entries is the capped minimum), so they fit in a byte; and
    // only the band |i - j| <= 2 is computed (an entry is at least
    // |i - j|; those outside are 3), so a measurement is linear in the
    // names' length.
    const ON_STACK: usize = 32;
    const FAR: u8 = 3;
    let mut stack = [[0u8; ON_STACK + 1]; 2];
    let mut heap;
    let (mut prev, mut cur): (&mut [u8], &mut [u8]) = if b.len() <= ON_STACK {
        let [p, c] = &mut stack;
        (&mut p[..=b.len()], &mut c[..=b.len()])
    } else {
        heap = (vec![0; b.len() + 1], vec![0; b.len() + 1]);
        (&mut heap.0, &mut heap.1)
    };
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j.min(usize::from(FAR)) as u8;
    }
    for (i, x) in a.iter().enumerate() {
        // Row i + 1: columns lo..=hi, the entry before lo as the band
        // leaves it, the one after hi "far" for the next row to read.
        let row = i + 1;
        let (lo, hi) = (row.saturating_sub(2).max(1), (row + 2).min(b.len()));
        cur[lo - 1] = if lo == 1 { row.min(usize::from(FAR)) as u8 } else { FAR };
        let mut row_min = cur[lo - 1];
        for j in lo..=hi {
            let sub = prev[j - 1] + u8::from(*x != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1).min(FAR);
            row_min = row_min.min(cur[j]);
        }
        if hi < b.len() {
            cur[hi + 1] = FAR;
        }
        if row_min > 2 {
            return false;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] <= 2
}

/// The smallest of `names` within distance < 3 of `given` (names whose
/// characters differ too much from `given`'s are passed over unmeasured,
/// see [`Names`]).
pub fn closest<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut unlimited = u64::MAX;
    search(given, names.into_iter().map(|n| (char_set(n), n)), &mut unlimited)
}

/// [`closest`] within a budget of `steps` (the evaluation's steps left):
/// the closest name, or `None` when the budget ran out first, and the
/// steps spent ([`search`]).
pub fn closest_within<'a>(given: &str, names: impl IntoIterator<Item = &'a str>, steps: u64) -> (Option<&'a str>, u64) {
    let mut left = steps;
    let found = search(given, names.into_iter().map(|n| (char_set(n), n)), &mut left);
    (found, steps - left)
}

/// The steps of measuring a name against the given one, per 16 bytes of
/// it (a step is some 10 ns of the VM's work; a measurement of a short
/// name, 50-100 ns). Passing a name over is a step per 64 bytes of it.
const MEASURED_STEPS: u64 = 8;

/// The search of [`closest`] over names and their character sets,
/// spending `budget` as it goes (a step per name, one more per 64 bytes,
/// and [`MEASURED_STEPS`] per 16 bytes of a name measured): `None` once
/// it runs out.
fn search<'a>(given: &str, names: impl IntoIterator<Item = (u64, &'a str)>, budget: &mut u64) -> Option<&'a str> {
    let set = char_set(given);
    let mut best: Option<&'a str> = None;
    for (s, n) in names {
        let len = n.len() as u64;
        let measure = may_be_close(set, s);
        let cost = 1 + len / 64 + if measure { MEASURED_STEPS * (1 + len / 16) } else { 0 };
        match budget.checked_sub(cost) {
            Some(left) => *budget = left,
            None => {
                *budget = 0;
                return None;
            }
        }
        if measure && is_close(given, n) && best.map_or(true, |b| n < b) {
            best = Some(n);
        }
    }
    best
}

/// Whether names of character sets `a` and `b` may be two edits apart or
/// closer: an edit changes the presence of two characters at most.
fn may_be_close(a: u64, b: u64) -> bool {
    (a ^ b).count_ones() <= 4
}

/// Many names searched for suggestions many times ([`Names::closest`] is
/// [`closest`]): each name is kept with the set of its characters (a bit
/// per character, modulo 64), and a name whose set differs from the given
/// name's in more than four bits is more than two edits away (an edit
/// changes at most two characters' presence), so most names are passed
/// over with a word's comparison instead of a measurement. 10,000 distinct
/// unknown names against 10,000 variables took 6.4 s measured one by one.
///
/// The searches share a budget ([`Names::BUDGET`], in the steps of
/// [`search`]): names made to share their characters (permutations of
/// one another) pass that test and are measured, and many unknown names
/// against many variables are many searches; once it is spent, a search
/// finds nothing, so that such a file checks in bounded time (its later
/// names then go without a "did you mean").
pub struct Names<'a> {
    names: Vec<(u64, &'a str)>,
    /// Steps left.
    left: std::cell::Cell<u64>,
}

/// The set of `s`'s characters, a bit each (modulo 64: two characters
/// sharing a bit only make the test of [`Names`] pass more names).
fn char_set(s: &str) -> u64 {
    s.chars().fold(0, |set, c| set | 1 << (u32::from(c) % 64))
}

impl<'a> Names<'a> {
    /// The steps of all searches together (about half a second's work).
    pub const BUDGET: u64 = 50_000_000;

    pub fn new(names: impl IntoIterator<Item = &'a str>) -> Names<'a> {
        Names::with_budget(names, Self::BUDGET)
    }

    fn with_budget(names: impl IntoIterator<Item = &'a str>, steps: u64) -> Names<'a> {
        Names { names: names.into_iter().map(|n| (char_set(n), n)).collect(), left: std::cell::Cell::new(steps) }
    }

    /// [`closest`] among these names (nothing once the budget is spent).
    pub fn closest(&self, given: &str) -> Option<&'a str> {
        let mut left = self.left.get();
        let found = search(given, self.names.iter().copied(), &mut left);
        self.left.set(left);
        found
    }
}

/// hcl's `nameSuggestion`: the first of `names`, in their order, within
/// distance < 3 of `given`.
pub fn first_close<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names.into_iter().find(|n| is_close(given, n))
}

/// The detail of hcl's "Unknown variable" for `name`, suggesting
/// `suggestion` when there is one. Written into one string sized at once:
/// a file evaluated without variables reports thousands of these.
pub fn unknown_variable_detail(name: &str, suggestion: Option<&str>) -> String {
    let mut detail = String::with_capacity(48 + name.len() + suggestion.map_or(0, |s| 18 + s.len()));
    detail.push_str("There is no variable named ");
    runtime::strings::write_go_quoted(&mut detail, name);
    match suggestion {
        Some(s) => {
            detail.push_str(". Did you mean ");
            runtime::strings::write_go_quoted(&mut detail, s);
            detail.push('?');
        }
        None => detail.push('.'),
    }
    detail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_names_suggest_what_a_search_of_all_suggests() {
        // Names near each other and far apart, ASCII and not: the index
        // passes over only names the measurement refuses.
        let mut names: Vec<String> = Vec::new();
        for a in ["", "a", "ab", "abc", "request", "requests", "reqeust", "é", "éa", "日本", "x_1", "x-2", "pq", "yz"] {
            for b in ["", "0", "9", "ab", "p", "_", "ü"] {
                names.push(format!("{a}{b}"));
                names.push(format!("{b}{a}"));
            }
        }
        let index = Names::new(names.iter().map(String::as_str));
        let mut found = 0;
        for given in &names {
            for probe in [given.clone(), format!("{given}x"), given.chars().rev().collect(), given.replacen('a', "e", 1)] {
                // Every name measured, none passed over.
                let want = names.iter().map(String::as_str).filter(|n| is_close(&probe, n)).min();
                assert_eq!(index.closest(&probe), want, "{probe:?}");
                assert_eq!(closest(&probe, names.iter().map(String::as_str)), want, "{probe:?}");
                found += usize::from(want.is_some());
            }
        }
        assert!(found > 100, "{found}");
    }

    #[test]
    fn searches_stop_suggesting_once_their_measurements_are_spent() {
        // Permutations of one text share their characters: each is measured.
        fn permutations(prefix: String, rest: &str, out: &mut Vec<String>) {
            if rest.is_empty() {
                return out.push(prefix);
            }
            for (i, c) in rest.char_indices() {
                permutations(format!("{prefix}{c}"), &format!("{}{}", &rest[..i], &rest[i + 1..]), out);
            }
        }
        let mut names = Vec::new();
        permutations(String::new(), "abcde", &mut names);
        assert_eq!(names.len(), 120);
        // A search: a step per name and eight per (short) name measured.
        let index = Names::with_budget(names.iter().map(String::as_str), 3 * 120 * 9);
        for _ in 0..3 {
            assert_eq!(index.closest("abcdf"), Some("abcde"));
        }
        assert_eq!(index.closest("abcdf"), None);
        assert_eq!(index.closest("abcde"), None);
        let (found, spent) = closest_within("abcdf", names.iter().map(String::as_str), 1000);
        assert_eq!((found, spent), (None, 1000));
        let (found, spent) = closest_within("abcdf", names.iter().map(String::as_str), 2000);
        assert_eq!((found, spent), (Some("abcde"), 120 * 9));
    }

    #[test]
    fn distances() {
        for (a, b, d) in [
            ("", "", 0),
            ("abc", "abc", 0),
            ("abc", "abd", 1),
            ("kitten", "sitting", 3),
            ("", "ab", 2),
            ("é", "e", 1),
            ("é", "e\u{301}", 2),
            ("日本", "日", 1),
        ] {
            assert_eq!(distance(a, b), d, "{a} {b}");
        }
        assert_eq!(closest("fooo", ["food", "foo", "bar"]), Some("foo"));
        assert_eq!(closest("x", ["abcd"]), None);
        assert_eq!(first_close("fooo", ["food", "foo", "bar"]), Some("food"));
        assert_eq!(first_close("x", ["abcd"]), None);
        // Closeness agrees with the distance.
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcde",
            "abcdef",
            "é",
            "eéé",
            "日本",
            "日本語です",
            "length",
            "lenght",
            "lookup",
            "keys",
            "values",
            "cidrsubnet",
            "cidrhost",
            "concat",
            "contains",
            "format",
            "formatlist",
            "tostring",
            "tonumber",
            "kitten",
            "sitting",
            "xabcx",
            "abxcd",
            "bacd",
            "a_function_name_longer_than_thirty_two",
            "a_function_name_lunger_than_thirty_two_",
            "a_function_name_longer_than_thirty",
        ];
        // And on texts of a small alphabet, long ones included (the band of
        // the matrix, the rows capped at 3).
        let mut state = 12345u32;
        let mut next = move |n: u32| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (state >> 16) % n
        };
        for _ in 0..20_000 {
            let len = next(45) as usize;
            let a: String = (0..len).map(|_| ['a', 'b', 'é'][next(3) as usize]).collect();
            let mut b: Vec<char> = a.chars().collect();
            for _ in 0..next(5) {
                let at = next(b.len() as u32 + 1) as usize;
                match next(3) {
                    0 if at < b.len() => {
                        b.remove(at);
                    }
                    1 => b.insert(at, ['a', 'b', 'c'][next(3) as usize]),
                    _ if at < b.len() => b[at] = ['a', 'b', 'c'][next(3) as usize],
                    _ => {}
                }
            }
            let b: String = b.into_iter().collect();
            assert_eq!(is_close(&a, &b), distance(&a, &b) < 3, "{a} {b}");
            assert_eq!(is_close(&b, &a), distance(&a, &b) < 3, "{b} {a}");
        }
        for a in words {
            for b in words {
                assert_eq!(is_close(a, b), distance(a, b) < 3, "{a} {b}");
                if distance(a, b) < 3 {
                    assert!(may_be_close(char_set(a), char_set(b)), "{a} {b}");
                }
            }
        }
        // The first close one, not the closest nor the smallest.
        let keywords = ["if", "for", "else", "endif", "endfor"];
        assert_eq!(first_close("edif", keywords), Some("if"));
        assert_eq!(closest("edif", keywords), Some("endif"));
    }
}
