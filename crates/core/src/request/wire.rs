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
    /// Above the type's maximum is the maximum: a page size or offset
    /// larger than any list is capped by the checks that follow (the
    /// service caps, never rejects); below the minimum is an error.
    fn fit<E: de::Error>(&self, value: i128, unexpected: Unexpected<'_>) -> Result<T, E> {
        T::from_i128(value.min(T::MAX)).ok_or_else(|| E::invalid_value(unexpected, self))
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
        // `as` saturates, and `fit` caps at the type's maximum anyway.
        if v.is_finite() && v.fract() == 0.0 {
            self.fit(v as i128, Unexpected::Float(v))
        } else {
            Err(E::invalid_value(Unexpected::Float(v), &self))
        }
    }

    /// Digits with an optional sign, nothing else: `2.5`, `1e3` or `0x10`
    /// in a query string is a mistake, not a number to round.
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        let text = v.trim();
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::invalid_value(Unexpected::Str(v), &self));
        }
        // More digits than an i128 holds: beyond either end of any type.
        let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
        self.fit(
            if negative { -magnitude } else { magnitude },
            Unexpected::Str(v),
        )
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: WholeNumber>(text: &str) -> Option<T> {
        let de = serde::de::value::StrDeserializer::<serde::de::value::Error>::new(text);
        Whole::<T>::deserialize(de).ok().map(|w| w.0)
    }

    #[test]
    fn whole_numbers_from_text() {
        assert_eq!(read::<u32>("25"), Some(25));
        assert_eq!(read::<u32>(" +7 "), Some(7));
        assert_eq!(
            read::<u32>("99999999999999999999999999999999999999999"),
            Some(u32::MAX)
        );
        assert_eq!(read::<i64>("-5"), Some(-5));
        for bad in ["-1", "", "2.5", "1e3", "0x10", "abc", "+", "--1"] {
            assert_eq!(read::<u32>(bad), None, "{bad}");
        }
    }
}
