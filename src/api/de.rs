//! Typed results: a `serde::Deserializer` over [`Value`].
//!
//! The mapping is JSON's: bool, number, string; lists, sets and tuples are
//! sequences; maps and objects are maps (and structs); null is `None` or
//! `()`. Numbers become whichever Rust number the target asks for, when
//! they fit exactly (integers) or as the nearest `f64`. Unknown values
//! cannot be deserialized.

use runtime::Value;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;
use std::fmt;

/// Converts a value into any type that implements `serde::Deserialize`.
/// Strings can be borrowed from the value.
///
/// ```
/// use hclvm::{from_value, Value};
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Port { number: u16, public: bool }
///
/// let v = Value::object(vec![("number", Value::int(443)), ("public", Value::bool(true))]);
/// assert_eq!(from_value::<Port>(&v)?, Port { number: 443, public: true });
/// assert!(from_value::<u8>(&Value::int(300)).is_err());
/// # Ok::<(), hclvm::DeError>(())
/// ```
pub fn from_value<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, DeError> {
    T::deserialize(ValueDeserializer { value })
}

/// Why a value does not fit the requested type.
///
/// ```
/// let err = hclvm::from_value::<bool>(&hclvm::Value::string("yes")).unwrap_err();
/// assert_eq!(err.to_string(), "invalid type: string \"yes\", expected a boolean");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeError(String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> DeError {
        DeError(msg.to_string())
    }
}

/// The deserializer over a borrowed value (see [`from_value`]).
#[derive(Clone, Copy)]
pub struct ValueDeserializer<'de> {
    value: &'de Value,
}

impl<'de> ValueDeserializer<'de> {
    /// A deserializer reading `value`.
    ///
    /// ```
    /// use serde::Deserialize;
    /// let v = hclvm::Value::string("x");
    /// assert_eq!(String::deserialize(hclvm::ValueDeserializer::new(&v)), Ok("x".to_string()));
    /// ```
    pub fn new(value: &'de Value) -> ValueDeserializer<'de> {
        ValueDeserializer { value }
    }
}

fn unknown() -> DeError {
    DeError("the value is not known (it depends on an unknown input)".into())
}

impl<'de> de::Deserializer<'de> for ValueDeserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value {
            Value::Unknown(_) => Err(unknown()),
            Value::Null(_) => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.to_i64() {
                    visitor.visit_i64(i)
                } else if let Some(u) = n.to_u64() {
                    visitor.visit_u64(u)
                } else {
                    visitor.visit_f64(n.to_f64())
                }
            }
            Value::String(_) => match self.value.as_str() {
                Some(s) => visitor.visit_borrowed_str(s),
                None => Err(unknown()),
            },
            Value::List(_) | Value::Set(_) | Value::Tuple(_) => visitor.visit_seq(Elements { iter: self.value.elements_slice().iter() }),
            Value::Map(m) => visitor.visit_map(Members { keys: m.keys().iter().map(|k| k.as_str()), vals: m.vals().iter(), pending: None }),
            Value::Object(o) => {
                visitor.visit_map(Members { keys: o.object_type().names().iter().map(|k| &**k), vals: o.vals().iter(), pending: None })
            }
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value {
            Value::Number(n) => visitor.visit_f64(n.to_f64()),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value {
            Value::Null(_) => visitor.visit_none(),
            Value::Unknown(_) => Err(unknown()),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        // A unit variant is its name as a string; any other variant is an
        // object (or map) with exactly one member, the variant's name.
        if let Some(s) = self.value.as_str() {
            return visitor.visit_enum(s.into_deserializer());
        }
        let single = match self.value {
            Value::Unknown(_) => return Err(unknown()),
            Value::Map(m) if m.vals().len() == 1 => m.keys().first().map(|k| k.as_str()).zip(m.vals().first()),
            Value::Object(o) if o.vals().len() == 1 => o.object_type().names().first().map(|k| &**k).zip(o.vals().first()),
            _ => None,
        };
        match single {
            Some((name, content)) => visitor.visit_enum(Variant { name, content }),
            None => Err(DeError("an enum is a string or an object with one member".into())),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

impl<'de> IntoDeserializer<'de, DeError> for ValueDeserializer<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

struct Elements<'de> {
    iter: std::slice::Iter<'de, Value>,
}

impl<'de> SeqAccess<'de> for Elements<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        match self.iter.next() {
            Some(value) => seed.deserialize(ValueDeserializer { value }).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Members<'de, K: Iterator<Item = &'de str>> {
    keys: K,
    vals: std::slice::Iter<'de, Value>,
    pending: Option<&'de Value>,
}

impl<'de, K: Iterator<Item = &'de str>> MapAccess<'de> for Members<'de, K> {
    type Error = DeError;
    fn next_key_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        match (self.keys.next(), self.vals.next()) {
            (Some(k), Some(v)) => {
                self.pending = Some(v);
                seed.deserialize(de::value::BorrowedStrDeserializer::new(k)).map(Some)
            }
            _ => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, DeError> {
        match self.pending.take() {
            Some(value) => seed.deserialize(ValueDeserializer { value }),
            None => Err(DeError("a map value was asked for before its key".into())),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.vals.len())
    }
}

struct Variant<'de> {
    name: &'de str,
    content: &'de Value,
}

impl<'de> de::EnumAccess<'de> for Variant<'de> {
    type Error = DeError;
    type Variant = ValueDeserializer<'de>;
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant), DeError> {
        let tag = seed.deserialize(de::value::BorrowedStrDeserializer::new(self.name))?;
        Ok((tag, ValueDeserializer { value: self.content }))
    }
}

impl<'de> de::VariantAccess<'de> for ValueDeserializer<'de> {
    type Error = DeError;
    fn unit_variant(self) -> Result<(), DeError> {
        match self.value {
            Value::Null(_) => Ok(()),
            _ => Err(DeError("a unit variant takes no content".into())),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}
