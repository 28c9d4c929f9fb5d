//! `hclvm eval FILE | -e EXPR`: evaluate a body, template or expression once
//! and print the result as JSON. Also the pieces `render` and `batch` share:
//! reading sources and variables, choosing the parse mode, printing
//! diagnostics.

use super::declare::DeclareArgs;
use super::ParseAs;
use super::{ColorChoice, FuncArgs, Status};
use crate::api::result_format::ResultWriter;
use crate::api::{Compiled, Diagnostics, Error, Evaluation, Options, SourceKind, Variables};
use clap::{Args, ValueEnum};
use runtime::json::parse_json;
use runtime::json::value_from_case_var;
use std::io::{Read, Write};
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Source file (`-` reads standard input).
    #[arg(value_name = "FILE", required_unless_present = "expr", conflicts_with = "expr")]
    file: Option<String>,
    /// Evaluate this expression instead of a file.
    #[arg(short = 'e', long = "expr", value_name = "EXPR")]
    expr: Option<String>,
    /// How to read FILE; `auto` reads `.tpl`, `.tftpl` and `.tmpl` files as
    /// templates and everything else as config bodies.
    #[arg(long, value_enum, default_value_t = ParseAs::Auto)]
    mode: ParseAs,
    /// Print the reference's typed result form (`{"ok":true,"type":..,"value":..}`,
    /// or `{"ok":true,"body":..}`), also on failure.
    #[arg(long)]
    typed: bool,
    #[command(flatten)]
    vars: VarArgs,
    #[command(flatten)]
    declare: DeclareArgs,
    #[command(flatten)]
    evaluation: EvalOptionArgs,
    #[command(flatten)]
    funcs: FuncArgs,
    #[command(flatten)]
    output: DiagArgs,
}

/// Evaluation options beyond the reference's semantics and the default
/// budgets (all off by default).
#[derive(Args, Debug, Default, Clone)]
pub struct EvalOptionArgs {
    /// Evaluate `&&` and `||` with short-circuit, as hcl does since v2.21
    /// (the operand that decides gives the result and its diagnostics:
    /// `v != null && v.x > 0` is false for a null `v`), instead of as the
    /// reference, hcl v2.20.0, does.
    #[arg(long)]
    pub short_circuit: bool,
    /// At most this long per evaluation (`batch`: per input line), e.g.
    /// `50ms`, `2s`, `1.5m` (units ns, us, ms, s, m, h); an evaluation
    /// still running then fails with "Evaluation limit exceeded".
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<std::time::Duration>,
}

impl EvalOptionArgs {
    /// `options` with these settings.
    pub fn apply(&self, options: Options) -> Options {
        let options = options.short_circuit(self.short_circuit);
        match self.timeout {
            Some(t) => options.deadline(t),
            None => options,
        }
    }
}

/// A duration written as a decimal number and a unit: `50ms`, `2s`,
/// `1.5m`, `100us` (`ns`, `us` or `µs`, `ms`, `s`, `m`, `h`).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let seconds_per_unit = match unit.trim() {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "" => return Err(format!("{text:?} has no unit (ns, us, ms, s, m or h, as in 50ms)")),
        other => return Err(format!("unknown unit {other:?} (ns, us, ms, s, m or h, as in 50ms)")),
    };
    let n: f64 = number.parse().map_err(|_| format!("{text:?} is not a number followed by a unit (as in 50ms)"))?;
    std::time::Duration::try_from_secs_f64(n * seconds_per_unit).map_err(|e| format!("{text:?}: {e}"))
}

/// Where variables come from.
#[derive(Args, Debug, Default)]
pub struct VarArgs {
    /// A JSON object of variables. A value written exactly
    /// `{"type": T, "value": V}` gets go-cty type T; other JSON takes
    /// implied types (objects, tuples, exact numbers).
    #[arg(long = "vars", value_name = "FILE")]
    vars_file: Option<String>,
    /// One variable: NAME=VALUE, VALUE read as JSON if it parses, else taken
    /// as a string. Repeatable; wins over --vars.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    var: Vec<String>,
    /// One variable whose value is not known yet: NAME=TYPE, TYPE in
    /// go-cty's type JSON (`string`, `number`, `bool`, `dynamic`,
    /// `["list","string"]`, `["object",{"a":"number"}]`; the quotes around
    /// a lone word may be left out). Results then show what is known of
    /// them (`{"$unknown":true,"refined":{...}}`). Repeatable; wins over
    /// --var and --vars.
    #[arg(long = "unknown", value_name = "NAME=TYPE")]
    unknown: Vec<String>,
}

/// How diagnostics are printed (always on standard error).
#[derive(Args, Debug)]
pub struct DiagArgs {
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// `text`: as hcl's diagnostic writer; `json`: one JSON array per
    /// report, in the reference's diagnostic format.
    #[arg(long, value_enum, default_value_t = DiagFormat::Text)]
    format: DiagFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagFormat {
    Text,
    Json,
}

impl DiagArgs {
    /// Prints diagnostics about a source to standard error.
    pub fn print(&self, diags: &Diagnostics, src: &[u8]) {
        let text = match self.format {
            DiagFormat::Text => {
                let _ = diags.write(&mut std::io::stderr().lock(), self.color.for_stderr());
                return;
            }
            DiagFormat::Json => diags_json(diags.as_slice(), src),
        };
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }

