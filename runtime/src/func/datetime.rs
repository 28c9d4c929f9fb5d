//! formatdate timeadd: RFC 3339 parsing with the error texts of Go 1.19's
//! `time.Parse` as cty rewords them, Go's `time.ParseDuration`, and cty's
//! date format verbs.

use super::{str_arg, CallCtx, FnError};
use crate::types::Type;
use crate::value::Value;

const NANOS_PER_SEC: i128 = 1_000_000_000;

#[derive(Clone, Copy, Debug)]
struct Time {
    /// Nanoseconds since 1970-01-01T00:00:00 UTC.
    unix_nanos: i128,
    /// Zone offset in seconds east of UTC.
    offset: i64,
}

struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    min: u32,
    sec: u32,
    weekday: u32,
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The proleptic Gregorian (year, month, day) of day `z` counted from
/// 1970-01-01 (Packer's time functions use it too).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Time {
    fn civil(&self) -> Civil {
        let local = self.unix_nanos.div_euclid(NANOS_PER_SEC) + self.offset as i128;
        let days = local.div_euclid(86400) as i64;
        let secs = local.rem_euclid(86400) as u32;
        let (year, month, day) = civil_from_days(days);
        Civil { year, month, day, hour: secs / 3600, min: secs / 60 % 60, sec: secs % 60, weekday: (days + 4).rem_euclid(7) as u32 }
    }

    /// Go's `Format` zone forms: "Z07:00" (colon true, z true), "-0700",
    /// "-07:00".
    fn zone(&self, colon: bool, z_for_utc: bool) -> String {
        if z_for_utc && self.offset == 0 {
            return "Z".to_string();
        }
        let (sign, off) = if self.offset < 0 { ('-', -self.offset) } else { ('+', self.offset) };
        let (h, m) = (off / 3600, off / 60 % 60);
        if colon {
            format!("{sign}{h:02}:{m:02}")
        } else {
            format!("{sign}{h:02}{m:02}")
        }
    }

    fn rfc3339(&self) -> String {
        let c = self.civil();
        format!("{}-{:02}-{:02}T{:02}:{:02}:{:02}{}", go_year(c.year), c.month, c.day, c.hour, c.min, c.sec, self.zone(true, true))
    }
}

fn go_year(y: i64) -> String {
    if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{y:04}")
    }
}

const MONTHS: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// Go's `time.ParseError` fields that cty looks at. The value element is
/// bytes: Go slices strings by byte, so it may start inside a character.
struct ParseError {
    layout_elem: &'static str,
    value_elem: Vec<u8>,
    message: String,
}

fn perr(layout_elem: &'static str, value: &[u8]) -> ParseError {
    ParseError { layout_elem, value_elem: value.to_vec(), message: String::new() }
}

fn is_digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

fn getnum(b: &[u8], fixed: bool) -> Result<(i64, &[u8]), ()> {
    if !is_digit(b, 0) {
        return Err(());
    }
    if !is_digit(b, 1) {
        if fixed {
            return Err(());
        }
        return Ok(((b[0] - b'0') as i64, &b[1..]));
    }
    Ok((((b[0] - b'0') * 10 + (b[1] - b'0')) as i64, &b[2..]))
}

/// Go's time `atoi`: optional sign, then digits only.
fn go_atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut x: u64 = 0;
    for c in digits {
        x = x.checked_mul(10)?.checked_add((c - b'0') as u64)?;
        if x > 1 << 63 {
            return None;
        }
    }
    let x = x as i64;
    Some(if neg { x.wrapping_neg() } else { x })
}

fn skip<'a>(s: &'a [u8], prefix: &'static str) -> Result<&'a [u8], ParseError> {
    s.strip_prefix(prefix.as_bytes()).ok_or_else(|| perr(prefix, s))
}

fn range_err(elem: &'static str, rest: &[u8], what: &str) -> ParseError {
    ParseError { layout_elem: elem, value_elem: rest.to_vec(), message: format!(": {what} out of range") }
}

