//! format formatlist: cty's format verb machine. The numeric verbs are Go's
//! `fmt` on `big.Float` / `big.Int`, which `Number::go_format` implements;
//! `%v` of a number is `Number::to_text_general`.

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::number::{GoFormatSpec, Number, MAX_FORMAT_WIDTH};
use crate::strings::{go_quote, go_quote_rune};
use crate::types::Type;
use crate::value::Value;
use unicode_segmentation::UnicodeSegmentation;

#[derive(Default, Clone)]
struct Verb<'a> {
    raw: &'a str,
    offset: usize,
    arg_num: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    prec: Option<usize>,
    width: Option<usize>,
}

fn parse_num(b: &[u8], p: &mut usize) -> usize {
    let mut n: usize = 0;
    while *p < b.len() && b[*p].is_ascii_digit() {
        n = n.saturating_mul(10).saturating_add((b[*p] - b'0') as usize);
        *p += 1;
    }
    n
}

fn unrecognized(s: &str, p: usize) -> FnError {
    let c = s[p..].chars().next().unwrap_or('\u{FFFD}');
    FnError::new(format!("unrecognized format character {} at offset {}", go_quote_rune(c), p))
}

/// cty's formatFSM.
fn format_fsm(fmt: &str, args: &[Value], ctx: &mut CallCtx) -> Result<String, FnError> {
    let b = fmt.as_bytes();
    let mut out = String::new();
    let mut next_arg = 1;
    let mut highest = 0;
    let mut p = 0;
    while p < b.len() {
        if b[p] != b'%' {
            let end = b[p..].iter().position(|&c| c == b'%').map_or(b.len(), |i| p + i);
            out.push_str(&fmt[p..end]);
            p = end;
            continue;
        }
        if b.get(p + 1) == Some(&b'%') {
            out.push('%');
            p += 2;
            continue;
        }
        let start = p;
        p += 1;
        let mut v = Verb { arg_num: next_arg, ..Verb::default() };
        while p < b.len() {
            match b[p] {
                b'0' => v.zero = !v.minus,
                b'#' => v.sharp = true,
                b'-' => {
                    v.minus = true;
                    v.zero = false;
                }
                b'+' => v.plus = true,
                b' ' => v.space = true,
                _ => break,
            }
            p += 1;
        }
        if p < b.len() && (b'1'..=b'9').contains(&b[p]) {
            v.width = Some(parse_num(b, &mut p));
        }
        if p < b.len() && b[p] == b'.' {
            p += 1;
            v.prec = Some(parse_num(b, &mut p));
        }
        if p < b.len() && b[p] == b'[' {
            p += 1;
            if p >= b.len() {
                return Err(FnError::new(format!("invalid format string starting at offset {p}")));
            }
            if !(b'1'..=b'9').contains(&b[p]) {
                return Err(unrecognized(fmt, p));
            }
            v.arg_num = parse_num(b, &mut p);
            if p >= b.len() {
                return Err(FnError::new(format!("invalid format string starting at offset {p}")));
            }
            if b[p] != b']' {
                return Err(unrecognized(fmt, p));
            }
            p += 1;
        }
        if p >= b.len() {
            return Err(FnError::new(format!("invalid format string starting at offset {p}")));
        }
        if !b[p].is_ascii_alphabetic() {
            return Err(unrecognized(fmt, p));
        }
        v.mode = b[p] as char;
        p += 1;
        v.raw = &fmt[start..p];
        v.offset = start;
        highest = highest.max(v.arg_num);
        format_append(&v, &mut out, args)?;
        ctx.charge(out.len() as u64 / 8 + 1)?;
        next_arg = v.arg_num + 1;
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        if highest == 0 {
            return Err(FnError::arg(first_bad, "too many arguments; no verbs in format string"));
        }
        return Err(FnError::arg(first_bad, format!("too many arguments; only {highest} used by format string")));
    }
    Ok(out)
}

fn unsupported(v: &Verb, msg: impl std::fmt::Display) -> FnError {
    FnError::new(format!("unsupported value for {} at {}: {}", go_quote(v.raw), v.offset, msg))
}

