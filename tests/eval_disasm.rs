//! Golden listings of the bytecode the compiler emits (expect-test
//! snapshots: `UPDATE_EXPECT=1 cargo test --test eval_disasm` rewrites
//! them after an intended change). They pin variables bound by slot,
//! literal traversals as path operands, constants folded, calls resolved
//! with arguments in consecutive registers, marks only where an operand
//! has code, structured instructions with their blocks, and unknown names
//! as deferred diagnostics.

use expect_test::{expect, Expect};
use hclvm::{Compiled, Options, SourceKind};

/// The listing of `src` compiled as `kind` with `vars` declared (without
/// the `expr:` heading of a single program).
fn listing(kind: SourceKind, src: &str, vars: &[&str]) -> String {
    let compiled = Compiled::compile(kind, src.as_bytes(), &Options::new().variables(vars.iter().copied())).expect("parses");
    let text = compiled.disassemble();
    match kind {
        SourceKind::Body => text,
        _ => text.strip_prefix("expr:\n").expect("one program").to_string(),
    }
}

fn check(src: &str, vars: &[&str], want: Expect) {
    want.assert_eq(&listing(SourceKind::Expression, src, vars));
}

fn check_template(src: &str, vars: &[&str], want: Expect) {
    want.assert_eq(&listing(SourceKind::Template, src, vars));
}

