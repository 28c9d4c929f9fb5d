//! format formatlist: cty's format verb machine and Go's `fmt` rules for
//! the numeric verbs on `big.Float` / `big.Int`.

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::number::Number;
use crate::strings::go_quote;
use crate::types::Type;
use crate::value::Value;
use dashu::base::UnsignedAbs;
use dashu::integer::{IBig, UBig};
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

fn go_rune_quote(c: char) -> String {
    if c == '\'' {
        return "'\\''".to_string();
    }
    let q = go_quote(&c.to_string());
    let inner = &q[1..q.len() - 1];
    let inner = if inner == "\\\"" { "\"" } else { inner };
    format!("'{inner}'")
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
    FnError::new(format!("unrecognized format character {} at offset {}", go_rune_quote(c), p))
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
                    Value::String(s) => {
                        pad_width(v, s, out);
                        return Ok(());
                    }
                    Value::Number(n) => {
                        let t = shortest_g(n).map_err(|e| unsupported(v, e))?;
                        pad_width(v, &t, out);
                        return Ok(());
                    }
                    _ => {}
                }
            }
            let j = crate::json::marshal(arg, &arg.ty()).map_err(|e| unsupported(v, e))?;
            pad_width(v, &j, out);
            Ok(())
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
            if matches!(v.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                format_integer(v, &n, out)
            } else {
                format_float(v, &n, out)
            }
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
                pad_width(v, s, out);
            } else {
                let mut q = String::new();
                crate::strings::write_json_string_html(&mut q, s);
                pad_width(v, &q, out);
            }
            Ok(())
        }
        m => Err(FnError::new(format!(
            "unsupported format verb {} in {} at offset {}",
            go_rune_quote(m),
            go_quote(v.raw),
            v.offset
        ))),
    }
}

fn pad_width(v: &Verb, s: &str, out: &mut String) {
    let Some(w) = v.width else {
        out.push_str(s);
        return;
    };
    let n = s.graphemes(true).count();
    if n >= w {
        out.push_str(s);
        return;
    }
    let pad: String = std::iter::repeat(if v.zero { '0' } else { ' ' }).take(w - n).collect();
    if v.minus {
        out.push_str(s);
        out.push_str(&pad);
    } else {
        out.push_str(&pad);
        out.push_str(s);
    }
}

/// Widths and precisions are bounded so a verb like `%999999999d` cannot
/// allocate without limit (fmt itself caps them at 1e6).
const MAX_FMT_WIDTH: usize = 1_000_000;

fn format_integer(v: &Verb, n: &Number, out: &mut String) -> Result<(), FnError> {
    let Some((i, exact)) = n.to_ibig_trunc() else {
        return Err(unsupported(v, "an integer is required"));
    };
    if !exact || n.is_infinite() {
        return Err(unsupported(v, "an integer is required"));
    }
    let neg = i < IBig::ZERO;
    let mag: UBig = i.unsigned_abs();
    let base = match v.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = mag.in_radix(base).to_string();
    if v.mode == 'X' {
        digits = digits.to_ascii_uppercase();
    } else {
        digits = digits.to_ascii_lowercase();
    }
    let sign = if neg {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    let prefix = if v.sharp {
        match v.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let mut zeros = 0;
    if let Some(p) = v.prec {
        let p = p.min(MAX_FMT_WIDTH);
        if digits.len() < p {
            zeros = p - digits.len();
        } else if digits == "0" && p == 0 {
            return Ok(());
        }
    }
    let (mut left, mut right) = (0, 0);
    let length = sign.len() + prefix.len() + zeros + digits.len();
    if let Some(w) = v.width {
        let w = w.min(MAX_FMT_WIDTH);
        if length < w {
            let d = w - length;
            if v.minus {
                right = d;
            } else if v.zero && v.prec.is_none() {
                zeros = d;
            } else {
                left = d;
            }
        }
    }
    out.extend(std::iter::repeat(' ').take(left));
    out.push_str(sign);
    out.push_str(prefix);
    out.extend(std::iter::repeat('0').take(zeros));
    out.push_str(&digits);
    out.extend(std::iter::repeat(' ').take(right));
    Ok(())
}

/// A decimal as Go's `math/big` decimal: value = 0.mant × 10^exp, no
/// trailing zeros in `mant`.
struct Decimal {
    mant: Vec<u8>,
    exp: i64,
}

impl Decimal {
    fn trim(&mut self) {
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
    }
    fn round(&mut self, n: i64) {
        if n < 0 || n as usize >= self.mant.len() {
            return;
        }
        let n = n as usize;
        let up = if self.mant[n] == b'5' && n + 1 == self.mant.len() {
            n > 0 && (self.mant[n - 1] - b'0') & 1 != 0
        } else {
            self.mant[n] >= b'5'
        };
        if up {
            let mut i = n;
            while i > 0 && self.mant[i - 1] == b'9' {
                i -= 1;
            }
            if i == 0 {
                self.mant.clear();
                self.mant.push(b'1');
                self.exp += 1;
            } else {
                self.mant.truncate(i);
                self.mant[i - 1] += 1;
            }
        } else {
            self.mant.truncate(n);
        }
        self.trim();
    }
    fn digit(&self, i: i64) -> u8 {
        if i >= 0 && (i as usize) < self.mant.len() {
            self.mant[i as usize]
        } else {
            b'0'
        }
    }
}

/// The decimal of a number's shortest text (`Text('f', -1)`).
fn shortest_decimal(n: &Number) -> Result<(bool, Decimal), String> {
    let t = n.to_text().map_err(|e| e.to_string())?;
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.as_str()),
    };
    Ok((neg, decimal_from_text(t)))
}