    /// Prints an evaluation's diagnostics to standard error.
    pub fn print_evaluation(&self, evaluation: &Evaluation, src: &[u8]) {
        let text = match self.format {
            DiagFormat::Text => {
                let mut err = std::io::stderr().lock();
                let _ = evaluation.write_diagnostics(&mut err, self.color.for_stderr());
                return;
            }
            DiagFormat::Json => {
                let diags: Vec<runtime::Diagnostic> = evaluation.diagnostics().into_iter().cloned().collect();
                diags_json(&diags, src)
            }
        };
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

fn diags_json(diags: &[runtime::Diagnostic], src: &[u8]) -> String {
    if diags.is_empty() {
        return String::new();
    }
    let mut w = ResultWriter::new(src);
    w.diags(diags);
    let mut s = w.into_string();
    s.push('\n');
    s
}

/// A CLI failure: the message for standard error and the exit status.
pub struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure { status: Status::UsageOrIo, message: message.into() }
    }
    pub fn input(message: impl Into<String>) -> Failure {
        Failure { status: Status::ProblemsFound, message: message.into() }
    }
    /// Prints the message as `hclvm COMMAND: message` and gives the status.
    pub fn report(self, command: &str) -> Status {
        eprintln!("hclvm {command}: {}", self.message);
        self.status
    }
}

/// Reads a file, or standard input for `-`, into the one copy that the
/// compiled program keeps ([`Compiled::compile_shared`]).
pub fn read_source(name: &str) -> Result<Arc<[u8]>, Failure> {
    let read = if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf).map(|_| Arc::from(buf))
    } else {
        read_file_shared(name)
    };
    read.map_err(|e| Failure::usage(format!("cannot read {name}: {e}")))
}

/// A file's bytes read straight into shared memory (sized by the file's
/// length; a file that grows meanwhile is read to its end all the same).
fn read_file_shared(name: &str) -> std::io::Result<Arc<[u8]>> {
    let mut file = std::fs::File::open(name)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    // One allocation of the final size (the iterator's length is exact).
    let mut shared: Arc<[u8]> = std::iter::repeat(0u8).take(len).collect();
    let buf = Arc::get_mut(&mut shared).expect("a new Arc has no other owner");
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let mut rest = Vec::new();
    file.read_to_end(&mut rest)?;
    if filled == buf.len() && rest.is_empty() {
        return Ok(shared);
    }
    let mut all = buf[..filled].to_vec();
    all.extend_from_slice(&rest);
    Ok(Arc::from(all))
}

/// The name diagnostics use for a source argument.
pub fn display_name(name: &str) -> &str {
    if name == "-" {
        "<stdin>"
    } else {
        name
    }
}

impl VarArgs {
    /// The variables of `--vars` and `--var`.
    pub fn load(&self) -> Result<Variables, Failure> {
        let mut vars = match &self.vars_file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
                // Decoded straight into values (no JSON document first:
                // a million small objects took 37 times the file's size).
                Variables::from_json_text(&text, None, true).map_err(|e| Failure::input(format!("{path}: {}", plain(e))))?
            }
            None => Variables::new(),
        };
        for assignment in &self.var {
            let Some((name, text)) = assignment.split_once('=') else {
                return Err(Failure::usage(format!("--var {assignment:?}: expected NAME=VALUE")));
            };
            if name.is_empty() {
                return Err(Failure::usage(format!("--var {assignment:?}: the name is empty")));
            }
            let value = match parse_json(text) {
                Ok(json) => value_from_case_var(&json),
                Err(_) => Ok(runtime::Value::string(text)),
            };
            match value {
                Ok(v) => {
                    vars.set(name, v);
                }
                Err(e) => return Err(Failure::input(format!("--var {name}: {e}"))),
            }
        }
        for assignment in &self.unknown {
            let Some((name, text)) = assignment.split_once('=') else {
                return Err(Failure::usage(format!("--unknown {assignment:?}: expected NAME=TYPE")));
            };
            if name.is_empty() {
                return Err(Failure::usage(format!("--unknown {assignment:?}: the name is empty")));
            }
            let json = match parse_json(text) {
                Ok(json) => json,
                Err(_) => serde_json::Value::String(text.to_string()),
            };
            match runtime::Type::from_json(&json) {
                Ok(ty) => {
                    vars.set(name, runtime::Value::unknown(ty));
                }
                Err(e) => return Err(Failure::usage(format!("--unknown {name}: {e}"))),
            }
        }
        Ok(vars)
    }
}

fn plain(e: Error) -> String {
    match e {
        Error::Variables(m) => m,
        other => other.to_string(),
    }
}

