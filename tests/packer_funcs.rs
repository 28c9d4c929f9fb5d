//! Packer's function table through the embedding API: the file policies
//! (no access, one root, unrestricted) and the budgets that bound the
//! functions a hostile configuration could make expensive (bcrypt's cost,
//! huge cidrsubnets lists, endless files). The results themselves are
//! checked against the oracle in tests/data/rows (packer.jsonl).

use hclvm::{Compiled, FileAccess, Functions, Options, Variables};
use std::path::PathBuf;

fn eval(src: &str, options: &Options) -> Result<String, String> {
    let e = Compiled::expression(src, options).map_err(|e| e.to_string())?;
    let out = e.evaluate(&Variables::new());
    match out.value() {
        Some(v) if out.diagnostics().is_empty() => Ok(match v.as_str() {
            Some(s) => s.to_string(),
            None => format!("{v:?}"),
        }),
        _ => Err(out.diagnostics().iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect::<Vec<_>>().join("\n")),
    }
}

fn packer(files: FileAccess) -> Options {
    Options::new().functions(Functions::packer(files))
}

fn files_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rows/files")
}

#[test]
fn no_file_access_is_the_default_and_reveals_nothing() {
    let o = packer(FileAccess::default());
    for src in [r#"file("tests/data/rows/files/hello.txt")"#, r#"fileexists("/etc/passwd")"#, r#"abspath("x")"#, r#"pathexpand("~/x")"#] {
        let err = eval(src, &o).unwrap_err();
        assert!(err.contains("file access is not allowed here"), "{src}: {err}");
    }
    // What needs no file system still works.
    assert_eq!(eval(r#"abspath("/a/b/../c")"#, &o).unwrap(), "/a/c");
    assert_eq!(eval(r#"pathexpand("a/b")"#, &o).unwrap(), "a/b");
    assert_eq!(eval(r#"basename("/a/b.txt")"#, &o).unwrap(), "b.txt");
}

#[test]
fn a_root_allows_what_is_under_it_only() {
    let o = packer(FileAccess::root(files_dir()));
    assert_eq!(eval(r#"file("hello.txt")"#, &o).unwrap(), "hello, world\n");
    assert_eq!(eval(r#"file("sub/../hello.txt")"#, &o).unwrap(), "hello, world\n");
    assert_eq!(eval(r#"fileexists("sub/template.tpl")"#, &o).unwrap(), "true : \"bool\"");
    assert_eq!(eval(r#"fileexists("nope.txt")"#, &o).unwrap(), "false : \"bool\"");
    let missing = eval(r#"file("nope.txt")"#, &o).unwrap_err();
    assert!(missing.ends_with("no file exists at nope.txt."), "{missing}");
    assert!(eval(r#"abspath("sub")"#, &o).unwrap().ends_with("/tests/data/rows/files/sub"));
    for src in [
        r#"file("../gen_packer.py")"#,
        r#"file("sub/../../gen_packer.py")"#,
        r#"file("/etc/hostname")"#,
        r#"file("~/.bashrc")"#,
        r#"fileexists("..")"#,
        r#"abspath("../x")"#,
        r#"pathexpand("~/x")"#,
    ] {
        let err = eval(src, &o).unwrap_err();
        assert!(err.contains("is outside the directory the host allows file access to"), "{src}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_root_refuses_symbolic_links_that_lead_out() {
    let dir = std::env::temp_dir().join(format!("hclvm-packer-root-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    std::fs::write(dir.join("inner/ok.txt"), "ok").unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("inner/link.txt")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("inner/up")).unwrap();
    std::os::unix::fs::symlink("ok.txt", dir.join("inner/same.txt")).unwrap();
    let o = packer(FileAccess::root(dir.join("inner")));
    assert_eq!(eval(r#"file("ok.txt")"#, &o).unwrap(), "ok");
    assert_eq!(eval(r#"file("same.txt")"#, &o).unwrap(), "ok", "a link that stays inside is followed");
    for src in [r#"file("link.txt")"#, r#"file("up/secret.txt")"#, r#"fileexists("up/nothing")"#] {
        let err = eval(src, &o).unwrap_err();
        assert!(err.contains("is outside the directory"), "{src}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unrestricted_is_packers_behaviour() {
    let o = packer(FileAccess::Unrestricted);
    let text = eval(&format!("file({:?})", files_dir().join("hello.txt").display().to_string()), &o).unwrap();
    assert_eq!(text, "hello, world\n");
    let err = eval(r#"file("/nonexistent/x")"#, &o).unwrap_err();
    assert_eq!(err, "Error in function call: Call to function \"file\" failed: no file exists at /nonexistent/x.");
}

#[cfg(unix)]
#[test]
fn an_endless_file_ends_at_the_size_budget() {
    let o = packer(FileAccess::Unrestricted).max_size(1 << 20);
    let err = eval(r#"file("/dev/zero")"#, &o).unwrap_err();
    assert!(err.contains("the result is too large"), "{err}");
}

#[test]
fn bcrypt_cost_is_bounded_by_the_size_budget() {
    let o = packer(FileAccess::None);
    // The default budget allows the default cost...
    assert_eq!(eval(r#"length(bcrypt("pw"))"#, &o).unwrap(), "60 : \"number\"");
    // ...but not hours of work: cost 31 is refused at once.
    let t = std::time::Instant::now();
    let err = eval(r#"bcrypt("pw", 31)"#, &o).unwrap_err();
    assert!(err.contains("the result is too large"), "{err}");
    assert!(t.elapsed().as_secs() < 5);
    // A smaller budget lowers the ceiling.
    let small = packer(FileAccess::None).max_size(1 << 20);
    assert!(eval(r#"bcrypt("pw", 10)"#, &small).is_err());
    assert!(eval(r#"bcrypt("pw", 4)"#, &small).is_ok());
}

#[test]
fn huge_cidrsubnets_lists_are_bounded() {
    let o = packer(FileAccess::None).max_size(1 << 20);
    let err = eval(r#"cidrsubnets("10.0.0.0/8", flatten([for i in range(1000) : [for j in range(1000) : 24]])...)"#, &o).unwrap_err();
    assert!(err.contains("too large") || err.contains("Evaluation limit exceeded"), "{err}");
    let o = packer(FileAccess::None);
    assert_eq!(
        eval(r#"length(cidrsubnets("10.0.0.0/8", flatten([for i in range(16) : [for j in range(256) : 20]])...))"#, &o).unwrap(),
        "4096 : \"number\""
    );
}

#[test]
fn clock_and_randomness_are_impure() {
    use hclvm::FunctionTable;
    let t = Functions::packer(FileAccess::None);
    for name in ["timestamp", "legacy_isotime", "legacy_strftime", "uuidv4", "bcrypt", "file", "fileexists", "abspath", "pathexpand"] {
        let id = t.lookup(name).unwrap_or_else(|| panic!("{name}"));
        assert!(!t.signature(id).pure, "{name} must not be pure");
    }
    for name in ["sha256", "cidrsubnet", "uuidv5", "length", "index"] {
        assert!(t.signature(t.lookup(name).unwrap()).pure, "{name}");
    }
    // Not memoized in a loop: each iteration draws a new UUID.
    let o = packer(FileAccess::None);
    assert_eq!(eval("length(distinct([for i in range(20) : uuidv4()]))", &o).unwrap(), "20 : \"number\"");
}

fn eval_yaml(src: &str, yaml: &str, options: &Options) -> Result<String, String> {
    let e = Compiled::expression(src, options).map_err(|e| e.to_string())?;
    let out = e.evaluate(&Variables::new().with("y", hclvm::Value::string(yaml)));
    match out.value() {
        Some(v) if out.diagnostics().is_empty() => Ok(match v.as_str() {
            Some(s) => s.to_string(),
            None => format!("{v:?}"),
        }),
        _ => Err(out.diagnostics().iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect::<Vec<_>>().join("\n")),
    }
}

#[test]
fn deep_yaml_is_an_error_not_a_stack_overflow() {
    let o = packer(FileAccess::None);
    // Nesting up to the limit decodes (each construct in a thread of its
    // own default stack size, as a host would call it).
    let ok = format!("{}{}", "[".repeat(9_000), "]".repeat(9_000));
    let handle = std::thread::spawn(move || eval_yaml("length(yamldecode(y))", &ok, &packer(FileAccess::None)));
    assert_eq!(handle.join().unwrap().unwrap(), "1 : \"number\"");
    for deep in [
        "[".repeat(200_000),
        format!("{}x{}", "[".repeat(50_000), "]".repeat(50_000)),
        "- ".repeat(20_000) + "x",
        "{a: ".repeat(30_000),
        (0..12_000).map(|i| format!("{}k:\n", " ".repeat(i))).collect::<String>(),
    ] {
        let t = std::time::Instant::now();
        let err = eval_yaml("yamldecode(y)", &deep, &o).unwrap_err();
        assert!(err.contains("nested too deeply") || err.contains("did not find expected"), "{err}");
        // A guard against a hang, not a measure of speed: the indented
        // case is 72 MB of text, about 5 s in a debug build on a busy
        // 2-core host (each case took 4 s before the scanner stopped
        // walking every level's key per token; 10 s was once exceeded).
        assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
    }
    // Encoding a deep value recurses on guarded stack segments.
    let deep_value = format!("{}1{}", "[".repeat(9_000), "]".repeat(9_000));
    assert!(eval_yaml("yamlencode(yamldecode(y))", &deep_value, &o).unwrap().starts_with("- - - "));
}

#[test]
fn yaml_alias_expansion_is_bounded_by_the_size_budget() {
    let o = packer(FileAccess::None);
    // "Billion laughs": every level repeats the previous one ten times.
    let mut doc = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..12 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        doc.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let t = std::time::Instant::now();
    let err = eval_yaml("yamldecode(y)", &doc, &o).unwrap_err();
    assert!(err.contains("the result is too large"), "{err}");
    assert!(t.elapsed().as_secs() < 5);
    // A few levels are fine.
    let small: String = doc.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(eval_yaml("length(yamldecode(y).a2)", &small, &o).unwrap(), "10 : \"number\"");
    // Many aliases of one large anchor are charged each time.
    let big = format!("a: &a [{}]\nb: [{}]\n", vec!["x"; 10_000].join(", "), vec!["*a"; 10_000].join(", "));
    let err = eval_yaml("yamldecode(y)", &big, &packer(FileAccess::None).max_size(1 << 20)).unwrap_err();
    assert!(err.contains("the result is too large"), "{err}");
}

#[test]
fn hostile_yaml_never_panics() {
    let o = packer(FileAccess::None);
    let mut inputs: Vec<String> = vec![
        "\u{0}".into(),
        "\"\\".into(),
        "'".into(),
        "!<".into(),
        "!".into(),
        "&".into(),
        "*".into(),
        "%TAG".into(),
        "%YAML 99999.1".into(),
        "|9\n x".into(),
        "? ? ? ?".into(),
        ": : :".into(),
        "!%zz x".into(),
        "!%C3 x".into(),
        "!%C3%28 x".into(),
        "\u{feff}".repeat(3),
        "\r".into(),
        "a:\r b".into(),
        "\"\\U0010FFFF\\UFFFFFFFF\"".into(),
        format!("[{}]", "a, ".repeat(100_000)),
        format!("{{{}}}", "a: b, ".repeat(50_000)),
        "x ".repeat(500_000),
    ];
    for c in [0u32, 0x7f, 0x85, 0x2028, 0xfffe, 0xfeff] {
        let ch = char::from_u32(c).unwrap();
        inputs.push(format!("a: [1, {ch}]\n- b"));
        inputs.push(format!("{}{ch}", "k: v\n".repeat(110)));
    }
    for y in &inputs {
        let _ = eval_yaml("yamldecode(y)", y, &o);
        let _ = eval_yaml("yamlencode(y)", y, &o);
    }
}

#[test]
fn fileset_and_templatefile_follow_the_file_policy() {
    let none = packer(FileAccess::None);
    for src in [r#"fileset(".", "*")"#, r#"templatefile("tmpl/hello.tpl", {name = "x"})"#] {
        let err = eval(src, &none).unwrap_err();
        assert!(err.contains("file access is not allowed here"), "{src}: {err}");
    }
    let o = packer(FileAccess::root(files_dir()));
    assert_eq!(eval(r#"join(",", fileset("tree", "*.md"))"#, &o).unwrap(), "b.md");
    assert_eq!(eval(r#"join(",", fileset("tree/dir1", "**/*.txt"))"#, &o).unwrap(), "deep/z.txt,x.txt");
    assert_eq!(eval(r#"templatefile("tmpl/hello.tpl", {name = "root"})"#, &o).unwrap(), "Hello, root!");
    for src in [
        r#"fileset("..", "*")"#,
        r#"fileset("tree", "../../*")"#,
        r#"fileset(".", "{..,tree}/*")"#,
        r#"fileset("/etc", "*")"#,
        r#"fileset("/", "etc/*")"#,
        r#"templatefile("../gen_packer.py", {})"#,
        r#"templatefile("/etc/hostname", {})"#,
        r#"templatefile("~/.profile", {})"#,
    ] {
        let err = eval(src, &o).expect_err(src);
        assert!(err.contains("is outside the directory the host allows file access to"), "{src}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn fileset_refuses_links_out_of_the_root_and_survives_cycles() {
    let dir = std::env::temp_dir().join(format!("hclvm-fileset-root-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inner/a")).unwrap();
    std::fs::write(dir.join("inner/a/ok.txt"), "ok").unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    let o = packer(FileAccess::root(dir.join("inner")));
    assert_eq!(eval(r#"join(",", fileset(".", "**"))"#, &o).unwrap(), "a/ok.txt");
    // Links back into a directory that contains them: a walk with `**`
    // follows them (as doublestar does) until the budget ends it.
    std::os::unix::fs::symlink(dir.join("inner"), dir.join("inner/a/loop1")).unwrap();
    std::os::unix::fs::symlink(dir.join("inner"), dir.join("inner/a/loop2")).unwrap();
    let t = std::time::Instant::now();
    let small = packer(FileAccess::root(dir.join("inner"))).max_size(1 << 18);
    let err = eval(r#"fileset(".", "**")"#, &small).unwrap_err();
    assert!(err.contains("too large") || err.contains("file name too long"), "{err}");
    assert!(t.elapsed().as_secs() < 20);
    std::fs::remove_file(dir.join("inner/a/loop1")).unwrap();
    std::fs::remove_file(dir.join("inner/a/loop2")).unwrap();
    // A link that leads out of the root.
    std::os::unix::fs::symlink(&dir, dir.join("inner/up")).unwrap();
    for src in [r#"fileset(".", "**")"#, r#"fileset("up", "*")"#, r#"fileset(".", "up/*.txt")"#, r#"fileset(".", "up/nothing/*")"#] {
        let err = eval(src, &o).unwrap_err();
        assert!(err.contains("is outside the directory"), "{src}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory of templates for the tests below.
fn template_dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hclvm-templatefile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (f, text) in files {
        std::fs::write(dir.join(f), text).unwrap();
    }
    dir
}

#[test]
fn templatefile_cannot_recurse() {
    let dir = template_dir(
        "recursion",
        &[("self.tpl", r#"${templatefile("self.tpl", {})}"#), ("tryself.tpl", r#"${try(templatefile("self.tpl", {}), "stub")}"#)],
    );
    let o = packer(FileAccess::root(&dir));
    let err = eval(r#"templatefile("self.tpl", {})"#, &o).unwrap_err();
    assert!(err.contains("cannot recursively call templatefile from inside templatefile call"), "{err}");
    assert_eq!(eval(r#"templatefile("tryself.tpl", {})"#, &o).unwrap(), "stub");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn templatefile_output_and_work_are_bounded_by_the_budgets() {
    let dir = template_dir(
        "budget",
        &[
            ("big.tpl", "%{ for i in range(n) }%{ for j in range(n) }${s}%{ endfor }%{ endfor }"),
            ("slow.tpl", "%{ for i in range(n) }%{ for j in range(n) }%{ for k in range(n) }%{ endfor }%{ endfor }%{ endfor }"),
            ("small.tpl", "%{ for i in range(50) }${i}%{ endfor }"),
            ("bad.tpl", "${nope}"),
        ],
    );
    let t = std::time::Instant::now();
    let o = packer(FileAccess::root(&dir)).max_size(1 << 20);
    // Output larger than the caller's size budget.
    let err = eval(r#"templatefile("big.tpl", {n = 1000, s = "0123456789abcdef"})"#, &o).unwrap_err();
    assert!(err.contains("Evaluation limit exceeded") || err.contains("too large"), "{err}");
    // Work beyond what is left.
    let err = eval(r#"templatefile("slow.tpl", {n = 1000})"#, &o).unwrap_err();
    assert!(err.contains("Evaluation limit exceeded") || err.contains("too large"), "{err}");
    // Many small renders: the steps of each are charged to the caller.
    let err = eval(r#"length(flatten([for i in range(1000) : [for j in range(1000) : templatefile("small.tpl", {})]]))"#, &o).unwrap_err();
    assert!(err.contains("Evaluation limit exceeded") || err.contains("too large"), "{err}");
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    // Within the budget, all is well.
    assert_eq!(eval(r#"length(templatefile("small.tpl", {}))"#, &o).unwrap(), "90 : \"number\"");
    // Running out ends the caller's evaluation: `try` does not catch it
    // (it used to, as any error of the call); an ordinary error of the
    // template it does.
    let err = eval(r#"try(templatefile("slow.tpl", {n = 1000}), "caught")"#, &o).unwrap_err();
    assert!(err.starts_with("Evaluation limit exceeded: "), "{err}");
    assert_eq!(eval(r#"try(templatefile("bad.tpl", {}), templatefile("missing.tpl", {}), "caught")"#, &o).unwrap(), "caught");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simple_keys_go_stale_as_in_the_reference() {
    // A simple key must end on its line within 1024 characters; the scanner
    // drops the keys that can no longer end (the reference's results).
    let o = packer(FileAccess::None);
    let decoded = |y: &str| eval_yaml("jsonencode(yamldecode(y))", y, &o);
    let key = "k".repeat(1020);
    assert_eq!(decoded(&format!("{key}: 1")).unwrap(), format!("{{\"{key}\":1}}"));
    assert_eq!(decoded("[a, [b, [c, [d: 1, e]]], f: g]").unwrap(), r#"["a",["b",["c",[{"d":1},"e"]]],{"f":"g"}]"#);
    // Several levels' keys go stale at one line break.
    assert_eq!(decoded("[[[a\n]]]").unwrap(), r#"[[["a"]]]"#);
    let failures = [
        (format!("{}: 1", "k".repeat(1100)), "mapping values are not allowed in this context."),
        (format!("[{}: 1]", "k".repeat(1030)), "did not find expected ',' or ']'."),
        (format!("key: [{}: b]", "a".repeat(1030)), "did not find expected ',' or ']'."),
        ("{a: 1, b\n: 2}".to_string(), "on line 1, column 1: did not find expected ',' or '}'."),
        (format!("{}a{}", "[".repeat(50), "]".repeat(49)), "on line 1, column 1: did not find expected ',' or ']'."),
        ("x: 1\n[[a,\n b]]: 2".to_string(), "on line 3, column 1: could not find expected ':'."),
        ("[[[a\n]]]: x".to_string(), "on line 2, column 1: mapping values are not allowed in this context."),
    ];
    for (y, detail) in failures {
        let err = decoded(&y).unwrap_err();
        assert!(err.ends_with(&format!("Call to function \"yamldecode\" failed: {detail}")), "{err}");
    }
}