fn format_append(v: &Verb, out: &mut String, args: &[Value]) -> Result<(), FnError> {
    let Some(arg) = v.arg_num.checked_sub(1).and_then(|i| args.get(i)) else {
        return Err(FnError::new(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            go_quote(v.raw),
            v.offset,
            v.arg_num,
            args.len()
        )));
    };
    if v.mode != 'v' && arg.is_null() {
        return Err(unsupported(v, "null value cannot be formatted"));
    }
    match v.mode {
        'v' => {
            if !v.sharp {
                match arg {
                    Value::String(s) => return pad_width(v, s, out),
                    Value::Number(n) => {
                        let t = n.to_text_general().map_err(|e| unsupported(v, e))?;
                        return pad_width(v, &t, out);
                    }
                    _ => {}
                }
            }
            let j = crate::json::marshal(arg, &arg.ty()).map_err(|e| unsupported(v, e))?;
            pad_width(v, &j, out)
        }
        't' => {
            let b = convert(arg, &Type::Bool).map_err(|e| unsupported(v, e))?;
            out.push_str(if b.as_bool() == Some(true) { "true" } else { "false" });
            Ok(())
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = convert(arg, &Type::Number).map_err(|e| unsupported(v, e))?;
            let Value::Number(n) = n else {
                return Err(unsupported(v, "a number is required"));
            };
            out.push_str(&format_number(v, &n)?);
            Ok(())
        }
        's' | 'q' => {
            let s = convert(arg, &Type::String).map_err(|e| unsupported(v, e))?;
            let s = s.as_str().unwrap_or("");
            let s = match v.prec {
                Some(p) if p > 0 => {
                    let end = s.grapheme_indices(true).nth(p).map_or(s.len(), |(i, _)| i);
                    &s[..end]
                }
                _ => s,
            };
            if v.mode == 's' {
                pad_width(v, s, out)
            } else {
                let mut q = String::new();
                crate::strings::write_json_string_html(&mut q, s);
                pad_width(v, &q, out)
            }
        }
        m => Err(FnError::new(format!(
            "unsupported format verb {} in {} at offset {}",
            go_quote_rune(m),
            go_quote(v.raw),
            v.offset
        ))),
    }
}

/// cty's own padding for %v, %s and %q: a width in grapheme clusters.
/// cty would build any width; beyond the number verbs' limit we refuse
/// rather than allocate gigabytes.
fn pad_width(v: &Verb, s: &str, out: &mut String) -> Result<(), FnError> {
    let Some(w) = v.width else {
        out.push_str(s);
        return Ok(());
    };
    if w > MAX_FORMAT_WIDTH {
        return Err(unsupported(v, format!("width is too large (the limit is {MAX_FORMAT_WIDTH})")));
    }
    let n = s.graphemes(true).count();
    if n >= w {
        out.push_str(s);
        return Ok(());
    }
    let pad: String = std::iter::repeat(if v.zero { '0' } else { ' ' }).take(w - n).collect();
    if v.minus {
        out.push_str(s);
        out.push_str(&pad);
    } else {
        out.push_str(&pad);
        out.push_str(s);
    }
    Ok(())
}

/// A number verb as Go's fmt runs it on the `*big.Float` (or, for the
/// integer verbs, the exact `*big.Int`) that cty passes.
fn format_number(v: &Verb, n: &Number) -> Result<String, FnError> {
    let spec = GoFormatSpec {
        verb: v.mode,
        plus: v.plus,
        minus: v.minus,
        space: v.space,
        zero: v.zero,
        sharp: v.sharp,
        width: v.width,
        precision: v.prec,
    };
    n.go_format(&spec).map_err(|e| unsupported(v, e))
}

pub fn format(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if args[1..].iter().any(|a| !a.is_wholly_known()) {
        return Ok(Value::Unknown(Type::String));
    }
    let s = format_fsm(str_arg(&args[0]), &args[1..], ctx)?;
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(s))
}

pub fn formatlist(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let fmt = str_arg(&args[0]);
    let rest = &args[1..];
    if rest.is_empty() {
        let s = format_fsm(fmt, rest, ctx)?;
        return Ok(Value::List(match Value::list(vec![Value::from_string(s)]) {
            Ok(Value::List(l)) => l,
            _ => return Err(FnError::new("panic in function implementation: list construction")),
        }));
    }
    let mut iter_len: Option<(usize, usize)> = None;
    let mut unknown = false;
    let mut iterated = vec![false; rest.len()];
    for (i, a) in rest.iter().enumerate() {
        let t = a.ty();
        if (t.is_list() || t.is_set() || t.is_tuple()) && !a.is_null() {
            if !t.is_tuple() && (!a.is_known() || !a.cty_length().is_known()) {
                unknown = true;
                continue;
            }
            let len = match a {
                Value::Unknown(Type::Tuple(tt)) => tt.len(),
                _ => a.elements_slice().len(),
            };
            match iter_len {
                None => iter_len = Some((len, i)),
                Some((l, chooser)) if l != len => {
                    return Err(FnError::arg(
                        i + 1,
                        format!(
                            "argument {} has length {}, which is inconsistent with argument {} of length {}",
                            i + 1,
                            len,
                            chooser + 1,
                            l
                        ),
                    ))
                }
                _ => {}
            }
            if !a.is_known() {
                unknown = true;
                continue;
            }
            iterated[i] = true;
        } else if matches!(a, Value::Unknown(Type::Dynamic)) {
            unknown = true;
        }
    }
    if unknown {
        return Ok(Value::Unknown(ret.clone()));
    }
    let n = match iter_len {
        Some((0, _)) => return Ok(Value::list_empty(Type::String)),
        Some((n, _)) => n,
        None => 1,
    };
    ctx.charge((n as u64).saturating_mul(ELEMENT_COST))?;
    let mut out = Vec::with_capacity(n);
    let mut fmt_args = vec![Value::Null(Type::Dynamic); rest.len()];
    'results: for idx in 0..n {
        for (i, a) in rest.iter().enumerate() {
            fmt_args[i] = if iterated[i] { a.elements_slice()[idx].clone() } else { a.clone() };
            if !fmt_args[i].is_wholly_known() {
                out.push(Value::Unknown(Type::String));
                continue 'results;
            }
        }
        let s = format_fsm(fmt, &fmt_args, ctx)
            .map_err(|e| FnError::new(format!("error on format iteration {idx}: {}", e.message)))?;
        ctx.charge(s.len() as u64)?;
        out.push(Value::from_string(s));
    }
    Value::list_of(Type::String, out).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}

