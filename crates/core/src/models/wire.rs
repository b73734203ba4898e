//! Small serde helpers shared by the models.

use serde::Deserialize;
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
/// `250` becomes `"+250"`. Anything else reads as absent, as in [`text`].
pub(crate) fn american_odds<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    deserializer.deserialize_option(Text {
        plus_on_positive: true,
    })
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
            // Items that are not text (a number is written as its text)
            // are dropped.
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(2));
            while let Some(item) = seq.next_element::<serde_json::Value>()? {
                match item {
                    serde_json::Value::String(s) => out.push(s),
                    serde_json::Value::Number(n) => out.push(n.to_string()),
                    _ => {}
                }
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

// ---- The tolerant deserializers `#[model]` puts on fields (by type). ----

/// `skip_serializing_if` of every optional field: the server omits absent
/// fields. Not `Option::is_none`, which tsify would declare without
/// `| null` (see the `#[model]` macro).
pub(crate) fn is_none<T>(value: &Option<T>) -> bool {
    value.is_none()
}

/// A required number: a number or a string holding one.
pub(crate) fn number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    lenient_number(deserializer)?.ok_or_else(|| de::Error::custom("expected a number"))
}

/// A text field: a string, or a number written as its text (numeric ids,
/// Unix times); anything else reads as absent.
pub(crate) fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    deserializer.deserialize_option(Text {
        plus_on_positive: false,
    })
}

/// The visitor of [`text`] and [`american_odds`]: they differ only in how
/// a positive number is written.
struct Text {
    /// American odds write a positive number with its sign (`+250`).
    plus_on_positive: bool,
}

impl Text {
    fn number(&self, written: String, positive: bool) -> Option<String> {
        Some(if self.plus_on_positive && positive {
            format!("+{written}")
        } else {
            written
        })
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or a number")
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
        Ok(self.number(v.to_string(), v > 0))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.number(v.to_string(), v > 0))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(self.number(v.to_string(), v > 0.0))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(None)
    }
}

/// A required id: a string or a number (written as its text).
pub(crate) fn id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    text(deserializer)?.ok_or_else(|| de::Error::custom("expected a string or a number"))
}

/// A flag: a bool, `"true"`/`"false"`, or 0/1; anything else reads as
/// absent.
pub(crate) fn flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Bool(b) => Some(b),
        serde_json::Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        serde_json::Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(0.0) => Some(false),
            Some(1.0) => Some(true),
            _ => None,
        },
        _ => None,
    })
}

/// A time read as Unix seconds: a number (milliseconds when 10^11 or
/// more), a string holding one, or an ISO 8601 text (`/profile/trades`
/// sends these where `/trades` sends integers).
pub(crate) fn unix_seconds<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<f64>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(crate::time::value_ms(&value).map(|ms| ms as f64 / 1000.0))
}

/// Any other optional value: what does not decode as `T` reads as absent
/// instead of failing the resource that holds it.
pub(crate) fn or_none<'de, D: Deserializer<'de>, T: de::DeserializeOwned>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    if value.is_null() {
        return Ok(None);
    }
    Ok(T::deserialize(value).ok())
}

/// A nested list: the items that decode, in order (a bad one is dropped;
/// lists of a page are reported instead, see `decode_items`); not an
/// array: absent.
pub(crate) fn list_or_none<'de, D: Deserializer<'de>, T: de::DeserializeOwned>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error> {
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Array(items) => Some(
            items
                .into_iter()
                .filter_map(|item| T::deserialize(item).ok())
                .collect(),
        ),
        _ => None,
    })
}

/// [`list_or_none`] for a list that is empty when absent.
pub(crate) fn list_or_empty<'de, D: Deserializer<'de>, T: de::DeserializeOwned>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    Ok(list_or_none(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Odds {
        #[serde(default, deserialize_with = "american_odds")]
        american: Option<String>,
        #[serde(default, deserialize_with = "text")]
        id: Option<String>,
    }

    fn read(json: &str) -> Odds {
        match serde_json::from_str(json) {
            Ok(odds) => odds,
            Err(e) => panic!("{json}: {e}"),
        }
    }

    #[test]
    fn american_odds_sign_a_positive_number_and_keep_text_as_sent() {
        assert_eq!(
            read(r#"{"american": 250}"#).american.as_deref(),
            Some("+250")
        );
        assert_eq!(
            read(r#"{"american": -110}"#).american.as_deref(),
            Some("-110")
        );
        assert_eq!(
            read(r#"{"american": 137.5}"#).american.as_deref(),
            Some("+137.5")
        );
        assert_eq!(
            read(r#"{"american": "+250"}"#).american.as_deref(),
            Some("+250")
        );
        assert_eq!(
            read(r#"{"american": "250"}"#).american.as_deref(),
            Some("250")
        );
        assert_eq!(read(r#"{"american": 0}"#).american.as_deref(), Some("0"));
    }

    #[test]
    fn text_writes_numbers_without_a_sign() {
        assert_eq!(read(r#"{"id": 250}"#).id.as_deref(), Some("250"));
        assert_eq!(read(r#"{"id": -3}"#).id.as_deref(), Some("-3"));
    }

    #[test]
    fn anything_else_reads_as_absent_and_does_not_fail_the_object() {
        for odd in ["true", "[1, 2]", r#"{"a": 1}"#, "null"] {
            let odds = read(&format!(r#"{{"american": {odd}, "id": {odd}}}"#));
            assert_eq!(odds.american, None, "{odd}");
            assert_eq!(odds.id, None, "{odd}");
        }
    }
}
