//! Query-string parsing with the service's rules and JSON errors.
//!
//! Parsed by hand rather than with axum's `Query` so that every malformed
//! parameter is a 400 `VALIDATION_ERROR` naming the parameter, repeated
//! parameters are refused (the platform takes exactly one value), and
//! parameters the operation does not know are ignored like the public
//! service does.

use crate::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde_json::json;

#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        Ok(Self::parse(parts.uri.query().unwrap_or("")))
    }
}

/// The one path parameter of an operation (`{id}`, `{game_id}`), with a
/// JSON 400 instead of axum's plain-text rejection.
#[derive(Debug)]
pub struct Id(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<String>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(id)) if !id.trim().is_empty() => Ok(Self(id)),
            Ok(_) => Err(ApiError::invalid("id", "must not be empty")),
            Err(_) => Err(ApiError::invalid("id", "must be percent-encoded UTF-8")),
        }
    }
}

/// What a `limit` parameter turned into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub applied: u32,
    /// The requested value was above the maximum and was capped.
    pub capped: bool,
}

impl Params {
    pub fn parse(query: &str) -> Self {
        Self {
            pairs: form_urlencoded::parse(query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        }
    }

    /// The raw value of `name`; refuses a repeated parameter.
    pub fn raw(&self, name: &str) -> Result<Option<&str>, ApiError> {
        let mut values = self.pairs.iter().filter(|(k, _)| k == name);
        let first = values.next();
        if values.next().is_some() {
            return Err(ApiError::invalid(
                name,
                "given more than once; send one value",
            ));
        }
        Ok(first.map(|(_, v)| v.as_str()))
    }

    /// A string parameter; empty counts as absent.
    pub fn text(&self, name: &str) -> Result<Option<String>, ApiError> {
        Ok(self
            .raw(name)?
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned))
    }

    /// A typed parameter (enum, flag, number, date): present but empty is
    /// refused rather than read as absent, as its schema says.
    pub fn typed(&self, name: &str) -> Result<Option<String>, ApiError> {
        match self.raw(name)? {
            None => Ok(None),
            Some(v) if v.trim().is_empty() => Err(ApiError::invalid(name, "must not be empty")),
            Some(v) => Ok(Some(v.trim().to_owned())),
        }
    }

    pub fn required(&self, name: &str) -> Result<String, ApiError> {
        self.text(name)?
            .ok_or_else(|| ApiError::invalid(name, "is required"))
    }

    /// `limit`: a positive integer; above `max` it is capped, not refused.
    pub fn limit(&self, default: u32, max: u32) -> Result<Limit, ApiError> {
        let Some(raw) = self.raw("limit")? else {
            return Ok(Limit {
                applied: default.min(max),
                capped: false,
            });
        };
        let value = raw.trim();
        let digits = value.strip_prefix('+').unwrap_or(value);
        let requested: u64 = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            // Too many digits for u64 is still "a number above the maximum".
            digits.parse().unwrap_or(u64::MAX)
        } else if value.starts_with('-') && value[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Err(limit_error(
                max,
                "must be a positive integer; negative values are not allowed",
            ));
        } else {
            return Err(limit_error(max, "must be a positive integer"));
        };
        if requested == 0 {
            return Err(limit_error(max, "must be at least 1"));
        }
        Ok(Limit {
            applied: requested.min(u64::from(max)) as u32,
            capped: requested > u64::from(max),
        })
    }

    /// `true` / `false` (any case).
    pub fn flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.typed(name)? {
            None => Ok(None),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(_) => Err(
                ApiError::invalid(name, "must be `true` or `false`").with_details(json!({
                    "parameter": name,
                    "reason": "must be `true` or `false`",
                    "allowed": ["true", "false"],
                })),
            ),
        }
    }

    /// One of `allowed`.
    pub fn one_of(&self, name: &str, allowed: &[&str]) -> Result<Option<String>, ApiError> {
        let Some(value) = self.typed(name)? else {
            return Ok(None);
        };
        if allowed.contains(&value.as_str()) {
            return Ok(Some(value));
        }
        let reason = if value.contains(',') {
            "takes exactly one value; comma-separated lists are not supported".to_owned()
        } else {
            format!("must be one of {}", allowed.join(", "))
        };
        Err(ApiError::invalid(name, reason.clone()).with_details(json!({
            "parameter": name,
            "reason": reason,
            "allowed": allowed,
        })))
    }

    /// An integer within `min..=max`.
    pub fn integer(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
        let Some(value) = self.typed(name)? else {
            return Ok(None);
        };
        match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::invalid(
                name,
                format!("must be an integer from {min} to {max}"),
            )),
        }
    }

    pub fn cursor(&self) -> Result<Option<String>, ApiError> {
        self.text("cursor")
    }
}

fn limit_error(max: u32, reason: &str) -> ApiError {
    ApiError::invalid("limit", reason).with_details(json!({
        "parameter": "limit",
        "reason": reason,
        "minimum": 1,
        "maximum": max,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(query: &str) -> Result<Limit, ApiError> {
        Params::parse(query).limit(25, 250)
    }

    #[test]
    fn limits() {
        assert_eq!(limit("").unwrap().applied, 25);
        assert_eq!(limit("limit=7").unwrap().applied, 7);
        assert_eq!(
            limit("limit=1000").unwrap(),
            Limit {
                applied: 250,
                capped: true
            }
        );
        assert_eq!(limit("limit=99999999999999999999999").unwrap().applied, 250);
        for bad in [
            "limit=0",
            "limit=-1",
            "limit=abc",
            "limit=",
            "limit=1.5",
            "limit=2e3",
        ] {
            let err = limit(bad).unwrap_err();
            assert_eq!(
                err.code,
                predmarket_core::ErrorCode::ValidationError,
                "{bad}"
            );
            assert_eq!(err.details.as_ref().unwrap()["parameter"], "limit");
        }
        assert!(limit("limit=1&limit=2").is_err());
    }

    #[test]
    fn platform_lists_are_refused() {
        let params = Params::parse("platform=platform_a%2Cplatform_b");
        let err = params
            .one_of("platform", &["platform_a", "platform_b"])
            .unwrap_err();
        assert!(err.message.contains("comma"), "{}", err.message);
    }

    #[test]
    fn flags() {
        assert_eq!(Params::parse("x=TRUE").flag("x").unwrap(), Some(true));
        assert_eq!(Params::parse("").flag("x").unwrap(), None);
        assert!(Params::parse("x=").flag("x").is_err());
        assert!(Params::parse("p=").one_of("p", &["a"]).is_err());
        assert_eq!(Params::parse("q=").text("q").unwrap(), None);
        assert!(Params::parse("x=yes").flag("x").is_err());
    }
}
