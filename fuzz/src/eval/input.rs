//! Turns fuzz input bytes into a source text and a set of variables.
//!
//! Layout: `spec_len: u16 (little endian) | spec[spec_len] | source`. The
//! spec is a compact, mutation-friendly description of variable bindings
//! (`fuzz/seed.sh` has an encoder for the conformance cases' variables):
//!
//! ```text
//! binding := name value                       (up to MAX_BINDINGS)
//! name    := 0xFF len byte*  |  i  (NAMES[i % NAMES.len()])
//! value   := type known-value(type)
//! type    := 0 string | 1 number | 2 bool | 3 dynamic | 4 list type | 5 set type
//!          | 6 map type | 7 object n (key type)*n | 8 tuple n type*n      (tag % 9, n % 16)
//! key     := 0xFF len byte*  |  i  (KEYS[i % KEYS.len()])
//! known-value(T) := k ...  with k % 8: 6 null, 7 unknown, else known:
//!   bool: k odd is true; number: 0 i8 | 1 NUMBERS[i] | 2 len text | 3 i64 (8 bytes LE);
//!   string: 0 STRINGS[i] | 1 len byte* | 2 STRINGS[i] repeated count*64 times;
//!   dynamic: a value of a freshly read type; list/set/map: count c, c < 0x80:
//!   c elements (map: key value), else (c & 0x7f) * 64 copies of one element;
//!   object/tuple: one value per attribute/element of the type.
//! ```
//!
//! Reading past the end yields zero bytes, so every byte string decodes.
//! Collection elements must have exactly the element type, so below a
//! collection a `dynamic` is only ever a null or an unknown.

use hclvm::runtime::strings::normalize_nfc;
use hclvm::{Number, Type, Value, Variables};

/// Variable names the sources most likely use (the conformance cases' most
/// common names first).
pub const NAMES: &[&str] = &[
    "a",
    "b",
    "c",
    "x",
    "y",
    "z",
    "l",
    "m",
    "s",
    "n",
    "v",
    "k",
    "t",
    "o",
    "u",
    "i",
    "ls",
    "ss",
    "ms",
    "ln",
    "ns",
    "foo",
    "bar",
    "baz",
    "el",
    "words",
    "var",
    "name",
    "tuple",
    "list",
    "map",
    "obj",
    "set",
    "str",
    "num",
    "space_bar",
    "nullstr",
    "local",
    "each",
    "count",
];

/// Object attribute names and map keys.
pub const KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "x",
    "y",
    "name",
    "id",
    "key",
    "value",
    "0",
    "1",
    "",
    "é",
    "e\u{301}",
    "key with space",
    "${a}",
    "tags",
    "list",
    "null",
    "true",
];

/// Number texts (parsed as cty does), including extreme and negative-zero ones.
pub const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.1",
    "1.5",
    "-2.5",
    "3.14159",
    "100",
    "255",
    "65536",
    "2147483648",
    "9007199254740993",
    "18446744073709551616",
    "-9223372036854775808",
    "1e308",
    "1e309",
    "-1e400",
    "1e-400",
    "4.9e-324",
    "0.000000000000000000001",
    "123456789012345678901234567890.123456789",
    "1e100000",
    "-1e100000",
    "1e1000000",
    "-0.0",
    "0e10",
    "+Inf",
    "-Inf",
];

/// String values, many of them meaningful to some function or conversion.
pub const STRINGS: &[&str] = &[
    "",
    "a",
    "x",
    "hello world",
    "true",
    "false",
    "null",
    "0",
    "-0",
    "-0.0",
    "1e400",
    "1.5",
    " 12 ",
    "0x1F",
    "e\u{301}",
    "é",
    "\u{FB03}",
    "👩\u{200D}👩\u{200D}👧",
    "\u{0}",
    "line1\nline2\n",
    "\t tab \r\n",
    "${a}",
    "%{ if true }",
    "a,b,c",
    "[1,2]",
    "{\"a\":1}",
    "2006-01-02T15:04:05Z",
    "^(a+)+$",
    "ß",
    "İ",
    "Ω",
    "\u{FFFD}",
    "%s %d %v %5.2f %#v %%",
    "1h30m",
    "a\"b\\c",
    "[",
    "(?P<n>x)",
    "DEADBEEF",
    "  ",
];

