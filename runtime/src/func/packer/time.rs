//! timestamp legacy_isotime legacy_strftime (Packer's
//! `hcl2template/function/datetime.go`).
//!
//! `timestamp` reads the clock at each call; the legacy functions format
//! one instant taken when the table is made (Packer's `initTime`, taken
//! when its package initializes), with Go's `time.Format` layouts
//! (`legacy_isotime`) or jehiah/go-strftime's directives
//! (`legacy_strftime`), both ported here for UTC.

use super::super::{str_arg, CallCtx, FnError};
use crate::func::datetime::civil_from_days;
use crate::types::Type;
use crate::value::Value;

/// An instant in UTC, broken down.
#[derive(Clone, Copy, Debug)]
pub struct UtcTime {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    min: u32,
    sec: u32,
    nanos: u32,
    weekday: u32,
    /// Day of the year, 1-based.
    yday: u32,
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

impl UtcTime {
    /// The instant `secs` seconds and `nanos` nanoseconds after the Unix
    /// epoch.
    pub fn from_unix(secs: i64, nanos: u32) -> UtcTime {
        let days = secs.div_euclid(86400);
        let rem = secs.rem_euclid(86400) as u32;
        let (year, month, day) = civil_from_days(days);
        const CUM: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
        let yday = CUM[(month - 1) as usize] + day + u32::from(month > 2 && is_leap(year));
        UtcTime {
            year,
            month,
            day,
            hour: rem / 3600,
            min: rem / 60 % 60,
            sec: rem % 60,
            nanos,
            weekday: (days + 4).rem_euclid(7) as u32,
            yday,
        }
    }

    /// Now.
    pub fn now() -> UtcTime {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        UtcTime::from_unix(d.as_secs() as i64, d.subsec_nanos())
    }

    /// Go's `time.RFC3339` layout.
    fn rfc3339(&self) -> String {
        go_format(self, "2006-01-02T15:04:05Z07:00")
    }
}

const MONTHS: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// The layout elements of Go's `time` package.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Std {
    LongMonth,
    Month,
    NumMonth,
    ZeroMonth,
    LongWeekDay,
    WeekDay,
    Day,
    UnderDay,
    ZeroDay,
    UnderYearDay,
    ZeroYearDay,
    Hour,
    Hour12,
    ZeroHour12,
    Minute,
    ZeroMinute,
    Second,
    ZeroSecond,
    LongYear,
    Year,
    PM,
    Pm,
    Tz,
    /// A numeric zone: (Z for UTC, colon, with seconds, hours only).
    Zone(bool, bool, bool, bool),
    /// Fractional seconds: (trim zeros, digits, separator).
    Frac(bool, usize, u8),
}

fn starts_with_lower(s: &[u8]) -> bool {
    s.first().is_some_and(u8::is_ascii_lowercase)
}

/// Go's `nextStdChunk`: the literal prefix, the element, the rest.
fn next_std_chunk(layout: &[u8]) -> (&[u8], Option<Std>, &[u8]) {
    let l = layout;
    let has = |i: usize, s: &str| l.len() >= i + s.len() && &l[i..i + s.len()] == s.as_bytes();
    for i in 0..l.len() {
        let ret = |std: Std, n: usize| (&l[..i], Some(std), &l[i + n..]);
        match l[i] {
            b'J' if has(i, "Jan") => {
                if has(i, "January") {
                    return ret(Std::LongMonth, 7);
                }
                if !starts_with_lower(&l[i + 3..]) {
                    return ret(Std::Month, 3);
                }
            }
            b'M' if l.len() >= i + 3 => {
                if has(i, "Mon") {
                    if has(i, "Monday") {
                        return ret(Std::LongWeekDay, 6);
                    }
                    if !starts_with_lower(&l[i + 3..]) {
                        return ret(Std::WeekDay, 3);
                    }
                }
                if has(i, "MST") {
                    return ret(Std::Tz, 3);
                }
            }
            b'0' => {
                if l.len() >= i + 2 && (b'1'..=b'6').contains(&l[i + 1]) {
                    let std = [Std::ZeroMonth, Std::ZeroDay, Std::ZeroHour12, Std::ZeroMinute, Std::ZeroSecond, Std::Year]
                        [(l[i + 1] - b'1') as usize];
                    return ret(std, 2);
                }
                if has(i, "002") {
                    return ret(Std::ZeroYearDay, 3);
                }
            }
            b'1' => {
                if has(i, "15") {
                    return ret(Std::Hour, 2);
                }
                return ret(Std::NumMonth, 1);
            }
            b'2' => {
                if has(i, "2006") {
                    return ret(Std::LongYear, 4);
                }
                return ret(Std::Day, 1);
            }
            b'_' => {
                if has(i, "_2") {
                    if has(i + 1, "2006") {
                        return (&l[..i + 1], Some(Std::LongYear), &l[i + 5..]);
                    }
                    return ret(Std::UnderDay, 2);
                }
                if has(i, "__2") {
                    return ret(Std::UnderYearDay, 3);
                }
            }
            b'3' => return ret(Std::Hour12, 1),
            b'4' => return ret(Std::Minute, 1),
            b'5' => return ret(Std::Second, 1),
            b'P' if has(i, "PM") => return ret(Std::PM, 2),
            b'p' if has(i, "pm") => return ret(Std::Pm, 2),
            b'-' => {
                for (s, std) in [
                    ("-070000", Std::Zone(false, false, true, false)),
                    ("-07:00:00", Std::Zone(false, true, true, false)),
                    ("-0700", Std::Zone(false, false, false, false)),
                    ("-07:00", Std::Zone(false, true, false, false)),
                    ("-07", Std::Zone(false, false, false, true)),
                ] {
                    if has(i, s) {
                        return ret(std, s.len());
                    }
                }
            }
            b'Z' => {
                for (s, std) in [
                    ("Z070000", Std::Zone(true, false, true, false)),
                    ("Z07:00:00", Std::Zone(true, true, true, false)),
                    ("Z0700", Std::Zone(true, false, false, false)),
                    ("Z07:00", Std::Zone(true, true, false, false)),
                    ("Z07", Std::Zone(true, false, false, true)),
                ] {
                    if has(i, s) {
                        return ret(std, s.len());
                    }
                }
            }
            c @ (b'.' | b',') if i + 1 < l.len() && (l[i + 1] == b'0' || l[i + 1] == b'9') => {
                let ch = l[i + 1];
                let mut j = i + 1;
                while j < l.len() && l[j] == ch {
                    j += 1;
                }
                if !(j < l.len() && l[j].is_ascii_digit()) {
                    return (&l[..i], Some(Std::Frac(ch == b'9', j - (i + 1), c)), &l[j..]);
                }
            }
            _ => {}
        }
    }
    (l, None, &[])
}

