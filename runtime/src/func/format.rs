//! format formatlist: cty's format verb machine. The numeric verbs are Go's
//! `fmt` on `big.Float` / `big.Int`, which `Number::go_format` implements;
//! `%v` of a number is `Number::to_text_general`.

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::graphemes::Textseg;
use crate::number::{GoFormatSpec, Number};
use crate::strings::{go_quote, go_quote_rune};
use crate::types::Type;
use crate::value::Value;

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
    let mut out = String::with_capacity(fmt.len() + 16);
    let mut next_arg = 1;
    let mut highest = 0;
    // The bytes of `out` charged to the size budget so far.
    let mut charged = 0;
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
        format_append(&v, &mut out, args, ctx)?;
        // What the verb and the text before it appended, and a unit for
        // the verb's work.
        ctx.charge((out.len() - charged) as u64 + 1)?;
        charged = out.len();
        next_arg = v.arg_num + 1;
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        if highest == 0 {
            return Err(FnError::arg(first_bad, "too many arguments; no verbs in format string"));
        }
        return Err(FnError::arg(first_bad, format!("too many arguments; only {highest} used by format string")));
    }
    ctx.charge((out.len() - charged) as u64)?;
    Ok(out)
}

fn unsupported(v: &Verb, msg: impl std::fmt::Display) -> FnError {
    FnError::new(format!("unsupported value for {} at {}: {}", go_quote(v.raw), v.offset, msg))
}

/// Fails with the size budget's error, before anything is built, when
/// `units` more would not fit: cty pads strings to any width, and Go's fmt
/// builds any width or precision it can read, so a verb asking for
/// gigabytes ends the evaluation at its budget. (What a verb appends is
/// charged once appended, [`format_fsm`].)
fn check_room(units: usize, ctx: &mut CallCtx) -> Result<(), FnError> {
    if units as u64 > ctx.budget.remaining() {
        ctx.charge(units as u64)?;
    }
    Ok(())
}

fn is_number_verb(mode: char) -> bool {
    matches!(mode, 'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G')
}

fn format_append(v: &Verb, out: &mut String, args: &[Value], ctx: &mut CallCtx) -> Result<(), FnError> {
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
    if fast_append(v, arg, out) {
        return Ok(());
    }
    match v.mode {
        'v' => {
            if !v.sharp {
                match arg {
                    Value::String(s) => return pad_width(v, s, out, ctx),
                    Value::Number(n) => {
                        let t = n.to_text_general().map_err(|e| unsupported(v, e))?;
                        return pad_width(v, &t, out, ctx);
                    }
                    _ => {}
                }
            }
            let max_len = usize::try_from(ctx.remaining()).unwrap_or(usize::MAX);
            let j = match crate::json::marshal_within(arg, &arg.ty(), max_len) {
                Ok(j) => j,
                Err(crate::json::MarshalStop::Invalid(e)) => return Err(unsupported(v, e)),
                Err(crate::json::MarshalStop::TooLong) => return Err(ctx.too_large()),
            };
            pad_width(v, &j, out, ctx)
        }
        't' => {
            let b = convert(arg, &Type::Bool).map_err(|e| unsupported(v, e))?;
            out.push_str(if b.as_bool() == Some(true) { "true" } else { "false" });
            Ok(())
        }
        m if is_number_verb(m) => {
            let n = convert(arg, &Type::Number).map_err(|e| unsupported(v, e))?;
            let Value::Number(n) = n else {
                return Err(unsupported(v, "a number is required"));
            };
            out.push_str(&format_number(v, &n, ctx)?);
            Ok(())
        }
        's' | 'q' => {
            let converted;
            let s = match arg {
                Value::String(s) => s.as_str(),
                _ => {
                    converted = convert(arg, &Type::String).map_err(|e| unsupported(v, e))?;
                    converted.as_str().unwrap_or("")
                }
            };
            let s = match v.prec {
                Some(p) if p > 0 => {
                    let end = crate::graphemes::nth_start(s, p, Textseg::V13).unwrap_or(s.len());
                    &s[..end]
                }
                _ => s,
            };
            if v.mode == 's' {
                pad_width(v, s, out, ctx)
            } else {
                let mut q = String::new();
                crate::strings::write_json_string_html(&mut q, s);
                pad_width(v, &q, out, ctx)
            }
        }
        m => Err(FnError::new(format!("unsupported format verb {} in {} at offset {}", go_quote_rune(m), go_quote(v.raw), v.offset))),
    }
}

