//! Prints how a 2 MiB stack copes with one nesting shape at one depth
//! (`depth_probe SHAPE DEPTH`); used to size `MAX_NESTING`.
fn main() {
    let shapes: Vec<(&str, &str, &str, u8)> = vec![
        ("(", "1", ")", 0),
        ("[", "1", "]", 0),
        ("{a = ", "1", "}", 0),
        ("f(", "1", ")", 0),
        ("!", "true", "", 0),
        ("true ? ", "1", " : 0", 0),
        ("[for x in y : ", "x", "]", 0),
        ("\"${", "1", "}\"", 0),
        ("%{if true}", "x", "%{endif}", 1),
        ("b {\n", "a = 1\n", "}\n", 2),
    ];
    let arg: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let depth: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let (o, m, c, mode) = shapes[arg.min(shapes.len() - 1)];
    let src = format!("{}{}{}", o.repeat(depth), m, c.repeat(depth));
    let r = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let arena = bumpalo::Bump::new();
            let mut i = compiler::Interner::new();
            match mode {
                0 => compiler::parse_expression(&arena, src.as_bytes(), &mut i).1.len(),
                1 => compiler::parse_template(&arena, src.as_bytes(), &mut i).1.len(),
                _ => compiler::parse_body(&arena, src.as_bytes(), &mut i).1.len(),
            }
        })
        .unwrap()
        .join()
        .unwrap();
    println!("shape {arg} depth {depth}: {r} diags");
}