fn push_int(b: &mut Vec<u8>, v: i64, width: usize) {
    let s = v.unsigned_abs().to_string();
    if v < 0 {
        b.push(b'-');
    }
    for _ in s.len()..width {
        b.push(b'0');
    }
    b.extend_from_slice(s.as_bytes());
}

/// Go's `Time.Format` for a UTC time.
pub fn go_format(t: &UtcTime, layout: &str) -> String {
    let mut b: Vec<u8> = Vec::with_capacity(layout.len() + 10);
    let mut rest = layout.as_bytes();
    loop {
        let (prefix, std, suffix) = next_std_chunk(rest);
        b.extend_from_slice(prefix);
        let Some(std) = std else { break };
        rest = suffix;
        match std {
            Std::Year => push_int(&mut b, t.year % 100, 2),
            Std::LongYear => push_int(&mut b, t.year, 4),
            Std::Month => b.extend_from_slice(&MONTHS[(t.month - 1) as usize].as_bytes()[..3]),
            Std::LongMonth => b.extend_from_slice(MONTHS[(t.month - 1) as usize].as_bytes()),
            Std::NumMonth => push_int(&mut b, t.month as i64, 0),
            Std::ZeroMonth => push_int(&mut b, t.month as i64, 2),
            Std::WeekDay => b.extend_from_slice(&DAYS[t.weekday as usize].as_bytes()[..3]),
            Std::LongWeekDay => b.extend_from_slice(DAYS[t.weekday as usize].as_bytes()),
            Std::Day => push_int(&mut b, t.day as i64, 0),
            Std::UnderDay => {
                if t.day < 10 {
                    b.push(b' ');
                }
                push_int(&mut b, t.day as i64, 0);
            }
            Std::ZeroDay => push_int(&mut b, t.day as i64, 2),
            Std::UnderYearDay => {
                if t.yday < 100 {
                    b.push(b' ');
                    if t.yday < 10 {
                        b.push(b' ');
                    }
                }
                push_int(&mut b, t.yday as i64, 0);
            }
            Std::ZeroYearDay => push_int(&mut b, t.yday as i64, 3),
            Std::Hour => push_int(&mut b, t.hour as i64, 2),
            Std::Hour12 | Std::ZeroHour12 => {
                let hr = match t.hour % 12 {
                    0 => 12,
                    h => h,
                };
                push_int(&mut b, hr as i64, if std == Std::Hour12 { 0 } else { 2 });
            }
            Std::Minute => push_int(&mut b, t.min as i64, 0),
            Std::ZeroMinute => push_int(&mut b, t.min as i64, 2),
            Std::Second => push_int(&mut b, t.sec as i64, 0),
            Std::ZeroSecond => push_int(&mut b, t.sec as i64, 2),
            Std::PM => b.extend_from_slice(if t.hour >= 12 { b"PM" } else { b"AM" }),
            Std::Pm => b.extend_from_slice(if t.hour >= 12 { b"pm" } else { b"am" }),
            Std::Tz => b.extend_from_slice(b"UTC"),
            Std::Zone(z, colon, seconds, short) => {
                if z {
                    b.push(b'Z');
                } else {
                    b.extend_from_slice(b"+00");
                    if !short {
                        b.extend_from_slice(if colon { b":00" } else { b"00" });
                    }
                    if seconds {
                        b.extend_from_slice(if colon { b":00" } else { b"00" });
                    }
                }
            }
            Std::Frac(trim, n, sep) => {
                if trim && (n == 0 || t.nanos == 0) {
                    continue;
                }
                let start = b.len();
                b.push(sep);
                push_int(&mut b, t.nanos as i64, 9);
                if n < 9 {
                    b.truncate(b.len() - 9 + n);
                }
                if trim {
                    while b.len() > start && b[b.len() - 1] == b'0' {
                        b.pop();
                    }
                    if b.len() > start && b[b.len() - 1] == sep {
                        b.pop();
                    }
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// jehiah/go-strftime's `Format`.
pub fn strftime(format: &str, t: &UtcTime) -> String {
    let f = format.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(f.len());
    let mut i = 0;
    while i < f.len() {
        let ni = f[i..].iter().position(|&c| c == b'%').map_or(f.len(), |p| p + i);
        out.extend_from_slice(&f[i..ni]);
        if ni + 1 < f.len() {
            let c = f[ni + 1];
            let layout = match c {
                b'B' => Some("January"),
                b'b' => Some("Jan"),
                b'm' => Some("01"),
                b'A' => Some("Monday"),
                b'a' => Some("Mon"),
                b'd' => Some("02"),
                b'H' => Some("15"),
                b'I' => Some("03"),
                b'M' => Some("04"),
                b'S' => Some("05"),
                b'Y' => Some("2006"),
                b'y' => Some("06"),
                b'p' => Some("PM"),
                b'Z' => Some("MST"),
                b'z' => Some("-0700"),
                b'L' => Some(".000"),
                _ => None,
            };
            match (c, layout) {
                (b'%', _) => out.push(b'%'),
                (_, Some(l)) => out.extend_from_slice(go_format(t, l).as_bytes()),
                (_, None) => {
                    out.push(b'%');
                    out.push(c);
                }
            }
        } else if ni < f.len() {
            out.push(b'%');
        }
        i = ni + 2;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub fn timestamp(_: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::from_string(UtcTime::now().rfc3339()))
}

/// Go's `%v` of the arguments (cty values of type string) in the error for
/// more than one format.
fn too_many(args: &[Value]) -> FnError {
    let parts: Vec<String> = args.iter().map(|a| format!("{{{{{{{{}} 83}}}} {}}}", str_arg(a))).collect();
    FnError::new(format!("too many values, 1 needed: [{}]", parts.join(" ")))
}

fn charge_layout(ctx: &mut CallCtx, layout: &str) -> Result<(), FnError> {
    // The longest element ("Wednesday", "September") is 9 bytes for 1 or
    // 2 of layout.
    ctx.charge(layout.len() as u64 * 9)
}

pub fn legacy_isotime(init: UtcTime, args: &[Value], ctx: &mut CallCtx) -> Result<Value, FnError> {
    match args {
        [] => Ok(Value::from_string(init.rfc3339())),
        [f] => {
            charge_layout(ctx, str_arg(f))?;
            Ok(Value::from_string(go_format(&init, str_arg(f))))
        }
        _ => Err(too_many(args)),
    }
}

pub fn legacy_strftime(init: UtcTime, args: &[Value], ctx: &mut CallCtx) -> Result<Value, FnError> {
    match args {
        [] => Ok(Value::from_string(init.rfc3339())),
        [f] => {
            charge_layout(ctx, str_arg(f))?;
            Ok(Value::from_string(strftime(str_arg(f), &init)))
        }
        _ => Err(too_many(args)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_go() {
        // 2026-11-25T18:39:14.799123456Z, a Wednesday, day 329.
        let t = UtcTime::from_unix(1795631954, 799_123_456);
        assert_eq!(
            go_format(
                &t,
                "Jan January Mon Monday MST 01 02 03 04 05 06 002 15 1 2006 2 _2 __2 3 4 5 PM pm -0700 -07:00 -07 Z0700 Z07:00 Z07 .000 ,999 .9 Janx"
            ),
            "Nov November Wed Wednesday UTC 11 25 06 39 14 26 329 18 11 2026 25 25 329 6 39 14 PM pm +0000 +00:00 +00 Z Z Z .799 ,799 .7 Janx"
        );
        assert_eq!(t.rfc3339(), "2026-11-25T18:39:14Z");
        assert_eq!(strftime("%Y-%m-%d %H:%M:%S%L %Q %% %", &t), "2026-11-25 18:39:14.799 %Q % %");
    }
}