/// `time.Parse(time.RFC3339, s)` as Go 1.19 does it (layout walk).
fn parse_rfc3339_go(v: &str) -> Result<Time, ParseError> {
    let mut s = v.as_bytes();
    // 2006: Go advances past the four bytes before checking them.
    if s.len() < 4 || !is_digit(s, 0) {
        return Err(perr("2006", s));
    }
    let year = go_atoi(&s[..4]).ok_or_else(|| perr("2006", &s[4..]))?;
    s = &s[4..];
    s = skip(s, "-")?;
    let (month, rest) = getnum(s, true).map_err(|_| perr("01", s))?;
    if !(1..=12).contains(&month) {
        return Err(range_err("01", rest, "month"));
    }
    s = skip(rest, "-")?;
    let (day, rest) = getnum(s, true).map_err(|_| perr("02", s))?;
    s = skip(rest, "T")?;
    let (hour, rest) = getnum(s, false).map_err(|_| perr("15", s))?;
    if !(0..24).contains(&hour) {
        return Err(range_err("15", rest, "hour"));
    }
    s = skip(rest, ":")?;
    let (min, rest) = getnum(s, true).map_err(|_| perr("04", s))?;
    if !(0..60).contains(&min) {
        return Err(range_err("04", rest, "minute"));
    }
    s = skip(rest, ":")?;
    // Go 1.19 does not stop at seconds that are not two digits: a fraction
    // right after them (`:,05`) is parsed anyway, and its result replaces
    // the error (the seconds are then 0).
    let (sec, mut rest) = match getnum(s, true) {
        Ok(r) => r,
        Err(_) if s.len() >= 2 && matches!(s[0], b',' | b'.') && is_digit(s, 1) => (0, s),
        Err(_) => return Err(perr("05", s)),
    };
    if !(0..60).contains(&sec) {
        return Err(range_err("05", rest, "second"));
    }
    let mut nsec: i64 = 0;
    if rest.len() >= 2 && (rest[0] == b'.' || rest[0] == b',') && is_digit(rest, 1) {
        let mut n = 2;
        while is_digit(rest, n) {
            n += 1;
        }
        let nbytes = n.min(10);
        let ns = go_atoi(&rest[1..nbytes]).ok_or_else(|| perr("05", &rest[n..]))?;
        nsec = ns * 10i64.pow((10 - nbytes) as u32);
        rest = &rest[n..];
    }
    s = rest;
    // Z07:00
    let offset;
    if let Some(r) = s.strip_prefix(b"Z") {
        offset = 0;
        s = r;
    } else {
        if s.len() < 6 || s[3] != b':' {
            return Err(perr("Z07:00", s));
        }
        // Go advances past the six bytes before checking them.
        let after = &s[6..];
        let hr = go_atoi(&s[1..3]).ok_or_else(|| perr("Z07:00", after))?;
        let mm = go_atoi(&s[4..6]).ok_or_else(|| perr("Z07:00", after))?;
        let off = (hr * 60 + mm) * 60;
        offset = match s[0] {
            b'+' => off,
            b'-' => -off,
            _ => return Err(perr("Z07:00", after)),
        };
        s = after;
    }
    if !s.is_empty() {
        return Err(ParseError { layout_elem: "", value_elem: s.to_vec(), message: format!(": extra text: {}", time_quote(s)) });
    }
    if day < 1 || day > days_in(month as u32, year) as i64 {
        return Err(ParseError { layout_elem: "", value_elem: Vec::new(), message: ": day out of range".into() });
    }
    let days = days_from_civil(year, month as u32, day as u32);
    let local_secs = days as i128 * 86400 + (hour * 3600 + min * 60 + sec) as i128;
    Ok(Time { unix_nanos: (local_secs - offset as i128) * NANOS_PER_SEC + nsec as i128, offset })
}

