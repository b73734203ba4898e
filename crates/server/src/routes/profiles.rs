//! `GET /profile/info` and `GET /profile/trades`.

use super::json;
use super::paging::{Window, list_meta, one_label, unavailable};
use crate::SharedState;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::platforms::PROFILES;
use crate::data::profiles::User;
use crate::error::ApiError;
use crate::params::Params;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::models::{
    ProfileInfo, ProfileInfoResponse, ProfileTradesPage, ProfileTradesResponse,
};
use predmarket_core::request::{PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS};

pub const DEFAULT_TRADES_LIMIT: u32 = 50;

/// `platform` and `user`, both required; the user must exist there.
fn user<'a>(state: &'a SharedState, params: &Params) -> Result<(&'static str, &'a User), ApiError> {
    let platform = one_label(state, params, "platform", &PROFILES)?
        .ok_or_else(|| ApiError::invalid("platform", "is required"))?;
    let label = PROFILES
        .iter()
        .copied()
        .find(|p| *p == platform)
        .unwrap_or(PROFILES[0]);
    let name = params.required("user")?;
    if name.chars().count() > PROFILE_USER_MAX_CHARS {
        return Err(ApiError::invalid(
            "user",
            format!("must be 1 to {PROFILE_USER_MAX_CHARS} characters"),
        ));
    }
    if state.faults.is_down(label) {
        return Err(unavailable(state, label));
    }
    let index = if label == PROFILES[0] { 0 } else { 1 };
    let user = state
        .data
        .profiles
        .find(index, &name)
        .ok_or_else(|| ApiError::not_found("user", &name))?;
    Ok((label, user))
}

pub async fn info(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let include_metrics = params.flag("include_metrics")?.unwrap_or(true);
    let (label, user) = user(&state, &params)?;
    let data = &state.data;
    let metrics = include_metrics.then(|| {
        let trades = data
            .profiles
            .trades(user, &data.catalog, data.options.seed, data.as_of());
        data.profiles.metrics(user, &trades)
    });
    Ok(json(&ProfileInfoResponse {
        data: ProfileInfo {
            profile: Some(data.profiles.profile(user)),
            metrics,
        },
        meta: Some(list_meta(&state, &started, Some(&[label]))),
    }))
}

pub async fn trades(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let (label, user) = user(&state, &params)?;
    let scope = Scope::new("listProfileTrades")
        .with("platform", Some(label))
        .with("user", Some(&user.user_id));
    let window = Window::read(
        &state,
        &params,
        &scope,
        DEFAULT_TRADES_LIMIT,
        PROFILE_TRADES_MAX_LIMIT,
    )?;
    let data = &state.data;
    let all = data
        .profiles
        .trades(user, &data.catalog, data.options.seed, data.as_of());
    let (total, page) = window.take(all);
    Ok(json(&ProfileTradesResponse {
        data: ProfileTradesPage {
            trades: page,
            skipped: Vec::new(),
            pagination: Some(window.pagination(&state, &scope, total)),
        },
        meta: Some(list_meta(&state, &started, Some(&[label]))),
    }))
}
