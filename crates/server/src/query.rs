//! The parameters of an operation, read with its declaration in core
//! (`predmarket_core::request`): the names, types, caps and structural
//! checks the server reads by are the ones the client sends by, so the two
//! cannot drift. Parameters the operation does not declare are ignored, as
//! the public service does; a repeated one is a 400 (`platform` and every
//! other parameter take exactly one value).
//!
//! What only a strict server refuses (a value outside the known set, a
//! platform without the operation's capability) is checked by the
//! handlers with [`known`] and [`label`], since the core leaves open sets
//! open on purpose (`docs/spec/public-service-facts.md`).

use crate::error::ApiError;
use crate::state::SharedState;
use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use predmarket_core::capabilities::{Capability, PLATFORM_CAPABILITIES};
use predmarket_core::request::Request;
use serde_json::json;

/// The checked request of operation `R`: path and query parameters read
/// by `R`'s `Deserialize`, then `R::checked` (limits capped, blank text
/// and empty cursors dropped).
#[derive(Debug)]
pub struct Query<R>(pub R);

impl<S: Send + Sync, R: Request + Send> FromRequestParts<S> for Query<R> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let raw = if R::PATH_PARAMS.is_empty() {
            None
        } else {
            Some(
                RawPathParams::from_request_parts(parts, state)
                    .await
                    .map_err(|_| path_error(R::PATH_PARAMS))?,
            )
        };
        let path: Vec<(&str, &str)> = raw.iter().flat_map(|r| r.iter()).collect();
        if let Some((name, _)) = path.iter().find(|(_, v)| v.trim().is_empty()) {
            return Err(ApiError::invalid(name, "must not be empty"));
        }
        read(&path, parts.uri.query().unwrap_or("")).map(Query)
    }
}

/// Operation `R` read from its path parameters and query, and checked:
/// the one reading of a request, for the extractor and for the front
/// service of kept answers (`front`).
pub fn read<R: Request>(path: &[(&str, &str)], query: &str) -> Result<R, ApiError> {
    R::from_query(path, query)
        .and_then(|request| request.checked())
        .map_err(invalid)
}

fn path_error(names: &[&str]) -> ApiError {
    ApiError::invalid(
        names.first().copied().unwrap_or("id"),
        "must be percent-encoded UTF-8",
    )
}

/// A check of the core as the 400 that names its parameter.
pub(crate) fn invalid(error: predmarket_core::Error) -> ApiError {
    match error {
        predmarket_core::Error::InvalidArgument { parameter, message } => {
            ApiError::invalid(&parameter, message)
        }
        other => ApiError::invalid("params", other.to_string()),
    }
}

/// A value of an open set that this server must know: `allowed` are its
/// values (wire spelling); anything else is a 400 listing them.
pub fn known<'a, T: AsRef<str>>(
    name: &str,
    value: &'a Option<T>,
    allowed: &[&str],
) -> Result<Option<&'a str>, ApiError> {
    match value.as_ref().map(AsRef::as_ref) {
        Some(v) if !allowed.contains(&v) => {
            let reason = format!("must be one of {}", allowed.join(", "));
            Err(ApiError::invalid(name, reason.clone()).with_details(json!({
                "parameter": name,
                "reason": reason,
                "allowed": allowed,
            })))
        }
        value => Ok(value),
    }
}

/// The label of the platform or league a parameter names by its wire id,
/// refused unless it is one of the labels `allowed`.
pub fn label<T: AsRef<str>>(
    state: &SharedState,
    name: &str,
    value: &Option<T>,
    allowed: &[&'static str],
) -> Result<Option<&'static str>, ApiError> {
    // No parameter, nothing to check: the lists' hot path builds no table.
    if value.is_none() {
        return Ok(None);
    }
    let names = state.data.options.names;
    let Some(wire) = known(name, value, &names.wires(allowed))? else {
        return Ok(None);
    };
    Ok(allowed.iter().copied().find(|l| names.wire(l) == wire))
}

/// The platform labels that have `capability`, in the core's table order.
pub fn platforms(capability: Capability) -> Vec<&'static str> {
    PLATFORM_CAPABILITIES
        .iter()
        .filter(|p| p.has(capability))
        .map(|p| p.platform)
        .collect()
}

/// The one platform a request names (its label), if it has `capability`;
/// a platform that is down answers 503.
pub fn platform<T: AsRef<str>>(
    state: &SharedState,
    value: &Option<T>,
    capability: Capability,
) -> Result<Option<&'static str>, ApiError> {
    if value.is_none() {
        return Ok(None);
    }
    let platform = label(state, "platform", value, &platforms(capability))?;
    if let Some(p) = platform
        && state.faults.is_down(p)
    {
        return Err(crate::routes::paging::unavailable(state, p));
    }
    Ok(platform)
}