/// Compiles a source argument with `options` (whose file name it sets)
/// and its declarations, printing syntax errors and invalid type
/// constraints.
pub fn compile_source(
    name: &str,
    src: &Arc<[u8]>,
    kind: SourceKind,
    output: &DiagArgs,
    declare: &DeclareArgs,
    options: Options,
) -> Result<Compiled, Status> {
    let options = match declare.apply(options.filename(display_name(name)), output.color.for_stderr()) {
        Ok(o) => o,
        Err(f) => return Err(f.report("compile")),
    };
    match Compiled::compile_shared(kind, src.clone(), &options) {
        // Warnings come back with every evaluation.
        Ok(c) => Ok(c),
        Err(Error::Compile(diags)) => {
            output.print(&diags, src);
            Err(Status::ProblemsFound)
        }
        Err(Error::Declaration(list)) => {
            for diags in &list {
                output.print(diags, diags.source_text());
            }
            Err(Status::ProblemsFound)
        }
        Err(e) => Err(Failure::input(e.to_string()).report("compile")),
    }
}

pub fn run(args: EvalArgs) -> Status {
    let (name, src, kind) = match (&args.expr, &args.file) {
        (Some(e), _) => ("<expr>".to_string(), Arc::from(e.as_bytes()), SourceKind::Expression),
        (None, Some(file)) => match read_source(file) {
            Ok(src) => (file.clone(), src, args.mode.kind_for(file)),
            Err(f) => return f.report("eval"),
        },
        (None, None) => return Failure::usage("give a FILE or -e EXPR").report("eval"),
    };
    let vars = match args.vars.load() {
        Ok(v) => v,
        Err(f) => return f.report("eval"),
    };
    let options = args.funcs.apply(args.evaluation.apply(Options::new()));
    let compiled = match compile_source(&name, &src, kind, &args.output, &args.declare, options) {
        Ok(c) => c,
        Err(status) => return status,
    };
    // The program keeps the source (for diagnostics).
    drop(src);
    let evaluation = compiled.evaluate(&vars);
    if !evaluation.diagnostics().is_empty() {
        args.output.print_evaluation(&evaluation, compiled.source_bytes());
    }
    let mut out = String::new();
    let status = if args.typed {
        evaluation.write_result_json(&mut out);
        if evaluation.has_errors() {
            Status::ProblemsFound
        } else {
            Status::Ok
        }
    } else {
        // Written as it is made: a large result is not held whole.
        let mut stdout = PassedOn::new(std::io::stdout().lock());
        let status = match evaluation.write_plain_json_to(&mut stdout) {
            Ok(()) => Status::Ok,
            // The errors were printed above.
            Err(Error::Evaluation(_) | Error::InvalidVariables(_)) => Status::ProblemsFound,
            Err(e) => return Failure::input(e.to_string()).report("eval"),
        };
        return match stdout.finish() {
            Ok(()) => status,
            Err(_) => Status::UsageOrIo,
        };
    };
    if !out.is_empty() {
        out.push('\n');
        if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
            return Status::UsageOrIo;
        }
    }
    status
}

/// JSON text passed on to a writer through a buffer of [`PassedOn::PIECE`]
/// bytes, then a line end if there was any text. The writer's first error
/// is kept (the JSON writer cannot fail midway) and nothing is written
/// after it, nor what is still buffered when this is dropped unfinished.
struct PassedOn<W: Write> {
    /// `None` once finished.
    to: Option<std::io::BufWriter<W>>,
    wrote: bool,
    error: Option<std::io::Error>,
}

impl<W: Write> PassedOn<W> {
    const PIECE: usize = 64 << 10;

    fn new(to: W) -> PassedOn<W> {
        PassedOn { to: Some(std::io::BufWriter::with_capacity(Self::PIECE, to)), wrote: false, error: None }
    }

    fn send(&mut self, text: &str) {
        if let (None, Some(to)) = (&self.error, &mut self.to) {
            if let Err(e) = to.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    fn finish(mut self) -> std::io::Result<()> {
        if self.wrote {
            self.send("\n");
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        match self.to.take() {
            Some(mut to) => to.flush(),
            None => Ok(()),
        }
    }
}

impl<W: Write> Drop for PassedOn<W> {
    /// Unfinished (an error, or another return): the buffered text is
    /// discarded, not written by the buffer's own drop.
    fn drop(&mut self) {
        if let Some(to) = self.to.take() {
            drop(to.into_parts());
        }
    }
}

impl<W: Write> runtime::strings::JsonText for PassedOn<W> {
    const PASSES_ON: bool = true;

    fn push_str(&mut self, s: &str) {
        self.wrote = true;
        self.send(s);
    }
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations_need_a_number_and_a_unit() {
        assert_eq!(parse_duration("50ms"), Ok(Duration::from_millis(50)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("100us"), Ok(Duration::from_micros(100)));
        assert_eq!(parse_duration("7ns"), Ok(Duration::from_nanos(7)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["50", "ms", "-1s", "1.2.3s", "5 parsecs", "1e3s", ""] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
