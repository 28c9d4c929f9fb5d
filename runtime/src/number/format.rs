//! Go's number formatting, as cty's stdlib `format` uses it:
//! `big.Float.Text`/`Append` (verbs e, E, f, g, G with a fixed or shortest
//! precision), `big.Float.Format` (flags, width) and `big.Int.Format`
//! (verbs b, d, o, x, X).

use dashu::integer::IBig;

use super::float::{BigFloat, Form};
use super::text::{shortest_decimal, Decimal};

/// The smallest width or precision Go's fmt cannot read: its digit loop
/// gives up when the value so far exceeds 1e6 and another digit follows.
const GO_FMT_UNREADABLE_NUMBER: usize = 10_000_010;

/// What `fmt.Sprintf` gives for a single verb whose width or precision it
/// could not read: no verb, and the operand reported as an extra argument
/// in its `%v` form.
pub(crate) fn no_verb(x: &BigFloat, int: Option<&IBig>) -> String {
    match int {
        Some(int) => {
            let decimal = format_int(int, &GoFormatSpec { verb: 'd', ..GoFormatSpec::default() });
            format!("%!(NOVERB)%!(EXTRA *big.Int={decimal})")
        }
        None => format!("%!(NOVERB)%!(EXTRA *big.Float={})", append(x, b'g', -1)),
    }
}

/// A parsed Go format verb for a number, e.g. `%+08.3f`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoFormatSpec {
    /// One of `e E f F g G v` (floats) or `b d o O x X` (integers).
    pub verb: char,
    pub plus: bool,
    pub minus: bool,
    pub space: bool,
    pub zero: bool,
    pub sharp: bool,
    pub width: Option<usize>,
    pub precision: Option<usize>,
}

impl GoFormatSpec {
    /// The padding and digits Go's fmt builds for this verb beyond the
    /// number's own text: its width and precision, or nothing when it
    /// cannot read one of them (then it writes its no-verb text).
    pub fn extra_text(&self) -> usize {
        let (width, precision) = (self.width.unwrap_or(0), self.precision.unwrap_or(0));
        if self.readable() {
            width.saturating_add(precision)
        } else {
            0
        }
    }

    /// Whether Go's fmt reads the width and precision
    /// ([`GO_FMT_UNREADABLE_NUMBER`]).
    pub(crate) fn readable(&self) -> bool {
        self.width.unwrap_or(0) < GO_FMT_UNREADABLE_NUMBER && self.precision.unwrap_or(0) < GO_FMT_UNREADABLE_NUMBER
    }
}

/// Go's `x.Append(buf, fmt, prec)` / `x.Text(fmt, prec)` for `fmt` in
/// e, E, f, g, G; `prec < 0` means shortest. `x` must be within the text limit.
pub(crate) fn append(x: &BigFloat, fmt: u8, prec: i64) -> String {
    let mut out = String::new();
    if x.neg {
        out.push('-');
    }
    if x.form == Form::Inf {
        if !x.neg {
            out.push('+');
        }
        out.push_str("Inf");
        return out;
    }
    let shortest = prec < 0;
    let mut prec = prec;
    let mut d = if x.form != Form::Finite {
        Decimal { digits: Vec::new(), exp: 0 }
    } else if shortest {
        shortest_decimal(x)
    } else {
        super::work::note_digits_work(x);
        // Enough leading digits for the rounding below (plus a sentinel).
        let int_digits = ((x.go_exp() as f64) * std::f64::consts::LOG10_2).ceil().max(0.0) as i64 + 1;
        let keep = match fmt {
            b'f' => int_digits + prec + 3,
            _ => prec + 4,
        };
        Decimal::leading(&x.mant, x.exp, keep.max(4))
    };
    if shortest {
        prec = match fmt {
            b'e' | b'E' => d.digits.len() as i64 - 1,
            b'f' => (d.digits.len() as i64 - d.exp).max(0),
            _ => d.digits.len() as i64,
        };
    } else {
        match fmt {
            b'e' | b'E' => d.round(1 + prec),
            b'f' => d.round(d.exp + prec),
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                d.round(prec);
            }
        }
    }
    match fmt {
        b'e' | b'E' => push_sci(&mut out, fmt as char, prec, &d),
        b'f' => push_fixed(&mut out, prec, &d),
        _ => {
            let len = d.digits.len() as i64;
            let mut eprec = prec;
            if eprec > len && len >= d.exp {
                eprec = len;
            }
            if shortest {
                eprec = 6;
            }
            let exp = d.exp - 1;
            if exp < -4 || exp >= eprec {
                if prec > len {
                    prec = len;
                }
                let e = if fmt == b'G' { 'E' } else { 'e' };
                push_sci(&mut out, e, prec - 1, &d);
            } else {
                if prec > d.exp {
                    prec = len;
                }
                push_fixed(&mut out, (prec - d.exp).max(0), &d);
            }
        }
    }
    out
}

