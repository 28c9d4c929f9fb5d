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
    const ON_STACK: usize = 32;
    let mut stack = [[0usize; ON_STACK + 1]; 2];
    let mut heap;
    let (mut prev, mut cur): (&mut [usize], &mut [usize]) = if b.len() <= ON_STACK {
        let [p, c] = &mut stack;
        (&mut p[..=b.len()], &mut c[..=b.len()])
    } else {
        heap = (vec![0; b.len() + 1], vec![0; b.len() + 1]);
        (&mut heap.0, &mut heap.1)
    };
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j;
    }
    for (i, x) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut row_min = cur[0];
        for (j, y) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(x != y);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            row_min = row_min.min(cur[j + 1]);
        }
        if row_min > 2 {
            return false;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] <= 2
}

/// The smallest of `names` within distance < 3 of `given`.
pub fn closest<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names.into_iter().filter(|n| is_close(given, n)).min()
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
        for a in words {
            for b in words {
                assert_eq!(is_close(a, b), distance(a, b) < 3, "{a} {b}");
            }
        }
        // The first close one, not the closest nor the smallest.
        let keywords = ["if", "for", "else", "endif", "endfor"];
        assert_eq!(first_close("edif", keywords), Some("if"));
        assert_eq!(closest("edif", keywords), Some("endif"));
    }
}