fn decimal_from_text(t: &str) -> Decimal {
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let int = int.trim_start_matches('0');
    let mut d = if int.is_empty() {
        let lead = frac.len() - frac.trim_start_matches('0').len();
        Decimal { mant: frac.as_bytes()[lead..].to_vec(), exp: -(lead as i64) }
    } else {
        let mut m = int.as_bytes().to_vec();
        m.extend_from_slice(frac.as_bytes());
        Decimal { mant: m, exp: int.len() as i64 }
    };
    d.trim();
    d
}

/// The exact decimal expansion of a finite number, when it has a modest
/// number of fraction bits; the shortest decimal otherwise.
fn exact_decimal(n: &Number) -> Result<(bool, Decimal), String> {
    if n.is_integer() {
        if let Some((i, true)) = n.to_ibig_trunc() {
            let neg = i < IBig::ZERO || n.is_neg_zero();
            return Ok((neg, decimal_from_text(&i.unsigned_abs().to_string())));
        }
    }
    let step = Number::from_i64(1 << 62);
    let mut scaled = n.clone();
    let mut k: u64 = 0;
    while !scaled.is_integer() {
        if k >= 62 * 64 {
            return shortest_decimal(n);
        }
        scaled = scaled.mul(&step).map_err(|e| e.to_string())?;
        k += 62;
    }
    let Some((i, true)) = scaled.to_ibig_trunc() else {
        return shortest_decimal(n);
    };
    let neg = n.sign() < 0 || n.is_neg_zero();
    // i / 2^k == i * 5^k / 10^k
    let digits = (i.unsigned_abs() * UBig::from(5u8).pow(k as usize)).to_string();
    let mut d = decimal_from_text(&digits);
    if !d.mant.is_empty() {
        d.exp = digits.len() as i64 - k as i64;
    }
    Ok((neg, d))
}

fn fmt_e(out: &mut String, upper: bool, prec: i64, d: &Decimal) {
    out.push(*d.mant.first().unwrap_or(&b'0') as char);
    if prec > 0 {
        out.push('.');
        let m = d.mant.len().min(prec as usize + 1);
        let mut i = 1;
        if i < m {
            out.push_str(std::str::from_utf8(&d.mant[1..m]).unwrap_or(""));
            i = m;
        }
        while (i as i64) <= prec {
            out.push('0');
            i += 1;
        }
    }
    out.push(if upper { 'E' } else { 'e' });
    let mut exp = if d.mant.is_empty() { 0 } else { d.exp - 1 };
    if exp < 0 {
        out.push('-');
        exp = -exp;
    } else {
        out.push('+');
    }
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
}

fn fmt_f(out: &mut String, prec: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = d.mant.len().min(d.exp as usize);
        out.push_str(std::str::from_utf8(&d.mant[..m]).unwrap_or(""));
        for _ in m as i64..d.exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 1..=prec {
            out.push(d.digit(d.exp - 1 + i) as char);
        }
    }
}

