//! A request's parameters as a table: wire name, kind and whether it is
//! required, in declaration order, with the conversions between the struct
//! and a list of plain values. `#[derive(Params)]` (predmarket-model-derive)
//! generates it from the request struct itself, next to its serde derives,
//! so the struct stays the one declaration (the contract test in
//! `tests/contract.rs` holds table and serde together).
//!
//! Why a table beside serde: one reader driven by it (the npm package's,
//! `crates/wasm/src/params.rs`) and one renderer ([`Request::to_http`])
//! serve every operation, where serde's derives compile a decoder and an
//! encoder per request type, which made most of the npm package's wasm.
//! The reference server keeps reading query strings with serde
//! ([`Request::from_query`]), whose names and leniency the table mirrors.
//!
//! [`Request::to_http`]: super::Request::to_http
//! [`Request::from_query`]: super::Request::from_query

use crate::error::Error;

/// What a parameter holds, and so which values it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string (ids, open-set values such as platform or status, text).
    Text,
    /// A whole number from `min` to `max`: a number, or digits with an
    /// optional sign; above `max` it is `max` (the service caps page sizes
    /// and offsets, never rejects them), below `min` an error.
    Whole { min: i64, max: u64 },
    /// `true` or `false`, or those words as strings (the wire form).
    Flag,
    /// A list of strings: an array, or one comma-separated string (the
    /// wire form).
    List,
}

/// One parameter of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The wire name (serde's, renames applied).
    pub name: &'static str,
    pub kind: Kind,
    /// The request is invalid without it.
    pub required: bool,
}

/// A parameter value as the caller gave it.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    Text(String),
    Number(f64),
    Flag(bool),
    List(Vec<String>),
}

/// A parameter value read for its [`Kind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// A whole number within its kind's range (so it fits the field).
    Whole(WholeValue),
    Flag(bool),
    List(Vec<String>),
}

/// A whole number: kept apart by sign, so that `u64` and `i64` fields both
/// hold their full range without 128-bit arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WholeValue {
    Unsigned(u64),
    Negative(i64),
}

impl Kind {
    /// Reads `raw` as a value of this kind; the error is what the value
    /// must be (the caller's value is not repeated: it may be a secret
    /// pasted into the wrong field).
    pub fn read(self, raw: Raw) -> Result<Value, String> {
        match (self, raw) {
            (Kind::Text, Raw::Text(text)) => Ok(Value::Text(text)),
            (Kind::Text, _) => Err("must be a string".to_owned()),
            (Kind::Flag, Raw::Flag(flag)) => Ok(Value::Flag(flag)),
            (Kind::Flag, Raw::Text(text)) if text == "true" || text == "false" => {
                Ok(Value::Flag(text == "true"))
            }
            (Kind::Flag, _) => Err("must be true or false".to_owned()),
            (Kind::List, Raw::List(items)) => Ok(Value::List(items)),
            (Kind::List, Raw::Text(text)) => Ok(Value::List(
                text.split(',').map(|s| s.trim().to_owned()).collect(),
            )),
            (Kind::List, _) => {
                Err("must be an array of strings or one comma-separated string".to_owned())
            }
            (Kind::Whole { min, max }, raw) => {
                let whole = match raw {
                    Raw::Number(n) if n.is_finite() && n.fract() == 0.0 => Some(if n < 0.0 {
                        (true, (-n) as u64)
                    } else {
                        (false, n as u64)
                    }),
                    Raw::Text(text) => digits(&text),
                    _ => None,
                };
                whole
                    .and_then(|(negative, magnitude)| fit(negative, magnitude, min, max))
                    .map(Value::Whole)
                    .ok_or_else(|| format!("must be a whole number from {min} to {max}"))
            }
        }
    }
}

/// Sign and magnitude of digits with an optional sign, surrounding spaces
/// allowed; the magnitude saturates. `2.5`, `1e3` or `0x10` are mistakes,
/// not numbers to round.
fn digits(text: &str) -> Option<(bool, u64)> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    Some((negative, magnitude))
}

fn fit(negative: bool, magnitude: u64, min: i64, max: u64) -> Option<WholeValue> {
    if !negative || magnitude == 0 {
        return Some(WholeValue::Unsigned(magnitude.min(max)));
    }
    // -magnitude >= min, without overflow: min is negative here.
    (min < 0 && magnitude <= min.unsigned_abs())
        .then(|| WholeValue::Negative(0i64.wrapping_sub_unsigned(magnitude)))
}