pub const MAX_BINDINGS: usize = 32;
/// Types and values nest at most this deep.
const MAX_DEPTH: u32 = 6;
/// Logical values (shared copies counted each time) across all variables.
const MAX_NODES: usize = 50_000;
/// String bytes across all variables (logical, like nodes).
const MAX_STRING_BYTES: usize = 1 << 20;
/// The most a set may weigh (its elements' logical sizes, string bytes / 16
/// and numbers beyond f64's range included, see `number_weight`):
/// building a set hashes every element's whole text and compares
/// equal-hash structured elements pairwise.
const MAX_SET_WEIGHT: usize = 1_024;

/// A number's weight: a set keys each number by its decimal text, whose
/// cost grows with its digits, up to 100,000 of them beyond f64's range
/// (1e100000 took some 10 ms under ASan; a set of a thousand, ten
/// seconds): such a number weighs an eighth of a set's allowance.
fn number_weight(n: &Number) -> usize {
    let f = n.to_f64();
    let beyond_f64 = !n.is_zero() && !n.is_infinite() && (f == 0.0 || f.is_infinite());
    if beyond_f64 {
        MAX_SET_WEIGHT / 8
    } else {
        1
    }
}

/// Splits fuzz input into the variable spec and the source text.
pub fn split(data: &[u8]) -> (&[u8], &[u8]) {
    if data.len() < 2 {
        return (&[], data);
    }
    let len = u16::from_le_bytes([data[0], data[1]]) as usize;
    let rest = &data[2..];
    let len = len.min(rest.len());
    rest.split_at(len)
}

/// Decodes a variable spec (any bytes).
pub fn variables(spec: &[u8]) -> Variables {
    let mut g = Gen { data: spec, pos: 0, nodes: 0, string_bytes: 0 };
    let mut vars = Variables::new();
    let mut bound = 0;
    while g.pos < g.data.len() && bound < MAX_BINDINGS {
        let name = g.name(NAMES);
        let ty = g.ty(0);
        let (v, _) = g.value(&ty, false, 0);
        vars.set(name, v);
        bound += 1;
    }
    vars
}