/// No flag, width or argument index other than the next one: the verbs
/// whose text is the value's own text.
fn is_plain(v: &Verb) -> bool {
    !(v.zero || v.sharp || v.plus || v.minus || v.space) && v.width.is_none()
}

/// The common verbs without the general machinery: `%s` of a string, `%d`
/// of an integer that fits i64 and `%.Nf` where [`fixed_point`] can prove
/// the rounding. False when the general path must run (it also produces
/// every error).
fn fast_append(v: &Verb, arg: &Value, out: &mut String) -> bool {
    if !is_plain(v) {
        return false;
    }
    match (v.mode, arg) {
        ('s', Value::String(s)) if v.prec.is_none() => {
            out.push_str(s.as_str());
            true
        }
        ('d', Value::Number(n)) if v.prec.is_none() => match n.to_i64() {
            Some(i) => {
                push_u128(out, i < 0, i.unsigned_abs() as u128);
                true
            }
            None => false,
        },
        ('f', Value::Number(n)) => fixed_point(n, v.prec.unwrap_or(6), out),
        _ => false,
    }
}

/// Writes `-`(if `neg`) and the decimal digits of `m`.
fn push_u128(out: &mut String, neg: bool, m: u128) {
    if neg {
        out.push('-');
    }
    let mut buf = [b'0'; 40];
    let i = match u64::try_from(m) {
        // 64-bit division is far cheaper than the 128-bit library routine.
        Ok(m) => digits_u64(&mut buf, m),
        Err(_) => {
            let mut m = m;
            let mut i = buf.len();
            loop {
                i -= 1;
                buf[i] = b'0' + (m % 10) as u8;
                m /= 10;
                if m == 0 {
                    break i;
                }
            }
        }
    };
    push_ascii(out, &buf[i..]);
}

/// Appends ASCII digits (as chars: no UTF-8 validation of the buffer).
fn push_ascii(out: &mut String, digits: &[u8]) {
    out.reserve(digits.len());
    for &d in digits {
        out.push(char::from(d));
    }
}

/// Writes the decimal digits of `m` right-aligned into `buf` (at least 20
/// bytes); returns the index of the first digit.
fn digits_u64(buf: &mut [u8], mut m: u64) -> usize {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            return i;
        }
    }
}

/// Largest precision the fixed-point fast path handles (10^20 times a
/// 53-bit mantissa stays below 2^128).
const FAST_FIXED_MAX_PREC: usize = 20;

/// Go's `%.Nf` of a big.Float (`Text('f', N)`: the exact decimal value
/// rounded to N places, halfway cases to even) when the result can be
/// proven cheaply; false otherwise.
///
/// Integers that fit i64 are exact. For other values, `f = to_f64()` is
/// within one f64 ulp `2^e` of the exact value `x`, so with
/// `f = m·2^e` (s = -e > 0) the exact `x·10^N·2^s` lies within `10^N` of
/// `P = m·10^N`. Writing `P = q·2^s + r`, when `r` is more than `10^N`
/// away from the halfway point `2^(s-1)` (and `10^N < 2^(s-1)`), every
/// value in that interval rounds to the same `q` or `q+1`, which is
/// therefore Go's result. Near-halfway values and zero (whose sign the
/// f64 may not carry) take the general path.
fn fixed_point(n: &Number, prec: usize, out: &mut String) -> bool {
    if prec > FAST_FIXED_MAX_PREC {
        return false;
    }
    let scale = 10u128.pow(prec as u32);
    let (neg, q) = if let Some(i) = n.to_i64() {
        if i == 0 {
            return false;
        }
        match (i.unsigned_abs() as u128).checked_mul(scale) {
            Some(q) => (i < 0, q),
            None => return false,
        }
    } else {
        let f = n.to_f64();
        if !f.is_finite() || f == 0.0 {
            return false;
        }
        let bits = f.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        if biased == 0 {
            return false; // subnormal
        }
        let m = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
        let s = 1075 - biased; // f = m·2^-s
        if !(1..=120).contains(&s) {
            return false;
        }
        let p = m as u128 * scale;
        let q = p >> s;
        let r = p & ((1u128 << s) - 1);
        let half = 1u128 << (s - 1);
        if scale >= half {
            return false;
        }
        let q = if r + scale < half {
            q
        } else if r > half + scale {
            q + 1
        } else {
            return false;
        };
        (f < 0.0, q)
    };
    let (int, frac) = match (u64::try_from(q), u64::try_from(scale)) {
        (Ok(q), Ok(scale)) => (u128::from(q / scale), u128::from(q % scale)),
        _ => (q / scale, q % scale),
    };
    push_u128(out, neg, int);
    if prec > 0 {
        out.push('.');
        let mut buf = [b'0'; FAST_FIXED_MAX_PREC];
        let digits = &mut buf[..prec];
        match u64::try_from(frac) {
            Ok(mut rest) => {
                for d in digits.iter_mut().rev() {
                    *d = b'0' + (rest % 10) as u8;
                    rest /= 10;
                }
            }
            Err(_) => {
                let mut rest = frac;
                for d in digits.iter_mut().rev() {
                    *d = b'0' + (rest % 10) as u8;
                    rest /= 10;
                }
            }
        }
        push_ascii(out, digits);
    }
    true
}