/// A request whose parameters are described by a table (derive it:
/// `#[derive(Params)]`).
pub trait Params: Sized {
    /// Every parameter, in declaration order.
    const PARAMS: &'static [Param];

    /// The request from values read for [`Self::PARAMS`], one per entry in
    /// the same order (`None`: not given). A value of another kind than its
    /// entry's leaves the field at its default.
    fn from_values(values: Vec<Option<Value>>) -> Self;

    /// The parameters that are set, as `(wire name, text)` pairs in
    /// declaration order, as they go into a query string.
    fn write_values(&self, out: &mut Vec<(String, String)>);
}

/// A type a parameter field can have.
pub trait ParamValue: Sized {
    const KIND: Kind;
    /// Not an `Option`: the request needs it.
    const REQUIRED: bool;
    fn from_value(value: Option<Value>) -> Self;
    fn write(&self, name: &str, out: &mut Vec<(String, String)>);
}

fn push(out: &mut Vec<(String, String)>, name: &str, value: String) {
    out.push((name.to_owned(), value));
}

impl ParamValue for String {
    const KIND: Kind = Kind::Text;
    const REQUIRED: bool = true;
    fn from_value(value: Option<Value>) -> Self {
        match value {
            Some(Value::Text(text)) => text,
            _ => String::new(),
        }
    }
    fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
        push(out, name, self.clone());
    }
}

impl ParamValue for Option<String> {
    const KIND: Kind = Kind::Text;
    const REQUIRED: bool = false;
    fn from_value(value: Option<Value>) -> Self {
        match value {
            Some(Value::Text(text)) => Some(text),
            _ => None,
        }
    }
    fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
        if let Some(text) = self {
            push(out, name, text.clone());
        }
    }
}

impl ParamValue for Option<bool> {
    const KIND: Kind = Kind::Flag;
    const REQUIRED: bool = false;
    fn from_value(value: Option<Value>) -> Self {
        match value {
            Some(Value::Flag(flag)) => Some(flag),
            _ => None,
        }
    }
    fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
        if let Some(flag) = self {
            push(out, name, (if *flag { "true" } else { "false" }).to_owned());
        }
    }
}

impl ParamValue for Vec<String> {
    const KIND: Kind = Kind::List;
    const REQUIRED: bool = true;
    fn from_value(value: Option<Value>) -> Self {
        match value {
            Some(Value::List(items)) => items,
            _ => Vec::new(),
        }
    }
    fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
        push(out, name, self.join(","));
    }
}

macro_rules! whole_param {
    ($($t:ty),*) => {$(
        impl ParamValue for Option<$t> {
            const KIND: Kind = Kind::Whole { min: <$t>::MIN as i64, max: <$t>::MAX as u64 };
            const REQUIRED: bool = false;
            fn from_value(value: Option<Value>) -> Self {
                match value {
                    Some(Value::Whole(WholeValue::Unsigned(n))) => <$t>::try_from(n).ok(),
                    Some(Value::Whole(WholeValue::Negative(n))) => <$t>::try_from(n).ok(),
                    _ => None,
                }
            }
            fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
                if let Some(n) = self {
                    push(out, name, n.to_string());
                }
            }
        }
    )*};
}
whole_param!(u32, u64, i64);

/// The [`ParamValue`] of an open enum and of its `Option` (used by
/// `open_enum!`).
macro_rules! open_enum_param {
    ($name:ident) => {
        impl $crate::request::params::ParamValue for $name {
            const KIND: $crate::request::params::Kind = $crate::request::params::Kind::Text;
            const REQUIRED: bool = true;
            fn from_value(value: Option<$crate::request::params::Value>) -> Self {
                match value {
                    Some($crate::request::params::Value::Text(text)) => Self::from(text),
                    _ => Self::default(),
                }
            }
            fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
                out.push((name.to_owned(), self.as_str().to_owned()));
            }
        }

        impl $crate::request::params::ParamValue for Option<$name> {
            const KIND: $crate::request::params::Kind = $crate::request::params::Kind::Text;
            const REQUIRED: bool = false;
            fn from_value(value: Option<$crate::request::params::Value>) -> Self {
                match value {
                    Some($crate::request::params::Value::Text(text)) => Some($name::from(text)),
                    _ => None,
                }
            }
            fn write(&self, name: &str, out: &mut Vec<(String, String)>) {
                if let Some(value) = self {
                    out.push((name.to_owned(), value.as_str().to_owned()));
                }
            }
        }
    };
}
pub(crate) use open_enum_param;