#[test]
fn path_operands_need_no_instructions() {
    check(
        "a.b[0] + 1",
        &["a"],
        expect![[r#"
            ; 1 instructions, 1 registers (0 locals), 0 marks
            ; K0 = 1: "number"
            ; V0 = a (slot 0).b[0: "number"]
            0000  ADD        R0 V0 K0
            entry 0..1 -> R0
        "#]],
    );
}

#[test]
fn operands_with_code_get_a_mark() {
    check(
        r#"request.amount <= (request.user.role == "admin" ? 100000 : 1000)"#,
        &["request"],
        expect![[r#"
            ; 5 instructions, 4 registers (0 locals), 1 marks
            ; K0 = 100000: "number"
            ; K1 = 1000: "number"
            ; K2 = "admin": "string"
            ; V0 = request (slot 0).amount
            ; V1 = request (slot 0).user.role
            0000  EQ         R3 V1 K2
            0001  MARK       M0
            0002  MOVE       R1 V0
            0003  COND       R2 0..1 -> R3 ? K0 : K1
            0004  LE         R0 R1 R2 since M0
            entry 1..5 -> R0
        "#]],
    );
}

#[test]
fn constant_subexpressions_fold() {
    check(
        r#"1 + 2 * 3 == 7 ? "yes" : "no""#,
        &[],
        expect![[r#"
            ; 0 instructions, 0 registers (0 locals), 0 marks
            ; K0 = "yes": "string"
            entry K0
        "#]],
    );
}

#[test]
fn calls_convert_arguments_in_consecutive_registers() {
    check(
        r#"format("%s-%d", upper(x), n) == lower(y)"#,
        &["x", "n", "y"],
        expect![[r#"
            ; 13 instructions, 5 registers (0 locals), 2 marks
            ; K0 = "%s-%d": "string"
            ; V0 = x (slot 1)
            ; V1 = n (slot 0)
            ; V2 = y (slot 2)
            0000  MARK       M0
            0001  MOVE       R2 K0
            0002  MARK       M1
            0003  MOVE       R4 V0
            0004  ARGCONV    R4 param 0 of upper
            0005  CALL       R3 upper#9 R4..R5 since M1
            0006  MOVE       R4 V1
            0007  CALL       R1 format#18 R2..R5 since M0
            0008  MARK       M1
            0009  MOVE       R3 V2
            0010  ARGCONV    R3 param 0 of lower
            0011  CALL       R2 lower#10 R3..R4 since M1
            0012  EQ         R0 R1 R2 since M0
            entry 0..13 -> R0
        "#]],
    );
}

#[test]
fn wrong_arity_is_a_deferred_diagnostic() {
    check(
        "upper(x, x)",
        &["x"],
        expect![[r#"
            ; 1 instructions, 1 registers (0 locals), 0 marks
            0000  FAIL       R0 "Too many function arguments": "Function \"upper\" expects only 1 argument(s)."
            entry 0..1 -> R0
        "#]],
    );
}

#[test]
fn for_expressions_bind_locals() {
    check(
        r#"[for k, v in m : "${k}=${v}" if v != null]"#,
        &["m"],
        expect![[r#"
            ; 3 instructions, 4 registers (2 locals), 0 marks
            ; K0 = "=": "string"
            ; K1 = null: "dynamic"
            ; V0 = m (slot 0)
            0000  TEMPLATE   R3 (R0, K0, R1)
            0001  NE         R3 R1 K1
            0002  FOR        R2 R0, R1 in V0 if 1..2 -> R3 (checked when compiled) value 0..1 -> R3
            entry 2..3 -> R2
        "#]],
    );
}

#[test]
fn object_for_with_grouping() {
    check(
        "{for s in l : s.kind => s.name...}",
        &["l"],
        expect![[r#"
            ; 1 instructions, 2 registers (1 locals), 0 marks
            ; V0 = l (slot 0)
            ; V1 = R0.kind
            ; V2 = R0.name
            0000  FOR        R1 R0 in V0 key V1 value V2 grouped
            entry 0..1 -> R1
        "#]],
    );
}

#[test]
fn conditionals_try_and_can_keep_their_blocks() {
    check(
        r#"x ? upper(y) : try(z.w, "d")"#,
        &["x", "y", "z"],
        expect![[r#"
            ; 6 instructions, 3 registers (0 locals), 1 marks
            ; K0 = "d": "string"
            ; V0 = y (slot 1)
            ; V1 = z (slot 2).w
            ; V2 = x (slot 0)
            0000  MARK       M0
            0001  MOVE       R2 V0
            0002  ARGCONV    R2 param 0 of upper
            0003  CALL       R1 upper#9 R2..R3 since M0
            0004  TRY        R1 (V1, K0)
            0005  COND       R0 V2 ? 0..4 -> R1 : 4..5 -> R1
            entry 5..6 -> R0
        "#]],
    );
    check(
        "can(z.w[0])",
        &["z"],
        expect![[r#"
            ; 1 instructions, 1 registers (0 locals), 0 marks
            ; V0 = z (slot 0).w[0: "number"]
            0000  CAN        R0 (V0)
            entry 0..1 -> R0
        "#]],
    );
}

#[test]
fn splats_run_their_traversal_per_element() {
    check(
        "l[*].name",
        &["l"],
        expect![[r#"
            ; 1 instructions, 2 registers (1 locals), 0 marks
            ; V0 = l (slot 0)
            ; V1 = R0.name
            0000  SPLAT      R1 R0 in V0 each V1
            entry 0..1 -> R1
        "#]],
    );
}

#[test]
fn objects_tuples_and_expanded_calls() {
    check(
        "{ (k) = 1, lit = -n, t = [k, n, 2] }",
        &["k", "n"],
        expect![[r#"
            ; 6 instructions, 5 registers (0 locals), 0 marks
            ; K0 = 1: "number"
            ; K1 = 2: "number"
            ; V0 = k (slot 0)
            ; V1 = n (slot 1)
            ; V2 = k (slot 0)
            ; V3 = n (slot 1)
            0000  NEG        R1 V1
            0001  MOVE       R2 V2
            0002  MOVE       R3 V3
            0003  MOVE       R4 K1
            0004  TUPLE      R1 R2..R5
            0005  OBJECT     R0 {V0 = K0, "lit": "string" = 0..1 -> R1, "t": "string" = 1..5 -> R1}
            entry 5..6 -> R0
        "#]],
    );
    check(
        "max(xs...)",
        &["xs"],
        expect![[r#"
            ; 1 instructions, 1 registers (0 locals), 0 marks
            ; V0 = xs (slot 0)
            0000  CALLEXPAND R0 max#8 (V0)...
            entry 0..1 -> R0
        "#]],
    );
}

#[test]
fn templates_stream_directives() {
    check_template(
        "Hello ${name}!%{ if admin } (admin)%{ endif }%{ for g in groups } ${g}%{ endfor }",
        &["name", "admin", "groups"],
        expect![[r#"
            ; 1 instructions, 2 registers (1 locals), 0 marks
            ; K0 = "Hello ": "string"
            ; K1 = "!": "string"
            ; K2 = " (admin)": "string"
            ; K3 = "": "string"
            ; K4 = " ": "string"
            ; V0 = name (slot 2)
            ; V1 = admin (slot 0)
            ; V2 = groups (slot 1)
            0000  TEMPLATE   R1 (K0, V0, K1, if V1 then K2 else K3, for R0 in V2 each (K4, R0))
            entry 0..1 -> R1
        "#]],
    );
}

#[test]
fn unknown_names_are_deferred_diagnostics_with_suggestions() {
    // An unknown variable's suggestion depends on the variables the
    // evaluation supplies (chosen when it is reported); an iterator in
    // scope is suggested before them, and that is known when compiling.
    check(
        "[for nose in xs : nope]",
        &["xs"],
        expect![[r#"
            ; 2 instructions, 3 registers (1 locals), 0 marks
            ; V0 = xs (slot 0)
            0000  FAIL       R2 "Unknown variable": "There is no variable named \"nope\". Did you mean \"nose\"?"
            0001  FOR        R1 R0 in V0 value 0..1 -> R2
            entry 1..2 -> R1
        "#]],
    );
    check(
        "nope + 1",
        &["nose"],
        expect![[r#"
            ; 3 instructions, 2 registers (0 locals), 1 marks
            ; K0 = 1: "number"
            0000  MARK       M0
            0001  FAIL       R1 "Unknown variable": "nope" (suggestion chosen when reported)
            0002  ADD        R0 R1 K0 since M0
            entry 0..3 -> R0
        "#]],
    );
    check(
        "lenght(x)",
        &["x"],
        expect![[r#"
            ; 1 instructions, 1 registers (0 locals), 0 marks
            0000  FAIL       R0 "Call to unknown function": "There is no function named \"lenght\". Did you mean \"length\"?"
            entry 0..1 -> R0
        "#]],
    );
}

#[test]
fn an_unset_variable_read_before_code_is_moved_first() {
    // `a` is read before `f(b)` runs, so "Unknown variable" for `a` comes
    // before any diagnostic of the call, as in the reference.
    check(
        "a[upper(b)]",
        &["a", "b"],
        expect![[r#"
            ; 6 instructions, 4 registers (0 locals), 1 marks
            ; V0 = a (slot 0)
            ; V1 = b (slot 1)
            0000  MOVE       R1 V0
            0001  MARK       M0
            0002  MOVE       R3 V1
            0003  ARGCONV    R3 param 0 of upper
            0004  CALL       R2 upper#9 R3..R4 since M0
            0005  INDEX      R0 R1 R2
            entry 0..6 -> R0
        "#]],
    );
}

#[test]
fn pure_calls_with_invariant_arguments_in_loops_are_memoized() {
    // `keys(m)` reads only a host variable: computed once per evaluation;
    // `contains(..., k)` depends on the iterator: called per element.
    check(
        r#"[for k in ["a", "b"] : contains(keys(m), k)]"#,
        &["m"],
        expect![[r#"
            ; 8 instructions, 6 registers (1 locals), 2 marks
            ; K0 = ["a","b"]: ["tuple",["string","string"]]
            ; V0 = m (slot 0)
            0000  MARK       M1
            0001  MOVE       R5 V0
            0002  CALL       R4 keys#35 R5..R6 since M1 memo 0
            0003  MARK       M0
            0004  MEMO       R3 memo 0 else 0..3 -> R4
            0005  MOVE       R4 R0
            0006  CALL       R2 contains#31 R3..R5 since M0
            0007  FOR        R1 R0 in K0 value 3..7 -> R2
            entry 7..8 -> R1
        "#]],
    );
}

#[test]
fn length_of_regexall_is_one_call_of_the_composition() {
    // The inner call's arguments, conversions and mark; the outer call is
    // gone. With `...` (or another outer function) the calls stay two.
    check(
        r#"length(regexall("^a", s)) > 0"#,
        &["s"],
        expect![[r#"
            ; 6 instructions, 4 registers (0 locals), 1 marks
            ; K0 = "^a": "string"
            ; K1 = 0: "number"
            ; V0 = s (slot 0)
            0000  MARK       M0
            0001  MOVE       R2 K0
            0002  MOVE       R3 V0
            0003  ARGCONV    R3 param 1 of regexall
            0004  CALL       R1 length(regexall)#c0 R2..R4 since M0
            0005  GT         R0 R1 K1 since M0
            entry 0..6 -> R0
        "#]],
    );
    check(
        r#"length(regexall(xs...))"#,
        &["xs"],
        expect![[r#"
            ; 3 instructions, 2 registers (0 locals), 1 marks
            ; V0 = xs (slot 0)
            0000  MARK       M0
            0001  CALLEXPAND R1 regexall#25 (V0)...
            0002  CALL       R0 length#29 R1..R2 since M0
            entry 0..3 -> R0
        "#]],
    );
}

#[test]
fn for_conditions_are_checked_when_compiled_within_a_small_budget() {
    let listing = |src: &str| listing(SourceKind::Expression, src, &[]);
    // Cheap: checked when compiled, skipped when evaluated.
    assert!(listing(r#"[for k in ["a"] : k if lower(k) != k]"#).contains("(checked when compiled)"));
    // Beyond the compile-time budget (a 1 MB string): left to evaluation.
    let costly = listing(r#"[for k in ["a"] : k if length(format("%1000000s", "")) > 0]"#);
    assert!(costly.contains(" if ") && !costly.contains("(checked when compiled)"), "{costly}");
}

/// Every attribute of a body (nested blocks' after the body's own), as
/// `hclvm disasm` lists them.
fn check_body(src: &str, vars: &[&str], want: Expect) {
    want.assert_eq(&listing(SourceKind::Body, src, vars));
}

#[test]
fn subexpressions_a_body_repeats_are_shared_between_its_attributes() {
    // The `for` and `keys(m)` occur twice: each occurrence is a `MEMO` with
    // a shared slot, computed by the first to run in an evaluation of the
    // body. `[for y in ys : x + y]` reads the outer iterator: not shared.
    check_body(
        "a = [for v in keys(m) : upper(v)]\nr {\n  b = length([for v in keys(m) : upper(v)])\n  c = [for x in xs : [for y in ys : x + y]]\n}\n",
        &["m", "xs", "ys"],
        expect![[r#"
            a:
            ; 10 instructions, 6 registers (1 locals), 1 marks
            ; V0 = m (slot 0)
            0000  MARK       M0
            0001  MOVE       R5 V0
            0002  CALL       R4 keys#35 R5..R6 since M0
            0003  MEMO       R3 shared 1 else 0..3 -> R4
            0004  MARK       M0
            0005  MOVE       R4 R0
            0006  ARGCONV    R4 param 0 of upper
            0007  CALL       R3 upper#9 R4..R5 since M0
            0008  FOR        R2 R0 in 3..4 -> R3 value 4..8 -> R3
            0009  MEMO       R1 shared 0 else 8..9 -> R2
            entry 9..10 -> R1
            r / b:
            ; 12 instructions, 7 registers (1 locals), 2 marks
            ; V1 = m (slot 0)
            0010  MARK       M1
            0011  MOVE       R6 V1
            0012  CALL       R5 keys#35 R6..R7 since M1
            0013  MEMO       R4 shared 1 else 10..13 -> R5
            0014  MARK       M1
            0015  MOVE       R5 R0
            0016  ARGCONV    R5 param 0 of upper
            0017  CALL       R4 upper#9 R5..R6 since M1
            0018  FOR        R3 R0 in 13..14 -> R4 value 14..18 -> R4
            0019  MARK       M0
            0020  MEMO       R2 shared 0 else 18..19 -> R3
            0021  CALL       R1 length#29 R2..R3 since M0
            entry 19..22 -> R1
            r / c:
            ; 3 instructions, 5 registers (2 locals), 0 marks
            ; V2 = xs (slot 1)
            ; V3 = ys (slot 2)
            0022  ADD        R4 R0 R1
            0023  FOR        R3 R1 in V3 value 22..23 -> R4
            0024  FOR        R2 R0 in V2 value 23..24 -> R3
            entry 24..25 -> R2
        "#]],
    );
}

/// The listing of expression `src` compiled with `Options::short_circuit`.
fn check_short_circuit(src: &str, vars: &[&str], want: Expect) {
    let options = Options::new().variables(vars.iter().copied()).short_circuit(true);
    let compiled = Compiled::compile(SourceKind::Expression, src.as_bytes(), &options).expect("parses");
    want.assert_eq(compiled.disassemble().strip_prefix("expr:\n").expect("one program"));
}

#[test]
fn short_circuit_operators_run_their_right_operand_as_a_block() {
    // The right operand is a comparison, so it always converts to bool:
    // skipped when the left operand decides.
    check_short_circuit(
        r#"request.amount <= 1000 && request.currency == "USD""#,
        &["request"],
        expect![[r#"
            ; 4 instructions, 3 registers (0 locals), 1 marks
            ; K0 = 1000: "number"
            ; K1 = "USD": "string"
            ; V0 = request (slot 0).amount
            ; V1 = request (slot 0).currency
            0000  EQ         R2 V1 K1
            0001  MARK       M0
            0002  LE         R1 V0 K0
            0003  ANDTHEN    R0 R1 then 0..1 -> R2 (skipped when decided) since M0
            entry 1..4 -> R0
        "#]],
    );
}

#[test]
fn short_circuit_right_operands_that_may_not_be_bools_run_for_their_type() {
    // `v.enabled` might be a string that does not convert ("Invalid
    // operand" even when `v` is null and the left operand decides).
    check_short_circuit(
        "v != null && v.enabled",
        &["v"],
        expect![[r#"
            ; 3 instructions, 2 registers (0 locals), 1 marks
            ; K0 = null: "dynamic"
            ; V0 = v (slot 0)
            ; V1 = v (slot 0).enabled
            0000  MARK       M0
            0001  NE         R1 V0 K0
            0002  ANDTHEN    R0 R1 then V1 (run for its type when decided) since M0
            entry 0..3 -> R0
        "#]],
    );
}

#[test]
fn short_circuit_chains_nest_blocks() {
    check_short_circuit(
        "(a || b.c > 1) && !d || e",
        &["a", "b", "d", "e"],
        expect![[r#"
            ; 6 instructions, 4 registers (0 locals), 1 marks
            ; K0 = 1: "number"
            ; V0 = a (slot 0)
            ; V1 = b (slot 1).c
            ; V2 = d (slot 2)
            ; V3 = e (slot 3)
            0000  GT         R3 V1 K0
            0001  NOT        R3 V2
            0002  MARK       M0
            0003  ORELSE     R2 V0 then 0..1 -> R3 (skipped when decided)
            0004  ANDTHEN    R1 R2 then 1..2 -> R3 (skipped when decided) since M0
            0005  ORELSE     R0 R1 then V3 (run for its type when decided) since M0
            entry 2..6 -> R0
        "#]],
    );
}

#[test]
fn without_short_circuit_both_operands_are_straight_line_code() {
    check(
        "(a || b.c > 1) && !d || e",
        &["a", "b", "d", "e"],
        expect![[r#"
            ; 7 instructions, 5 registers (0 locals), 1 marks
            ; K0 = 1: "number"
            ; V0 = a (slot 0)
            ; V1 = b (slot 1).c
            ; V2 = d (slot 2)
            ; V3 = e (slot 3)
            0000  MARK       M0
            0001  MOVE       R3 V0
            0002  GT         R4 V1 K0
            0003  OR         R2 R3 R4 since M0
            0004  NOT        R3 V2
            0005  AND        R1 R2 R3 since M0
            0006  OR         R0 R1 V3 since M0
            entry 0..7 -> R0
        "#]],
    );
}

#[test]
fn programs_of_simple_instructions_run_in_the_fast_lane() {
    check(
        r#"(origin == "MOW" || country == "RU") && (value * 2 >= 100 || req.adults == 1)"#,
        &["origin", "country", "value", "req"],
        expect![[r#"
            ; 10 instructions, 5 registers (0 locals), 2 marks, fast lane
            ; K0 = "MOW": "string"
            ; K1 = "RU": "string"
            ; K2 = 2: "number"
            ; K3 = 100: "number"
            ; K4 = 1: "number"
            ; V0 = origin (slot 1)
            ; V1 = country (slot 0)
            ; V2 = value (slot 3)
            ; V3 = req (slot 2).adults
            0000  MARK       M0
            0001  EQ         R2 V0 K0
            0002  EQ         R3 V1 K1
            0003  OR         R1 R2 R3 since M0
            0004  MARK       M1
            0005  MUL        R4 V2 K2
            0006  GE         R3 R4 K3 since M1
            0007  EQ         R4 V3 K4
            0008  OR         R2 R3 R4 since M1
            0009  AND        R0 R1 R2 since M0
            entry 0..10 -> R0
        "#]],
    );
    // A call is not simple: the general loop runs the whole program.
    check(
        r#"a == 1 && length(b) > 2"#,
        &["a", "b"],
        expect![[r#"
            ; 7 instructions, 5 registers (0 locals), 2 marks
            ; K0 = 1: "number"
            ; K1 = 2: "number"
            ; V0 = a (slot 0)
            ; V1 = b (slot 1)
            0000  MARK       M0
            0001  EQ         R1 V0 K0
            0002  MARK       M1
            0003  MOVE       R4 V1
            0004  CALL       R3 length#29 R4..R5 since M1
            0005  GT         R2 R3 K1 since M1
            0006  AND        R0 R1 R2 since M0
            entry 0..7 -> R0
        "#]],
    );
}