#[cfg(test)]
mod tests {
    use crate::func::{Budget, FunctionTable};
    use crate::number::Number;
    use crate::value::Value;

    /// `"q:A:B"` is A/B, `"s:..."` a string, `"inf"`/`"-inf"` the infinities,
    /// anything else a number literal.
    fn arg(text: &str) -> Value {
        if let Some(s) = text.strip_prefix("s:") {
            return Value::string(s);
        }
        Value::Number(match text {
            "inf" => Number::pos_inf(),
            "-inf" => Number::neg_inf(),
            _ => match text.strip_prefix("q:").and_then(|q| q.split_once(':')) {
                Some((a, b)) => Number::parse(a).unwrap().div(&Number::parse(b).unwrap()).unwrap(),
                None => Number::parse(text).unwrap(),
            },
        })
    }

    fn format(fmt: &str, args: Vec<Value>) -> Result<String, String> {
        let t = FunctionTable::stdlib();
        let id = t.lookup("format").expect("stdlib has format");
        let mut all = vec![Value::string(fmt)];
        all.extend(args);
        match t.call(id, &all, &mut Budget::new(10_000_000)) {
            Ok(v) => Ok(v.as_str().unwrap_or_default().to_string()),
            Err(e) => Err(e[0].detail.clone()),
        }
    }

    /// `format(fmt, x, x, ...)` (one `x` per verb) against the reference's
    /// results; errors are the detail without cty's call wrapper.
    #[test]
    fn format_table() {
        let rows: &[(&str, &str, Result<&str, &str>)] = &[
    ("%f", "10", Ok("10.000000")),
    ("%.1f", "1.06", Ok("1.1")),
    ("%e", "1000", Ok("1.000000e+03")),
    ("%v", "1000", Ok("1000")),
    ("%v", "0.00000000000000000000001", Ok("1e-23")),
    ("%.0f", "0.5", Ok("0")),
    ("%.0f", "1.5", Ok("2")),
    ("%v", "123456789", Ok("1.23456789e+08")),
    ("%.2e", "-2.5", Ok("-2.50e+00")),
    ("%5v", "q:1:7", Ok("0.14285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285")),
    ("%-8v|", "s:ab", Ok("ab      |")),
    ("%08.3f", "-3.14159", Ok("-003.142")),
    ("%+d", "0", Ok("+0")),
    ("%#x", "255", Ok("0xff")),
    ("%x", "-0", Ok("0")),
    ("%d", "0.5", Err("unsupported value for \"%d\" at 0: an integer is required")),
    ("%d", "inf", Err("unsupported value for \"%d\" at 0: an integer is required")),
    ("%e", "inf", Ok("+Inf")),
    ("%010e", "-inf", Ok("      -Inf")),
    ("%.200e", "1e-1200", Ok("9.99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999979887195711199397970758685292736801651079768344e-1201")),
    ("%999999999d", "1", Ok("%!(NOVERB)%!(EXTRA *big.Int=1)")),
    ("%99999999999f", "1e21", Ok("%!(NOVERB)%!(EXTRA *big.Float=1e+21)")),
    ("%3d|%-3d|%03d", "7", Ok("  7|7  |007")),
    ("%d %v %s", "1e21", Ok("1000000000000000000000 1e+21 1000000000000000000000")),
    ("%.3e", "q:1:3", Ok("3.333e-01")),
    ("%g", "q:2:3", Ok("0.6666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666667")),
    ("%G", "1e-7", Ok("1E-07")),
    ("%t", "s:true", Ok("true")),
    ("%v", "s:12", Ok("12")),
        ];
        let mut failures = Vec::new();
        for &(fmt, x, want) in rows {
            let args = vec![arg(x); fmt.matches('%').count()];
            let want = want.map(str::to_string).map_err(|e| format!("Call to function \"format\" failed: {e}."));
            let got = format(fmt, args);
            if got != want {
                failures.push(format!("{fmt} {x}: want {want:?} got {got:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The reference pads %s/%v/%q to any width; beyond the number verbs'
    /// limit we refuse instead of allocating.
    #[test]
    fn huge_string_width_is_refused() {
        let e = format("%10000010s", vec![Value::string("a")]).unwrap_err();
        assert!(e.contains("width is too large"), "{e}");
        assert_eq!(format("%1000000s", vec![Value::string("a")]).map(|s| s.len()), Ok(1_000_000));
        let e = format("%1000001d", vec![Value::int(1)]).unwrap_err();
        assert!(e.contains("format width or precision is too large"), "{e}");
    }
}