/// The parameters of `params` from `(key, value)` pairs, each read for its
/// kind; an unknown key, a value of the wrong kind or a missing required
/// parameter is an error naming the parameter. `unknown` says what to tell
/// about a key the table does not have.
pub fn read(
    params: &[Param],
    pairs: impl IntoIterator<Item = (String, Raw)>,
    unknown: impl Fn(&str) -> String,
) -> Result<Vec<Option<Value>>, Error> {
    let mut values: Vec<Option<Value>> = params.iter().map(|_| None).collect();
    for (key, raw) in pairs {
        let Some(at) = params.iter().position(|p| p.name == key) else {
            let message = unknown(&key);
            return Err(Error::invalid(key, message));
        };
        let value = params[at]
            .kind
            .read(raw)
            .map_err(|message| Error::invalid(key.clone(), message))?;
        if values[at].replace(value).is_some() {
            return Err(Error::invalid(key, "takes exactly one value"));
        }
    }
    for (param, value) in params.iter().zip(&values) {
        if param.required && value.is_none() {
            return Err(Error::invalid(param.name, "is required"));
        }
    }
    Ok(values)
}

/// The list of the wire names of `params`, for messages: `a, b, c`.
pub fn names(params: &[Param]) -> String {
    let mut out = String::new();
    for (i, param) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(param.name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const U32: Kind = <Option<u32> as ParamValue>::KIND;
    const I64: Kind = <Option<i64> as ParamValue>::KIND;

    fn whole(kind: Kind, raw: Raw) -> Option<WholeValue> {
        match kind.read(raw) {
            Ok(Value::Whole(w)) => Some(w),
            _ => None,
        }
    }

    #[test]
    fn whole_numbers_from_numbers_and_digits() {
        let text = |t: &str| Raw::Text(t.to_owned());
        assert_eq!(whole(U32, text(" +7 ")), Some(WholeValue::Unsigned(7)));
        assert_eq!(
            whole(U32, Raw::Number(25.0)),
            Some(WholeValue::Unsigned(25))
        );
        assert_eq!(
            whole(U32, text("99999999999999999999999999999")),
            Some(WholeValue::Unsigned(u64::from(u32::MAX)))
        );
        assert_eq!(whole(U32, Raw::Number(-0.0)), Some(WholeValue::Unsigned(0)));
        assert_eq!(whole(I64, text("-5")), Some(WholeValue::Negative(-5)));
        assert_eq!(
            whole(I64, text("-9223372036854775808")),
            Some(WholeValue::Negative(i64::MIN))
        );
        assert_eq!(whole(I64, text("-9223372036854775809")), None);
        for bad in ["-1", "", "2.5", "1e3", "0x10", "abc", "+", "--1"] {
            assert_eq!(whole(U32, text(bad)), None, "{bad}");
        }
        assert_eq!(whole(U32, Raw::Number(2.5)), None);
        assert_eq!(whole(U32, Raw::Flag(true)), None);
        let message = U32.read(text("many")).unwrap_err();
        assert_eq!(message, "must be a whole number from 0 to 4294967295");
    }

    #[test]
    fn reading_names_the_parameter() {
        let params = [
            Param {
                name: "id",
                kind: Kind::Text,
                required: true,
            },
            Param {
                name: "limit",
                kind: U32,
                required: false,
            },
        ];
        let unknown = |key: &str| format!("{key} is unknown");
        let read = |pairs: Vec<(&str, Raw)>| {
            read(
                &params,
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)),
                unknown,
            )
        };
        let values = read(vec![
            ("limit", Raw::Text("5".into())),
            ("id", Raw::Text("x".into())),
        ]);
        assert_eq!(
            values,
            Ok(vec![
                Some(Value::Text("x".into())),
                Some(Value::Whole(WholeValue::Unsigned(5)))
            ])
        );
        let err = read(vec![("limit", Raw::Number(1.0))]).unwrap_err();
        assert_eq!(
            (err.parameter(), err.to_string().contains("required")),
            (Some("id"), true)
        );
        let err = read(vec![("id", Raw::Number(1.0))]).unwrap_err();
        assert_eq!(err.parameter(), Some("id"));
        let err = read(vec![("x", Raw::Number(1.0))]).unwrap_err();
        assert_eq!(err.parameter(), Some("x"));
        assert_eq!(names(&params), "id, limit");
    }
}
