//! Calls computed as one: `outer(inner(...))`.
//!
//! Some nestings are idioms whose outer call only measures what the inner
//! one builds: `length(regexall(pattern, s)) > 0` is how Terraform
//! configurations ask whether a string matches (six of the seven corpus
//! files that call `regexall` do it that way). A composition computes such
//! a nesting in one call: the match count without the list of matches.
//!
//! The code generator asks the table for a composition of each call
//! whose single argument is a call ([`FunctionTable::composed`]) and calls
//! it in place of the inner call, with the inner call's arguments, ranges
//! and parameters. That is exact because
//!
//! - the outer function's parameter takes anything as it is (dynamic,
//!   unknowns allowed), so the inner result reaches it unconverted;
//! - the outer call cannot fail on what the inner one returns, so every
//!   diagnostic is the inner call's, at the inner call's ranges, and an
//!   inner call that fails leaves `DynamicVal`, as hcl's outer call does
//!   when its argument reported an error;
//! - the shortcut ([`Composition::fast`]) covers only known arguments,
//!   and when it fails, it fails as the inner call does (charged the same
//!   budget); any other call is made as the two calls.
//!
//! Compositions have ids of their own, from [`FuncId::COMPOSED`] up, and
//! no name that `lookup` finds (their name, `outer(inner)`, is for
//! listings): no source can call one directly.
//!
//! [`FunctionTable::composed`]: super::FunctionTable::composed

use super::{CallCtx, FnError, FuncId, Signature};
use crate::value::Value;

/// One composition of a table: `outer(inner(...))`.
pub(super) struct Composition {
    pub(super) outer: FuncId,
    pub(super) inner: FuncId,
    /// The inner function's parameters; pure when both functions are.
    pub(super) signature: Signature,
    /// How the disassembler and messages name it: `outer(inner)`.
    pub(super) name: String,
    pub(super) fast: Shortcut,
}

/// The composed result for the common arguments, or the inner function's
/// error, as its call would fail; `None` for the others, decided before
/// anything is charged (the two calls are then made).
pub(super) type Shortcut = fn(&[Value], &mut CallCtx) -> Option<Result<Value, FnError>>;

/// The compositions a table of the standard functions offers: the outer
/// and inner functions' names, and the shortcut.
pub(super) const STANDARD: &[(&str, &str, Shortcut)] = &[("length", "regexall", super::regex::regexall_count)];

impl FuncId {
    /// The first id of a composition ([`super::compose`]); a table's own
    /// functions have smaller ids.
    pub const COMPOSED: u32 = 1 << 31;

    /// Which composition of its table this id names, if it names one.
    #[inline]
    pub fn composition(self) -> Option<u32> {
        self.0.checked_sub(FuncId::COMPOSED)
    }
}

#[cfg(test)]
mod tests {
    use crate::func::{FileAccess, FunctionTable, Functions, SizeBudget};
    use crate::types::Type;
    use crate::value::Value;

    /// Every composition of both standard tables against its two calls,
    /// on arguments the shortcut takes and on those it leaves to them.
    #[test]
    fn compositions_equal_their_two_calls() {
        let patterns = ["[a-z]+", "(a)(b)?", "", "x*", "(?P<x>a)(?P<y>b)?", "^a", "a$", "[", "a(", "\\bx", "(?i)É"];
        let strings = ["", "abc def", "aab ab b", "héllo", "x xx x", "ÉéE", "banana"];
        let mut args: Vec<[Value; 2]> = Vec::new();
        for p in patterns {
            for s in strings {
                args.push([Value::string(p), Value::string(s)]);
            }
            args.push([Value::string(p), Value::unknown(Type::String)]);
            args.push([Value::string(p), Value::null(Type::String)]);
            args.push([Value::string(p), Value::dynamic_unknown()]);
        }
        args.push([Value::unknown(Type::String), Value::string("a")]);
        args.push([Value::null(Type::String), Value::string("a")]);
        let mut checked = 0;
        for table in [Functions::stdlib(), Functions::packer(FileAccess::None)] {
            let (length, regexall) = (table.lookup("length").unwrap(), table.lookup("regexall").unwrap());
            let id = table.composed(length, regexall).expect("the standard tables compose length(regexall)");
            assert_eq!(table.name(id), "length(regexall)");
            assert_eq!(table.signature(id).params.len(), 2);
            assert!(table.composed(regexall, length).is_none());
            for a in &args {
                let one = table.call(id, a, &mut SizeBudget::unlimited());
                let two = table
                    .call(regexall, a, &mut SizeBudget::unlimited())
                    .and_then(|list| table.call(length, std::slice::from_ref(&list), &mut SizeBudget::unlimited()));
                assert_eq!(format!("{one:?}"), format!("{two:?}"), "length(regexall({:?}, {:?}))", a[0], a[1]);
                checked += 1;
            }
        }
        assert_eq!(checked, 2 * (patterns.len() * (strings.len() + 3) + 2));
    }

    /// Under every size budget, from none to plenty, a composition and
    /// its two calls charge the same and fail alike: compiling the
    /// pattern (each side on a thread and a table of its own, so that no
    /// regex cache holds it yet), each match's element, with its groups.
    #[test]
    fn compositions_charge_as_their_two_calls() {
        let cases = [
            ("[a-z]{30}x", "abc"),
            ("[a-z]{30}x|a", "abc a"),
            ("(a)(b)", "ababababababababababab"),
            ("(?P<x>a)(b)?", "aab ab b a"),
            ("a", "banana"),
            ("", "abc"),
            ("[", "a"),
        ];
        let mut limits: Vec<u64> = (0..40).map(|i| i * 100).collect();
        limits.extend([10_000, 100_000, 1 << 20]);
        for (pattern, text) in cases {
            let args = [Value::string(pattern), Value::string(text)];
            for &limit in &limits {
                // (result, budget used, budget exceeded) of one side.
                let side = |composed: bool| {
                    std::thread::scope(|scope| {
                        scope
                            .spawn(|| {
                                let t = Functions::stdlib();
                                let (length, regexall) = (t.lookup("length").unwrap(), t.lookup("regexall").unwrap());
                                let mut budget = SizeBudget::new(limit);
                                let r = if composed {
                                    t.call(t.composed(length, regexall).unwrap(), &args, &mut budget)
                                } else {
                                    t.call(regexall, &args, &mut budget)
                                        .and_then(|list| t.call(length, std::slice::from_ref(&list), &mut budget))
                                };
                                (format!("{r:?}"), budget.used(), budget.exceeded())
                            })
                            .join()
                            .unwrap()
                    })
                };
                let what = format!("length(regexall({pattern:?}, {text:?})) within {limit}");
                assert_eq!(side(true), side(false), "{what}");
            }
        }
    }

    /// A table of the host's own functions composes nothing.
    #[test]
    fn other_tables_compose_nothing() {
        let t = Functions::empty();
        assert!(t.composed(crate::func::FuncId(0), crate::func::FuncId(1)).is_none());
    }
}