/// go-cty 1.13's strict RFC 3339 parser (fixed positions, ranges checked,
/// `Z` or a `±hh:mm` offset), the fast path of `parseStrictRFC3339`.
fn parse_rfc3339_strict(s: &str) -> Option<Time> {
    let b = s.as_bytes();
    if b.len() < 19 {
        return None;
    }
    let num = |r: std::ops::Range<usize>, min: i64, max: i64| -> Option<i64> {
        let mut x: i64 = 0;
        for &c in &b[r] {
            if !c.is_ascii_digit() {
                return None;
            }
            x = x * 10 + i64::from(c - b'0');
        }
        (min..=max).contains(&x).then_some(x)
    };
    // Every field is read before any is judged (a failure reads as the
    // minimum for the fields after it, which changes nothing here).
    let year = num(0..4, 0, 9999);
    let month = num(5..7, 1, 12);
    let day = num(8..10, 1, days_in(month.unwrap_or(1) as u32, year.unwrap_or(0)) as i64);
    let hour = num(11..13, 0, 23);
    let min = num(14..16, 0, 59);
    let sec = num(17..19, 0, 59);
    let (year, month, day, hour, min, sec) = (year?, month?, day?, hour?, min?, sec?);
    if !(b[4] == b'-' && b[7] == b'-' && b[10] == b'T' && b[13] == b':' && b[16] == b':') {
        return None;
    }
    let mut rest = &b[19..];
    let mut nsec: i64 = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let mut n = 2;
        while n < rest.len() && rest[n].is_ascii_digit() {
            n += 1;
        }
        let nbytes = n.min(10);
        let mut ns: i64 = 0;
        for &c in &rest[1..nbytes] {
            ns = ns * 10 + i64::from(c - b'0');
        }
        nsec = ns * 10i64.pow((10 - nbytes) as u32);
        rest = &rest[n..];
    }
    let offset = if rest == b"Z" {
        0
    } else {
        if rest.len() != 6 {
            return None;
        }
        let two = |i: usize, max: i64| -> Option<i64> {
            let (x, y) = (rest[i], rest[i + 1]);
            (x.is_ascii_digit() && y.is_ascii_digit()).then(|| i64::from(x - b'0') * 10 + i64::from(y - b'0')).filter(|v| *v <= max)
        };
        let (hr, mm) = (two(1, 23)?, two(4, 59)?);
        if rest[3] != b':' {
            return None;
        }
        match rest[0] {
            b'+' => (hr * 60 + mm) * 60,
            b'-' => -(hr * 60 + mm) * 60,
            _ => return None,
        }
    };
    let days = days_from_civil(year, month as u32, day as u32);
    let local_secs = days as i128 * 86400 + (hour * 3600 + min * 60 + sec) as i128;
    Some(Time { unix_nanos: (local_secs - offset as i128) * NANOS_PER_SEC + nsec as i128, offset })
}

/// go-cty 1.13's `parseStrictRFC3339`: the strict parser, and for what it
/// refuses, Go's `time.Parse` error, or, where `time.Parse` accepts it, an
/// explanation of what RFC 3339 does not allow. (Where none applies, cty
/// returns the zero time.)
fn parse_strict(s: &str) -> Result<Time, ParseError> {
    if let Some(t) = parse_rfc3339_strict(s) {
        return Ok(t);
    }
    parse_rfc3339_go(s)?;
    let b = s.as_bytes();
    // Go does byte arithmetic here, modulo 256.
    let num2 = |x: &[u8]| 10u8.wrapping_mul(x[0].wrapping_sub(b'0')).wrapping_add(x[1].wrapping_sub(b'0'));
    let tail = |n: usize| b[b.len() - n..].to_vec();
    if b.get(12) == Some(&b':') {
        return Err(ParseError { layout_elem: "15", value_elem: b[11..12].to_vec(), message: ": hour must have two digits".into() });
    }
    if b.get(19) == Some(&b',') {
        return Err(ParseError { layout_elem: ".", value_elem: b",".to_vec(), message: ": sub-second separator must be a period".into() });
    }
    if b.last() != Some(&b'Z') {
        if num2(&b[b.len() - 5..]) >= 24 {
            return Err(ParseError { layout_elem: "Z07:00", value_elem: tail(6), message: ": timezone hour out of range".into() });
        }
        if num2(&b[b.len() - 2..]) >= 60 {
            return Err(ParseError { layout_elem: "Z07:00", value_elem: tail(6), message: ": timezone minute out of range".into() });
        }
        return Ok(Time { unix_nanos: ZERO_TIME_UNIX_NANOS, offset: 0 });
    }
    Err(ParseError { layout_elem: "2006-01-02T15:04:05Z07:00", value_elem: b.to_vec(), message: String::new() })
}

/// Go's zero `time.Time` (January 1, year 1, UTC) in Unix nanoseconds.
const ZERO_TIME_UNIX_NANOS: i128 = -62_135_596_800 * NANOS_PER_SEC;

/// cty's parseTimestamp error wording.
fn parse_timestamp(s: &str) -> Result<Time, String> {
    parse_strict(s).map_err(|e| {
        if e.layout_elem.is_empty() && e.value_elem.is_empty() && !e.message.is_empty() {
            return format!("not a valid RFC3339 timestamp{}", e.message);
        }
        let what = match e.layout_elem {
            "2006" => "year",
            "01" => "month",
            "02" => "day of month",
            "15" => "hour",
            "04" => "minute",
            "05" => "second",
            "Z07:00" => "UTC offset",
            "T" => return "not a valid RFC3339 timestamp: missing required time introducer 'T'".to_string(),
            ":" | "-" => {
                return if e.value_elem.is_empty() {
                    format!("not a valid RFC3339 timestamp: end of string where {:?} is expected", e.layout_elem)
                } else {
                    format!(
                        "not a valid RFC3339 timestamp: found {} where {:?} is expected",
                        crate::strings::go_quote_bytes(&e.value_elem),
                        e.layout_elem
                    )
                }
            }
            _ => "timestamp segment",
        };
        if e.value_elem.is_empty() {
            format!("not a valid RFC3339 timestamp: end of string before {what}")
        } else if what == "hour" && e.value_elem.contains(&b':') {
            "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive".to_string()
        } else if what == "hour" && e.value_elem.len() != 2 {
            "not a valid RFC3339 timestamp: hour must have exactly two digits".to_string()
        } else if what == "minute" && e.value_elem.len() != 2 {
            "not a valid RFC3339 timestamp: minute must have exactly two digits".to_string()
        } else {
            format!("not a valid RFC3339 timestamp: cannot use {} as {what}", crate::strings::go_quote_bytes(&e.value_elem))
        }
    })
}