struct Gen<'a> {
    data: &'a [u8],
    pos: usize,
    nodes: usize,
    string_bytes: usize,
}

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn bytes(&mut self, n: usize) -> &[u8] {
        let start = self.pos.min(self.data.len());
        let end = self.pos.saturating_add(n).min(self.data.len());
        self.pos = self.pos.saturating_add(n);
        &self.data[start..end]
    }

    fn name(&mut self, table: &[&str]) -> String {
        match self.byte() {
            0xFF => {
                let n = self.byte() as usize;
                String::from_utf8_lossy(self.bytes(n)).into_owned()
            }
            b => table[b as usize % table.len()].to_string(),
        }
    }

    fn ty(&mut self, depth: u32) -> Type {
        let tag = self.byte() % 9;
        let tag = if depth >= MAX_DEPTH { tag % 4 } else { tag };
        match tag {
            0 => Type::String,
            1 => Type::Number,
            2 => Type::Bool,
            3 => Type::Dynamic,
            4 => Type::list(self.ty(depth + 1)),
            5 => Type::set(self.ty(depth + 1)),
            6 => Type::map(self.ty(depth + 1)),
            7 => {
                let n = self.byte() % 16;
                let attrs: Vec<(String, Type)> =
                    (0..n).map(|_| (normalize_nfc(&self.name(KEYS)).into_owned(), self.ty(depth + 1))).collect();
                Type::object(attrs)
            }
            _ => {
                let n = self.byte() % 16;
                Type::tuple((0..n).map(|_| self.ty(depth + 1)).collect())
            }
        }
    }

    /// A value of type `ty` and its logical weight (values, plus string
    /// bytes / 16; shared copies counted each time). With `exact`,
    /// the value's type is exactly `ty` (`dynamic` stays dynamic).
    fn value(&mut self, ty: &Type, exact: bool, depth: u32) -> (Value, usize) {
        let kind = self.byte() % 8;
        if kind == 6 || self.nodes >= MAX_NODES || depth > MAX_DEPTH + 1 {
            return (Value::null(ty.clone()), 1);
        }
        if kind == 7 {
            return (Value::unknown(ty.clone()), 1);
        }
        self.nodes += 1;
        match ty {
            Type::Bool => (Value::bool(kind % 2 == 1), 1),
            Type::Number => {
                let n = self.number();
                let weight = number_weight(&n);
                (Value::number(n), weight)
            }
            Type::String => {
                let s = self.string();
                self.string_bytes += s.len();
                let weight = 1 + s.len() / 16;
                (Value::from_string(s), weight)
            }
            Type::Dynamic if exact => (Value::null(Type::Dynamic), 1),
            Type::Dynamic => {
                let t = self.ty(depth + 1);
                if t.is_dynamic() {
                    return (Value::null(Type::Dynamic), 1);
                }
                self.value(&t, false, depth + 1)
            }
            Type::List(ety) | Type::Set(ety) | Type::Map(ety) => self.collection(ty, ety, depth),
            Type::Object(ot) => {
                let mut size = 1;
                let attrs: Vec<(String, Value)> = ot
                    .iter()
                    .map(|(name, t)| {
                        let (v, s) = self.value(t, exact, depth + 1);
                        size += s;
                        (name.to_string(), v)
                    })
                    .collect();
                (Value::object(attrs), size)
            }
            Type::Tuple(tt) => {
                let mut size = 1;
                let elems = tt
                    .elems()
                    .iter()
                    .map(|t| {
                        let (v, s) = self.value(t, exact, depth + 1);
                        size += s;
                        v
                    })
                    .collect();
                (Value::tuple(elems), size)
            }
        }
    }

    fn collection(&mut self, ty: &Type, ety: &Type, depth: u32) -> (Value, usize) {
        let count = self.byte();
        let mut size = 1;
        let mut elems: Vec<(String, Value)> = Vec::new();
        if count >= 0x80 {
            let (v, s) = self.value(ety, true, depth + 1);
            let room = MAX_NODES.saturating_sub(self.nodes) / s.max(1);
            // Sets deduplicate pairwise within a hash group (unknowns never
            // dedupe), so many equal structured copies cost quadratic time
            // to build here, before any evaluation: keep set copies few.
            let most = if ty.is_set() { MAX_SET_WEIGHT / s.max(1) } else { usize::MAX };
            let n = ((count & 0x7f) as usize * 64).min(room).min(most);
            self.nodes += n * s;
            size += n * s;
            elems.extend((0..n).map(|i| (format!("k{i}"), v.clone())));
        } else {
            for _ in 0..count {
                let key = if ty.is_map() { self.name(KEYS) } else { String::new() };
                let (v, s) = self.value(ety, true, depth + 1);
                if ty.is_set() && size + s > MAX_SET_WEIGHT {
                    continue;
                }
                size += s;
                elems.push((key, v));
            }
        }
        let ety = (*ety).clone();
        let built = match ty {
            Type::List(_) => Value::list_of(ety, elems.into_iter().map(|(_, v)| v).collect()),
            Type::Set(_) => Value::set_of(ety, elems.into_iter().map(|(_, v)| v).collect()),
            _ => Value::map_of(ety, elems),
        };
        (built.unwrap_or_else(|_| Value::null(ty.clone())), size)
    }

    fn number(&mut self) -> Number {
        match self.byte() % 4 {
            0 => Number::from_i64(self.byte() as i8 as i64),
            1 => {
                let text = NUMBERS[self.byte() as usize % NUMBERS.len()];
                match text {
                    "+Inf" => Number::pos_inf(),
                    "-Inf" => Number::neg_inf(),
                    _ => Number::parse(text).unwrap_or_else(|_| Number::zero()),
                }
            }
            2 => {
                let n = self.byte() as usize;
                let text = String::from_utf8_lossy(self.bytes(n)).into_owned();
                Number::parse(&text).unwrap_or_else(|_| Number::zero())
            }
            _ => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.byte();
                }
                Number::from_i64(i64::from_le_bytes(b))
            }
        }
    }

    fn string(&mut self) -> String {
        let room = MAX_STRING_BYTES.saturating_sub(self.string_bytes);
        let mut s = match self.byte() % 3 {
            0 => STRINGS[self.byte() as usize % STRINGS.len()].to_string(),
            1 => {
                let n = self.byte() as usize;
                String::from_utf8_lossy(self.bytes(n)).into_owned()
            }
            _ => {
                let unit = STRINGS[self.byte() as usize % STRINGS.len()];
                let times = (self.byte() as usize * 64).min(room / unit.len().max(1));
                unit.repeat(times)
            }
        };
        if s.len() > room {
            s.clear();
        }
        s
    }
}
