//! Golden listings of compiled programs: variables bound to slots,
//! iterators to locals, constants folded, calls resolved, `try` as a
//! special form, unknown names as deferred diagnostics.

use hclvm::engine::{compile_source, stdlib_table, SourceKind};
use hclvm::vm::disasm::disassemble;

fn listing(src: &str, vars: &[&str]) -> String {
    let program = compile_source(SourceKind::Expr, src.as_bytes(), vars, Some(stdlib_table())).expect("parses");
    disassemble(&program)
}

#[test]
fn listings() {
    let rows: &[(&str, &[&str], &str)] = &[
        (
            r#"a.b[0] + 1"#,
            &["a"],
            r#"locals: 0
add
  traverse .b[0: "number"]
    global 0 (a)
  const 1: "number"
"#,
        ),
        (
            r#"[for k, v in m : "${k}=${v}" if v != null]"#,
            &["m"],
            r#"locals: 2
for local 0, local 1 (tuple)
  global 0 (m)
  value:
    template 3
      local 0
      const "=": "string"
      local 1
  if:
    notequal
      local 1
      const null: "dynamic"
"#,
        ),
        (
            r#"1 + 2 * 3 == 7 ? "yes" : "no""#,
            &[],
            r#"locals: 0
const "yes": "string"
"#,
        ),
        (
            r#"x ? upper(y) : try(z.w, "d")"#,
            &["x", "y", "z"],
            r#"locals: 0
cond
  global 0 (x)
  call upper #9
    global 1 (y)
  try 2
    traverse .w
      global 2 (z)
    const "d": "string"
"#,
        ),
        (
            r#"l[*].name"#,
            &["l"],
            r#"locals: 1
splat local 0
  global 0 (l)
  traverse .name
    local 0
"#,
        ),
        (
            r#"{ (k) = 1, lit = -n }"#,
            &["k", "n"],
            r#"locals: 0
object 2
  key
    global 0 (k)
    const 1: "number"
  key "lit": "string"
    negate
      global 1 (n)
"#,
        ),
    ];
    for (src, vars, want) in rows {
        assert_eq!(listing(src, vars), *want, "{src}");
    }
}

#[test]
fn unknown_variable_is_a_deferred_diagnostic_with_a_suggestion() {
    let text = listing("nope + 1", &["nose"]);
    assert!(text.contains(r#"fail "Unknown variable": "There is no variable named \"nope\". Did you mean \"nose\"?""#), "{text}");
}
