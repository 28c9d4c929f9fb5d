//! Render one template for many variable sets: compile once, evaluate per
//! JSON Lines input line, write each result to its own file.
//!
//!     cargo run --release --example render -- TEMPLATE VARS.jsonl OUT_DIR
//!
//! Output files are named `OUT_DIR/<line number>.txt`. Without arguments the
//! example renders a small built-in template for three sites to stdout.
//! Try it on `../shared/bench/render/` beside the repository (site.tmpl,
//! sites.jsonl).

use hclvm::{Compiled, Options, Type, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

const DEMO_TEMPLATE: &str = r#"server {
  server_name ${join(" ", site.domains)};
%{ for port in site.ports ~}
  listen ${port}${site.tls ? " ssl" : ""};
%{ endfor ~}
}
"#;

const DEMO_SITES: &str = r#"{"site": {"domains": ["a.example", "www.a.example"], "ports": [443], "tls": true}}
{"site": {"domains": ["b.example"], "ports": [80, 8080], "tls": false}}
{"site": {"domains": [], "ports": [], "tls": false}}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (template, input, out_dir): (String, Box<dyn BufRead>, Option<PathBuf>) = match args.as_slice() {
        [] => (DEMO_TEMPLATE.to_string(), Box::new(DEMO_SITES.as_bytes()), None),
        [template, vars, out_dir] => {
            std::fs::create_dir_all(out_dir)?;
            (std::fs::read_to_string(template)?, Box::new(BufReader::new(std::fs::File::open(vars)?)), Some(out_dir.into()))
        }
        _ => return Err("usage: render TEMPLATE VARS.jsonl OUT_DIR".into()),
    };

    let compiled = Compiled::template(&template, &Options::new().filename("template"))?;
    let (mut rendered, mut failed) = (0usize, 0usize);
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let text = compiled.evaluate_json_str(&line, false).and_then(|evaluation| evaluation.to_value()).map(|value| as_text(&value));
        match text {
            Ok(Some(text)) => {
                rendered += 1;
                match &out_dir {
                    Some(dir) => std::fs::write(dir.join(format!("{}.txt", i + 1)), text)?,
                    None => print!("--- line {}\n{text}", i + 1),
                }
            }
            Ok(None) => {
                failed += 1;
                eprintln!("line {}: the template did not produce text", i + 1);
            }
            Err(e) => {
                failed += 1;
                eprintln!("line {}: {e}", i + 1);
            }
        }
    }
    std::io::stdout().flush()?;
    eprintln!("{rendered} rendered, {failed} failed");
    Ok(())
}

/// A template's result as text: a template that is one interpolation yields
/// that value itself (a number, a bool), which converts to a string.
fn as_text(value: &Value) -> Option<String> {
    let text = hclvm::convert(value, &Type::String).ok()?;
    text.as_str().map(str::to_string)
}