/// cty's own padding for %v, %s and %q: a width in grapheme clusters, any
/// width ([`check_room`]).
fn pad_width(v: &Verb, s: &str, out: &mut String, ctx: &mut CallCtx) -> Result<(), FnError> {
    let Some(w) = v.width else {
        out.push_str(s);
        return Ok(());
    };
    // cty counts with go-textseg's TokenCount (a bufio.Scanner).
    let n = crate::graphemes::count_like_scanner(s, Textseg::V13);
    if n >= w {
        out.push_str(s);
        return Ok(());
    }
    check_room(w - n, ctx)?;
    // Room for exactly this verb's text, and the padding written in
    // place: a wide verb is held once, not also as a separate padding
    // string or in a doubled buffer.
    out.reserve_exact(s.len() + (w - n));
    let pad = std::iter::repeat(if v.zero { '0' } else { ' ' }).take(w - n);
    if v.minus {
        out.push_str(s);
        out.extend(pad);
    } else {
        out.extend(pad);
        out.push_str(s);
    }
    Ok(())
}

/// A number verb as Go's fmt runs it on the `*big.Float` (or, for the
/// integer verbs, the exact `*big.Int`) that cty passes.
fn format_number(v: &Verb, n: &Number, ctx: &mut CallCtx) -> Result<String, FnError> {
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
    check_room(spec.extra_text(), ctx)?;
    n.go_format(&spec).map_err(|e| unsupported(v, e))
}

pub fn format(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if args[1..].iter().any(|a| !a.is_wholly_known()) {
        // The literal text before the first verb is the result's prefix.
        let f = str_arg(&args[0]);
        return Ok(match f.find('%') {
            Some(idx) if idx > 0 => {
                let mut b = Value::unknown(Type::String).refine();
                b.string_prefix(&f[..idx]);
                b.into_value()
            }
            _ => Value::unknown(Type::String),
        });
    }
    // (Charged as it was built.)
    let s = format_fsm(str_arg(&args[0]), &args[1..], ctx)?;
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
                Value::Unknown(u) if matches!(u.ty(), Type::Tuple(_)) => u.ty().tuple_len().unwrap_or(0),
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
        } else if a.unknown_type().is_some_and(Type::is_dynamic) {
            unknown = true;
        }
    }
    if unknown {
        return Ok(Value::unknown(ret.clone()));
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
                out.push(Value::unknown(Type::String).refine_not_null());
                continue 'results;
            }
        }
        let s = format_fsm(fmt, &fmt_args, ctx).map_err(|e| FnError::new(format!("error on format iteration {idx}: {}", e.message)))?;
        out.push(Value::from_string(s));
    }
    Value::list_of(Type::String, out).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}