/// The time package's own quoting (non-ASCII and control bytes as \x).
fn time_quote(s: impl AsRef<[u8]>) -> String {
    // Every byte of a non-ASCII or control character as `\xNN`.
    let mut out = String::from("\"");
    for &b in s.as_ref() {
        if !(b' '..0x80).contains(&b) {
            out.push_str(&format!("\\x{b:02x}"));
        } else {
            if b == b'"' || b == b'\\' {
                out.push('\\');
            }
            out.push(char::from(b));
        }
    }
    out.push('"');
    out
}

/// Go's `time.ParseDuration`, in nanoseconds.
fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", time_quote(orig));
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next() {
        if c == '-' || c == '+' {
            neg = c == '-';
            s = &s[1..];
        }
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let start = s.len();
        let mut v: u64 = 0;
        let mut i = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + (b[i] - b'0') as u64;
            if v > LIMIT {
                return Err(invalid());
            }
            i += 1;
        }
        s = &s[i..];
        let pre = start != s.len();
        let mut post = false;
        let (mut f, mut scale): (u64, f64) = (0, 1.0);
        if let Some(r) = s.strip_prefix('.') {
            s = r;
            let b = s.as_bytes();
            let mut i = 0;
            let mut overflow = false;
            while i < b.len() && b[i].is_ascii_digit() {
                if !overflow {
                    if f > (LIMIT - 1) / 10 {
                        overflow = true;
                    } else {
                        let y = f * 10 + (b[i] - b'0') as u64;
                        if y > LIMIT {
                            overflow = true;
                        } else {
                            f = y;
                            scale *= 10.0;
                        }
                    }
                }
                i += 1;
            }
            post = i > 0;
            s = &s[i..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s.bytes().position(|c| c == b'.' || c.is_ascii_digit()).unwrap_or(s.len());
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", time_quote(orig)));
        }
        let u = &s[..unit_len];
        s = &s[unit_len..];
        let unit: u64 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {} in duration {}", time_quote(u), time_quote(orig))),
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i64).wrapping_neg());
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

pub fn timeadd(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let t = parse_timestamp(str_arg(&args[0])).map_err(FnError::new)?;
    let d = parse_duration(str_arg(&args[1])).map_err(FnError::new)?;
    let t = Time { unix_nanos: t.unix_nanos + d as i128, offset: t.offset };
    Ok(Value::from_string(t.rfc3339()))
}

fn starts_verb(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// cty's splitDateFormat tokens.
fn date_tokens(f: &str) -> Vec<&str> {
    let b = f.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
            } else {
                i += 1;
                loop {
                    if i >= b.len() {
                        break;
                    }
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    i += 1;
                }
            }
        } else if starts_verb(b[i]) {
            let rep = b[i];
            while i < b.len() && b[i] == rep {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && b[i] != b'\'' && !starts_verb(b[i]) {
                i += 1;
            }
        }
        toks.push(&f[start..i]);
    }
    toks
}