/// Go's `%f` layout of `d` with `frac` fraction digits.
fn push_fixed(out: &mut String, frac: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = (d.digits.len() as i64).min(d.exp) as usize;
        out.extend(d.digits[..m].iter().map(|&c| c as char));
        for _ in m as i64..d.exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if frac > 0 {
        out.push('.');
        for i in 0..frac {
            let pos = d.exp + i;
            out.push(if pos >= 0 { d.at(pos as usize) as char } else { '0' });
        }
    }
}

/// Go's `%e` layout of `d` with `prec` fraction digits.
fn push_sci(out: &mut String, e: char, prec: i64, d: &Decimal) {
    out.push(d.digits.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        let mut i = 1usize;
        let m = (d.digits.len() as i64).min(prec + 1).max(0) as usize;
        if i < m {
            out.extend(d.digits[i..m].iter().map(|&c| c as char));
            i = m;
        }
        while (i as i64) <= prec {
            out.push('0');
            i += 1;
        }
    }
    out.push(e);
    let exp = if d.digits.is_empty() { 0 } else { d.exp - 1 };
    out.push(if exp < 0 { '-' } else { '+' });
    let a = exp.unsigned_abs();
    if a < 10 {
        out.push('0');
    }
    out.push_str(&a.to_string());
}

/// Go's `big.Float.Format` for the float verbs (`fmt.Sprintf("%8.3f", f)`).
pub(crate) fn format_float(x: &BigFloat, spec: &GoFormatSpec) -> String {
    let (verb, prec) = match spec.verb {
        'v' | 'g' | 'G' => (if spec.verb == 'G' { b'G' } else { b'g' }, spec.precision.map_or(-1, |p| p as i64)),
        'F' => (b'f', spec.precision.map_or(6, |p| p as i64)),
        other => (other as u8, spec.precision.map_or(6, |p| p as i64)),
    };
    let text = append(x, verb, prec);
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => ("-", &text[1..]),
        Some(b'+') => (if spec.space { " " } else { "+" }, &text[1..]),
        _ if spec.plus => ("+", &text[..]),
        _ if spec.space => (" ", &text[..]),
        _ => ("", &text[..]),
    };
    let padding = spec.width.map_or(0, |w| w.saturating_sub(sign.len() + body.len()));
    let mut out = String::with_capacity(sign.len() + body.len() + padding);
    if spec.zero && !spec.minus && x.form != Form::Inf {
        out.push_str(sign);
        push_n(&mut out, '0', padding);
        out.push_str(body);
    } else if spec.minus {
        out.push_str(sign);
        out.push_str(body);
        push_n(&mut out, ' ', padding);
    } else {
        push_n(&mut out, ' ', padding);
        out.push_str(sign);
        out.push_str(body);
    }
    out
}

/// Go's `big.Int.Format` (`fmt.Sprintf("%#08x", i)`).
pub(crate) fn format_int(v: &IBig, spec: &GoFormatSpec) -> String {
    let neg = *v < IBig::ZERO;
    let mag = dashu::base::UnsignedAbs::unsigned_abs(v.clone());
    let mut digits = match spec.verb {
        'b' => format!("{mag:b}"),
        'o' | 'O' => format!("{mag:o}"),
        'x' => format!("{mag:x}"),
        'X' => format!("{mag:X}"),
        _ => super::text::to_decimal_digits(&mag).into_iter().map(char::from).collect(),
    };
    let sign = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let mut prefix = "";
    if spec.sharp {
        prefix = match spec.verb {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        };
    }
    if spec.verb == 'O' {
        prefix = "0o";
    }
    let mut zeros = 0usize;
    if let Some(p) = spec.precision {
        if digits.len() < p {
            zeros = p - digits.len();
        } else if digits == "0" && p == 0 {
            digits.clear();
            // Go returns before writing anything at all, padding included.
            return String::new();
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0usize, 0usize);
    if let Some(w) = spec.width {
        if length < w {
            let d = w - length;
            if spec.minus {
                right = d;
            } else if spec.zero && spec.precision.is_none() {
                zeros = d;
            } else {
                left = d;
            }
        }
    }
    let mut out = String::with_capacity(length + left + right);
    push_n(&mut out, ' ', left);
    out.push_str(sign);
    out.push_str(prefix);
    push_n(&mut out, '0', zeros);
    out.push_str(&digits);
    push_n(&mut out, ' ', right);
    out
}

fn push_n(out: &mut String, c: char, n: usize) {
    for _ in 0..n {
        out.push(c);
    }
}
