//! "Did you mean" suggestions, chosen deterministically the way the
//! oracle normalizes hcl's: the byte-wise smallest name within edit
//! distance < 3.

/// Levenshtein distance over characters.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        for (a, b, d) in [("", "", 0), ("abc", "abc", 0), ("abc", "abd", 1), ("kitten", "sitting", 3), ("", "ab", 2), ("é", "e", 1)] {
            assert_eq!(distance(a, b), d, "{a} {b}");
        }
        assert_eq!(closest("fooo", ["food", "foo", "bar"]), Some("foo"));
        assert_eq!(closest("x", ["abcd"]), None);
    }
}