#[cfg(test)]
mod tests {
    use crate::func::{FunctionTable, Functions, SizeBudget};
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
        let t = Functions::stdlib();
        let id = t.lookup("format").expect("stdlib has format");
        let mut all = vec![Value::string(fmt)];
        all.extend(args);
        match t.call_unconverted(id, &all, &mut SizeBudget::new(10_000_000)) {
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

    /// Numbers for the fast-path differential tests: decimal literals of
    /// many shapes (halfway and near-halfway ones included), quotients,
    /// f64 values and integers, each with both signs.
    fn sample_numbers() -> Vec<Number> {
        let mut texts: Vec<String> = [
            "0.125",
            "2.5",
            "0.5",
            "1.5",
            "1.005",
            "1.015",
            "1.025",
            "0.045",
            "4534.23",
            "921.75",
            "0.001",
            "0.005",
            "0.0049999999999999999999",
            "0.00500000000000000001",
            "123456789.125",
            "9007199254740993.5",
            "1e-30",
            "1e21",
            "1e22",
            "9223372036854775807",
            "9223372036854775808",
            "0.1",
            "0.2",
            "0.3",
            "1e-7",
            "5e-324",
            "2.675",
            "1.0000000000000002",
            "0.9999999999999999",
            "99.995",
            "99.9949999",
            "0.00000095",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let int = next() % 1_000_000;
            let frac_digits = (next() % 12) as usize;
            let frac = next() % 10u64.pow(frac_digits as u32);
            texts.push(format!("{int}.{frac:0frac_digits$}"));
            // Exact halfway decimals at a few places.
            texts.push(format!("{}.{}5", next() % 1000, next() % 100));
        }
        let mut nums: Vec<Number> = texts.iter().map(|t| Number::parse(t).unwrap()).collect();
        for (a, b) in [(1, 3), (2, 3), (1, 7), (10, 8), (-5, 16), (1, 1024), (22, 7)] {
            nums.push(Number::from_i64(a).div(&Number::from_i64(b)).unwrap());
        }
        for f in [0.1f64, 0.125, 2.675, 1e15 + 0.3, 1e-5, 123.456, 0.0, -0.0] {
            nums.push(Number::from_f64(f).unwrap());
        }
        for i in [0i64, 1, 7, 42, 100000, i64::MAX, i64::MIN + 1] {
            nums.push(Number::from_i64(i));
        }
        nums.push(Number::pos_inf());
        let negs: Vec<Number> = nums.iter().map(|n| n.neg()).collect();
        nums.extend(negs);
        nums
    }

    /// Every verb the fast path answers agrees with `Number::go_format`, and
    /// the fast path does answer most of the common cases.
    #[test]
    fn fast_paths_match_go_format() {
        use super::{fast_append, Verb};
        use crate::number::GoFormatSpec;
        let mut fast = 0;
        let mut total = 0;
        let mut failures = Vec::new();
        for n in sample_numbers() {
            let arg = Value::Number(n.clone());
            for (mode, prec) in (0..=22).map(|p| ('f', Some(p))).chain([('f', None), ('d', None)]) {
                total += 1;
                let v = Verb { raw: "%", mode, prec, arg_num: 1, ..Verb::default() };
                let mut got = String::from("<");
                if !fast_append(&v, &arg, &mut got) {
                    continue;
                }
                fast += 1;
                let spec = GoFormatSpec {
                    verb: mode,
                    plus: false,
                    minus: false,
                    space: false,
                    zero: false,
                    sharp: false,
                    width: None,
                    precision: prec,
                };
                let want = n.go_format(&spec).map(|s| format!("<{s}"));
                if want.as_deref() != Ok(got.as_str()) {
                    failures.push(format!("{mode} {prec:?} {}: want {want:?} got {got:?}", n.to_text_general().unwrap_or_default()));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures[..failures.len().min(20)].join("\n"));
        assert!(fast * 2 > total, "fast path answered only {fast} of {total}");
    }

    #[test]
    fn fast_string_and_integer_verbs() {
        assert_eq!(
            format("%s|%d|%d|%.2f|%f", vec![Value::string("héllo"), Value::int(-42), Value::int(0), Value::int(3), arg("0.5")]),
            Ok("héllo|-42|0|3.00|0.500000".to_string())
        );
        assert_eq!(format("%.2f %.2f %.2f", vec![arg("0.125"), arg("-0.001"), arg("4534.23")]), Ok("0.12 -0.00 4534.23".to_string()));
    }

    /// cty pads %s, %v and %q to any width, and Go's fmt builds any width
    /// or precision it reads: built as the reference builds them within
    /// the size budget (here 10,000,000 units), the budget's error beyond.
    #[test]
    fn wide_verbs_are_built_within_the_size_budget() {
        assert_eq!(format("%1000001d", vec![Value::int(1)]).map(|s| s.len()), Ok(1_000_001));
        assert_eq!(format("%5000000s", vec![Value::string("a")]).map(|s| s.len()), Ok(5_000_000));
        assert_eq!(format("%.3000000f", vec![Value::int(1)]).map(|s| s.len()), Ok(3_000_002));
        for (f, arg) in [("%10000001s", Value::string("a")), ("%.10000001f", Value::int(1)), ("%5000000.5000001e", Value::int(1))] {
            let e = format(f, vec![arg]).unwrap_err();
            assert!(e.contains("the result is too large"), "{f}: {e}");
        }
        // Numbers Go's fmt cannot read build nothing: its no-verb text.
        assert_eq!(format("%10000010d", vec![Value::int(1)]), Ok("%!(NOVERB)%!(EXTRA *big.Int=1)".to_string()));
    }
}