pub fn formatdate(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let fmt = str_arg(&args[0]);
    let t = parse_timestamp(str_arg(&args[1])).map_err(|e| FnError::arg(1, e))?;
    let c = t.civil();
    let mut out = String::new();
    let bad = |tok: &str, why: &str| FnError::arg(0, format!("invalid date format verb {}{}", crate::strings::go_quote(tok), why));
    for tok in date_tokens(fmt) {
        let b = tok.as_bytes();
        if b[0] == b'\'' {
            if b.len() == 1 || b[b.len() - 1] != b'\'' {
                return Err(FnError::arg(0, "unterminated literal '"));
            }
            if b.len() == 2 {
                out.push('\'');
            } else {
                let raw = &tok[1..tok.len() - 1];
                let rb = raw.as_bytes();
                let mut i = 0;
                let mut lit = Vec::with_capacity(rb.len());
                while i < rb.len() {
                    lit.push(rb[i]);
                    if rb[i] == b'\'' {
                        i += 1;
                    }
                    i += 1;
                }
                out.push_str(&String::from_utf8_lossy(&lit));
            }
            continue;
        }
        if !starts_verb(b[0]) {
            out.push_str(tok);
            continue;
        }
        let n = b.len();
        match b[0] {
            b'Y' => match n {
                2 => out.push_str(&format!("{:02}", c.year.rem_euclid(100))),
                4 => out.push_str(&go_year(c.year)),
                _ => return Err(bad(tok, ": year must either be \"YY\" or \"YYYY\"")),
            },
            b'M' => {
                let name = MONTHS[(c.month - 1) as usize];
                match n {
                    1 => out.push_str(&c.month.to_string()),
                    2 => out.push_str(&format!("{:02}", c.month)),
                    3 => out.push_str(&name[..3]),
                    4 => out.push_str(name),
                    _ => return Err(bad(tok, ": month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"")),
                }
            }
            b'D' => match n {
                1 => out.push_str(&c.day.to_string()),
                2 => out.push_str(&format!("{:02}", c.day)),
                _ => return Err(bad(tok, ": day of month must either be \"D\" or \"DD\"")),
            },
            b'E' => {
                let name = WEEKDAYS[c.weekday as usize];
                match n {
                    3 => out.push_str(&name[..3]),
                    4 => out.push_str(name),
                    _ => return Err(bad(tok, ": day of week must either be \"EEE\" or \"EEEE\"")),
                }
            }
            b'h' => match n {
                1 => out.push_str(&c.hour.to_string()),
                2 => out.push_str(&format!("{:02}", c.hour)),
                _ => return Err(bad(tok, ": 24-hour must either be \"h\" or \"hh\"")),
            },
            b'H' => {
                let h = if c.hour % 12 == 0 { 12 } else { c.hour % 12 };
                match n {
                    1 => out.push_str(&h.to_string()),
                    2 => out.push_str(&format!("{h:02}")),
                    _ => return Err(bad(tok, ": 12-hour must either be \"H\" or \"HH\"")),
                }
            }
            b'A' | b'a' => {
                if n != 2 {
                    let l = &tok[..1];
                    return Err(bad(tok, &format!(": must be \"{l}{l}\"")));
                }
                let pm = c.hour >= 12;
                out.push_str(match (b[0] == b'A', pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "am",
                    (false, true) => "pm",
                });
            }
            b'm' => match n {
                1 => out.push_str(&c.min.to_string()),
                2 => out.push_str(&format!("{:02}", c.min)),
                _ => return Err(bad(tok, ": minute must either be \"m\" or \"mm\"")),
            },
            b's' => match n {
                1 => out.push_str(&c.sec.to_string()),
                2 => out.push_str(&format!("{:02}", c.sec)),
                _ => return Err(bad(tok, ": second must either be \"s\" or \"ss\"")),
            },
            b'Z' => match n {
                1 => out.push_str(&t.zone(true, true)),
                3 => {
                    let z = t.zone(false, false);
                    out.push_str(if z == "+0000" { "UTC" } else { &z });
                }
                4 => out.push_str(&t.zone(false, false)),
                5 => out.push_str(&t.zone(true, false)),
                _ => return Err(bad(tok, ": timezone must be Z, ZZZZ, or ZZZZZ")),
            },
            _ => return Err(bad(tok, "")),
        }
    }
    ctx.charge(out.len() as u64)?;
    Ok(Value::from_string(out))
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_and_timestamps() {
        assert_eq!(super::parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(super::parse_duration("-1.5s"), Ok(-1_500_000_000));
        assert_eq!(super::parse_duration("1"), Err("time: missing unit in duration \"1\"".into()));
        assert_eq!(super::parse_duration("1x"), Err("time: unknown unit \"x\" in duration \"1x\"".into()));
        let t = super::parse_timestamp("2017-11-22T00:00:00Z").unwrap();
        assert_eq!(t.rfc3339(), "2017-11-22T00:00:00Z");
        assert_eq!(t.civil().weekday, 3);
        let t = super::parse_timestamp("2017-11-22T01:02:03+05:30").unwrap();
        assert_eq!(t.rfc3339(), "2017-11-22T01:02:03+05:30");
        assert_eq!(super::parse_timestamp("2017-02-30T00:00:00Z").err().unwrap(), "not a valid RFC3339 timestamp: day out of range");
    }
}
