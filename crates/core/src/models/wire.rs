//! Small serde helpers shared by the models.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use std::fmt;

/// Numbers the spec calls integers are `f64` in the models (JS has one
/// number type, and a service that sends `12.0` must still decode), but they
/// go back on the wire as integers: `2025`, not `2025.0`.
pub(crate) fn int<S: Serializer>(value: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(n) => int_value(*n, serializer),
        None => serializer.serialize_none(),
    }
}

/// `int` for a field that is not optional.
pub(crate) fn int_value<S: Serializer>(n: f64, serializer: S) -> Result<S::Ok, S::Error> {
    // 2^53: beyond it an f64 no longer holds every integer, so keep it a float.
    const SAFE: f64 = 9_007_199_254_740_992.0;
    if n.is_finite() && n.fract() == 0.0 && n.abs() < SAFE {
        serializer.serialize_i64(n as i64)
    } else {
        serializer.serialize_f64(n)
    }
}

/// `odds.american` is a string (`"+250"`, `"-110"`), but a platform that
/// sends a number must not break decoding: `-110` becomes `"-110"` and
/// `250` becomes `"+250"`.
pub(crate) fn american_odds<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("american odds as a string or a number")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(format!("+{v}")))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Some(if v > 0.0 {
                format!("+{v}")
            } else {
                v.to_string()
            }))
        }
    }
    deserializer.deserialize_option(V)
}

/// `clobTokenIds` is an array of strings in the spec, but platform_a's own
/// API sends it as a string holding a JSON array; raw pass-through data
/// must decode too.
pub(crate) fn string_list<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<String>>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array of strings, or a string holding one")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            match serde_json::from_str::<Vec<String>>(v) {
                Ok(list) => Ok(Some(list)),
                // A single bare id.
                Err(_) if !v.trim().is_empty() => Ok(Some(vec![v.to_owned()])),
                Err(_) => Ok(Some(Vec::new())),
            }
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(2));
            while let Some(item) = seq.next_element::<String>()? {
                out.push(item);
            }
            Ok(Some(out))
        }
    }
    deserializer.deserialize_option(V)
}

/// A number where the spec does not fix the form: a number, or a string
/// holding one. Any other string (e.g. an ISO date) reads as absent rather
/// than failing the whole response.
pub(crate) fn lenient_number<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<f64>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<f64>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(v.trim().parse::<f64>().ok().filter(|n| n.is_finite()))
        }
    }
    deserializer.deserialize_option(V)
}
