//! The VM's "Unknown variable" when the host gives no names in scope
//! (`vm::Vars` without `set_names_in_scope`; the `hclvm` facade always
//! gives them): the suggestion is among the program's variables that are
//! set, and the search is charged a step for every variable of the
//! program, set or not, so that a program of many variables evaluated
//! with few set ends at the step budget.

use std::sync::Arc;

fn program(src: &str, var_names: &[String]) -> vm::Program {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let (expr, diags) = compiler::parse_expression(&arena, src.as_bytes(), &mut interner);
    assert!(diags.is_empty(), "{diags:?}");
    let env = compiler::lower::CompileEnv::new(var_names, None);
    let lines = Arc::new(compiler::lower::source_lines(Arc::from(src.as_bytes()), compiler::lexer::LexMode::Normal));
    compiler::lower::compile_expr_in(expr, &lines, &interner, &env)
}

fn report(program: &vm::Program, vars: &vm::Vars, max_steps: u64) -> Vec<(String, String)> {
    let mut scratch = vm::Scratch::with_limits(vm::Limits { max_steps, ..vm::Limits::DEFAULT });
    let _ = vm::evaluate(program, vars, &mut scratch);
    scratch.take_diags().into_iter().map(|d| (d.summary.to_string(), d.detail.to_string())).collect()
}

#[test]
fn suggests_among_the_variables_that_are_set() {
    // Of the names within two edits the search picks the first in order:
    // "name" if it looked at the unset ones too, "nmaex", the only one set.
    let names: Vec<String> = ["nmae", "nmaex", "name"].map(String::from).to_vec();
    let p = program("nmae", &names);
    let vars = vm::Vars::bind(&p, [("nmaex", runtime::Value::string("x"))]);
    let diags = report(&p, &vars, vm::Limits::DEFAULT.max_steps);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].0, "Unknown variable");
    assert!(diags[0].1.contains("Did you mean \"nmaex\"?"), "{}", diags[0].1);
}

#[test]
fn every_variable_of_the_program_is_charged_set_or_not() {
    // 100,000 variables, one set: the search looks at each.
    let mut names: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    names.push("name".into());
    let p = program("nmae", &names);
    let vars = vm::Vars::bind(&p, [("name", runtime::Value::string("x"))]);
    let ample = report(&p, &vars, 1_000_000);
    assert_eq!(ample.len(), 1, "{ample:?}");
    assert!(ample[0].1.contains("Did you mean \"name\"?"), "{}", ample[0].1);
    // Fewer steps than variables: the search runs out, the evaluation ends.
    let short = report(&p, &vars, 50_000);
    assert_eq!(short.last().map(|d| d.0.as_str()), Some("Evaluation limit exceeded"), "{short:?}");
}
