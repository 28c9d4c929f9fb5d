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

/// The smallest of `names` within distance < 3 of `given`.
pub fn closest<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names.into_iter().filter(|n| distance(given, n) < 3).min()
}

/// hcl's `nameSuggestion`: the first of `names`, in their order, within
/// distance < 3 of `given`.
pub fn first_close<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names.into_iter().find(|n| distance(given, n) < 3)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // The first close one, not the closest nor the smallest.
        let keywords = ["if", "for", "else", "endif", "endfor"];
        assert_eq!(first_close("edif", keywords), Some("if"));
        assert_eq!(closest("edif", keywords), Some("endif"));
    }
}
