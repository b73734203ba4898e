//! `GET /profile/info` and `GET /profile/trades`.

use super::paging::{Window, list_meta, unavailable};
use super::respond::json;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::profiles::User;
use crate::error::ApiError;
use crate::query::{Query, label, platforms};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::capabilities::Capability;
use predmarket_core::models::PlatformId;
use predmarket_core::models::{
    ProfileInfo, ProfileInfoResponse, ProfileTradesPage, ProfileTradesResponse,
};
use predmarket_core::request::{GetProfileInfo, ListProfileTrades, Operation};

pub const DEFAULT_TRADES_LIMIT: u32 = 50;

/// `platform` and `user` (both required, and checked by the request);
/// the platform must have profiles and the user must exist there.
fn user<'a>(
    state: &'a SharedState,
    platform: &PlatformId,
    name: &str,
) -> Result<(&'static str, &'a User), ApiError> {
    let profiles = platforms(Capability::Profiles);
    let label = label(state, "platform", &Some(platform), &profiles)?
        .ok_or_else(|| ApiError::invalid("platform", "is required"))?;
    if state.faults.is_down(label) {
        return Err(unavailable(state, label));
    }
    // The generated users are kept per profile platform, in table order.
    let index = profiles.iter().position(|p| *p == label).unwrap_or(0) as u8;
    let user = state
        .data
        .profiles
        .find(index, name)
        .ok_or_else(|| ApiError::not_found("user", name))?;
    Ok((label, user))
}

pub async fn info(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<GetProfileInfo>,
) -> Result<Response, ApiError> {
    let include_metrics = r.include_metrics.unwrap_or(true);
    let (label, user) = user(&state, &r.platform, &r.user)?;
    let data = &state.data;
    let metrics = include_metrics.then(|| {
        let trades = data
            .profiles
            .trades(user, &data.catalog, data.options.seed, data.as_of());
        data.profiles.metrics(user, &trades)
    });
    Ok(json(&ProfileInfoResponse {
        success: None,
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
    Query(r): Query<ListProfileTrades>,
) -> Result<Response, ApiError> {
    let (label, user) = user(&state, &r.platform, &r.user)?;
    let scope = Scope::new(Operation::ListProfileTrades.name())
        .with("platform", Some(label))
        .with("user", Some(&user.user_id));
    let window = Window::read(
        &state,
        &scope,
        r.limit,
        (r.cursor.as_deref(), r.offset),
        DEFAULT_TRADES_LIMIT,
    )?;
    let data = &state.data;
    let all = data
        .profiles
        .trades(user, &data.catalog, data.options.seed, data.as_of());
    let (total, page) = window.take(all);
    Ok(json(&ProfileTradesResponse {
        success: None,
        data: ProfileTradesPage {
            trades: page,
            skipped: Vec::new(),
            pagination: Some(window.pagination(&state, &scope, total)),
        },
        meta: Some(list_meta(&state, &started, Some(&[label]))),
    }))
}