/// Go's `big.Float.Text(fmt, prec)` for 'e', 'f', 'g' (prec < 0: shortest).
fn float_text(n: &Number, mode: char, prec: i64) -> Result<String, String> {
    if n.is_infinite() {
        return Ok(if n.sign() < 0 { "-Inf" } else { "+Inf" }.to_string());
    }
    let shortest = prec < 0;
    let (neg, mut d) = if shortest { shortest_decimal(n)? } else { exact_decimal(n)? };
    let mut prec = prec;
    let lower = mode.to_ascii_lowercase();
    if shortest {
        prec = match lower {
            'e' => d.mant.len() as i64 - 1,
            'f' => (d.mant.len() as i64 - d.exp).max(0),
            _ => d.mant.len() as i64,
        };
    } else {
        match lower {
            'e' => d.round(1 + prec),
            'f' => d.round(d.exp + prec),
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                d.round(prec)
            }
        }
    }
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    match lower {
        'e' => fmt_e(&mut out, mode == 'E', prec, &d),
        'f' => fmt_f(&mut out, prec, &d),
        _ => {
            let mut eprec = prec;
            if eprec > d.mant.len() as i64 && d.mant.len() as i64 >= d.exp {
                eprec = d.mant.len() as i64;
            }
            if shortest {
                eprec = 6;
            }
            let exp = d.exp - 1;
            if exp < -4 || exp >= eprec {
                if prec > d.mant.len() as i64 {
                    prec = d.mant.len() as i64;
                }
                fmt_e(&mut out, mode == 'G', prec - 1, &d);
            } else {
                if prec > d.exp {
                    prec = d.mant.len() as i64;
                }
                fmt_f(&mut out, (prec - d.exp).max(0), &d);
            }
        }
    }
    Ok(out)
}

/// `Text('g', -1)`, the `%v` form of a number.
fn shortest_g(n: &Number) -> Result<String, String> {
    float_text(n, 'g', -1)
}

fn format_float(v: &Verb, n: &Number, out: &mut String) -> Result<(), FnError> {
    let prec = match v.prec {
        Some(p) => p.min(MAX_FMT_WIDTH) as i64,
        None if matches!(v.mode, 'g' | 'G') => -1,
        None => 6,
    };
    let text = float_text(n, v.mode, prec).map_err(|e| unsupported(v, e))?;
    let (sign, body) = if let Some(r) = text.strip_prefix('-') {
        ("-", r)
    } else if let Some(r) = text.strip_prefix('+') {
        (if v.space { " " } else { "+" }, r)
    } else if v.plus {
        ("+", text.as_str())
    } else if v.space {
        (" ", text.as_str())
    } else {
        ("", text.as_str())
    };
    let padding = match v.width {
        Some(w) if w.min(MAX_FMT_WIDTH) > sign.len() + body.len() => w.min(MAX_FMT_WIDTH) - sign.len() - body.len(),
        _ => 0,
    };
    if v.zero && !n.is_infinite() {
        out.push_str(sign);
        out.extend(std::iter::repeat('0').take(padding));
        out.push_str(body);
    } else if v.minus {
        out.push_str(sign);
        out.push_str(body);
        out.extend(std::iter::repeat(' ').take(padding));
    } else {
        out.extend(std::iter::repeat(' ').take(padding));
        out.push_str(sign);
        out.push_str(body);
    }
    Ok(())
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
            if !t.is_tuple() && !(a.is_known() && a.cty_length().is_known()) {
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
    use super::float_text;
    use crate::number::Number;

    #[test]
    fn big_float_text_table() {
        let rows: &[(&str, char, i64, &str)] = &[
            ("10", 'f', 6, "10.000000"),
            ("1.06", 'f', 1, "1.1"),
            ("1000", 'e', 6, "1.000000e+03"),
            ("1000", 'g', -1, "1000"),
            ("0.00000000000000000000001", 'g', -1, "1e-23"),
            ("0.5", 'f', 0, "0"),
            ("1.5", 'f', 0, "2"),
            ("123456789", 'g', -1, "1.23456789e+08"),
            ("-2.5", 'e', 2, "-2.50e+00"),
        ];
        for (num, mode, prec, want) in rows {
            let n = Number::parse(num).unwrap();
            assert_eq!(float_text(&n, *mode, *prec).unwrap(), *want, "{num} {mode} {prec}");
        }
    }
}
