//! Readers for parameter values as they arrive: a query string carries every
//! value as text, a JS caller passes numbers and booleans. Both reach the
//! same field of the same struct.

use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use serde::ser::Serializer;
use std::fmt;
use std::marker::PhantomData;

/// An integer type a parameter can have.
pub(crate) trait WholeNumber: Sized {
    const MIN: i128;
    const MAX: i128;
    fn from_i128(value: i128) -> Option<Self>;
}

macro_rules! whole_number {
    ($($t:ty),*) => {$(
        impl WholeNumber for $t {
            const MIN: i128 = <$t>::MIN as i128;
            const MAX: i128 = <$t>::MAX as i128;
            fn from_i128(value: i128) -> Option<Self> {
                <$t>::try_from(value).ok()
            }
        }
    )*};
}
whole_number!(u32, u64, i64);

struct WholeVisitor<T>(PhantomData<T>);

impl<T: WholeNumber> WholeVisitor<T> {
    fn fit<E: de::Error>(&self, value: i128, unexpected: Unexpected<'_>) -> Result<T, E> {
        T::from_i128(value).ok_or_else(|| E::invalid_value(unexpected, self))
    }
}

impl<T: WholeNumber> Visitor<'_> for WholeVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a whole number from {} to {}", T::MIN, T::MAX)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.fit(v.into(), Unexpected::Unsigned(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.fit(v.into(), Unexpected::Signed(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        // JS has only doubles: 25.0 is the integer 25.
        if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.3e18 {
            self.fit(v as i128, Unexpected::Float(v))
        } else {
            Err(E::invalid_value(Unexpected::Float(v), &self))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        let text = v.trim();
        match text.parse::<i128>() {
            Ok(n) => self.fit(n, Unexpected::Str(v)),
            Err(_) => match text.parse::<f64>() {
                Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.3e18 => {
                    self.fit(f as i128, Unexpected::Str(v))
                }
                _ => Err(E::invalid_value(Unexpected::Str(v), &self)),
            },
        }
    }
}

struct Whole<T>(T);

impl<'de, T: WholeNumber> Deserialize<'de> for Whole<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(WholeVisitor(PhantomData)).map(Whole)
    }
}

/// An optional whole number, given as a number or as digits.
pub(crate) fn whole<'de, D: Deserializer<'de>, T: WholeNumber>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Ok(Option::<Whole<T>>::deserialize(d)?.map(|w| w.0))
}

struct FlagVisitor;

impl Visitor<'_> for FlagVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("true or false")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(E::invalid_value(Unexpected::Str(v), &self)),
        }
    }
}

struct Flag(bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FlagVisitor).map(Flag)
    }
}

/// An optional boolean, given as a boolean or as `"true"` / `"false"`.
pub(crate) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(Option::<Flag>::deserialize(d)?.map(|f| f.0))
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of strings or one comma-separated string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
        Ok(v.split(',').map(|s| s.trim().to_owned()).collect())
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::new();
        while let Some(item) = seq.next_element::<String>()? {
            out.push(item);
        }
        Ok(out)
    }
}

/// A list sent comma-separated (`market_ids=a,b`), read from that form or
/// from an array.
pub(crate) fn comma_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(ListVisitor)
}

/// Writes a list as one comma-separated value.
pub(crate) fn comma_joined<S: Serializer>(list: &[String], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&list.join(","))
}

/// Captures the field names a derived `Deserialize` asks for.
struct FieldCapture {
    fields: &'static [&'static str],
}

#[derive(Debug)]
struct Captured;

impl fmt::Display for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field names captured")
    }
}

impl std::error::Error for Captured {}

impl de::Error for Captured {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Captured
    }
}

impl<'de> Deserializer<'de> for &mut FieldCapture {
    type Error = Captured;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Captured> {
        Err(Captured)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Captured> {
        self.fields = fields;
        Err(Captured)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// The field names of a struct deriving `Deserialize` (empty for any
/// other type).
pub(crate) fn struct_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut capture = FieldCapture { fields: &[] };
    let _ = T::deserialize(&mut capture);
    capture.fields
}
