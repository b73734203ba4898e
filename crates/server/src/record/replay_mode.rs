//! Replay mode composed: `--replay DIR [--at TIME] [--speed N]` serves
//! the watched resources' operations (a book, a market, a game, a future,
//! an award by id) from an archive at the replay clock, and `/stream`
//! over them through the very hub the live server uses, so a recorded
//! gap reaches viewers as `stale`, and `/history` over the archive (at
//! the replay clock). The operations the recorder does not keep (lists,
//! searches, trades, price bars) answer a JSON 404 naming what the
//! archive lacks (`unrecorded`); the OpenAPI document and the demo are
//! served as on the live server.

use super::replay::{Moment, Replayed, Timeline};
use crate::auth::{self, Keys};
use crate::config::Config;
use crate::error::ApiError;
use crate::{listen, stream};
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use predmarket_core::ErrorCode;
use predmarket_core::change::WatchKind;
use std::sync::Arc;

/// The header a replayed answer read inside a recorded gap carries: how
/// long (ms) the gap lasted.
pub const GAP_HEADER: &str = "x-replay-gap-ms";

#[derive(Clone)]
struct Served {
    replayed: Arc<Replayed>,
    kind: WatchKind,
}

/// The replay's router over `replayed`, behind `config`'s keys.
pub fn router(config: &Config, replayed: Arc<Replayed>, dir: &std::path::Path) -> Router {
    let keys = Arc::new(Keys::new(
        &config.key_specs().unwrap_or_default(),
        config.max_in_flight_per_key,
    ));
    let mut app = Router::new();
    for kind in WatchKind::ALL {
        let served = Served {
            replayed: replayed.clone(),
            kind,
        };
        app = app.route(kind.operation().path(), get(answer).with_state(served));
    }
    let replayed_clock = replayed.clock.clone();
    let settings = config.stream();
    let broker = settings.local_broker();
    let hub = stream::Hub::start(
        replayed,
        settings,
        broker,
        stream::admission::Door::default(),
    );
    let app = app
        .route(
            predmarket_core::live::PATH,
            get(stream::open).with_state(hub),
        )
        .merge(super::unrecorded::router())
        .merge(super::history::router_at(
            dir.to_owned(),
            super::history::Now::Replay(replayed_clock),
        ))
        .fallback(|| async {
            ApiError::new(
                ErrorCode::NotFound,
                "this archive holds no answers of this operation",
            )
        })
        .layer(axum::middleware::from_fn_with_state(keys, key_check));
    // As on the live server, the document and the demo need no key.
    let mut app = app.route("/openapi.json", get(document));
    if let Some(web) = &config.web {
        let policy = Arc::new(crate::headers::WebPolicy::new(web));
        app = app.merge(
            crate::routes::web(web).layer(axum::middleware::from_fn_with_state(
                policy,
                crate::headers::apply,
            )),
        );
    }
    crate::layers::wrap(app, &config.layers())
}

/// The reference server's document with `x-history`: what a reader needs
/// to learn that this server keeps history.
async fn document() -> Response {
    static DOCUMENT: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let bytes = DOCUMENT.get_or_init(|| {
        let mut doc = crate::openapi::document();
        super::history::describe_in(&mut doc);
        serde_json::to_vec(&doc).unwrap_or_default()
    });
    crate::routes::respond::bytes_response(bytes.clone())
}

async fn key_check(State(keys): State<Arc<Keys>>, request: Request, next: Next) -> Response {
    auth::check(&keys, request, |request| next.run(request)).await
}

/// A resource's answer at the replay clock, as recorded; inside a gap the
/// last answer before it, with `GAP_HEADER`.
async fn answer(State(served): State<Served>, Path(id): Path<String>) -> Response {
    let now = served.replayed.clock.now_ms();
    match served.replayed.timeline.at(served.kind, &id, now) {
        Moment::Unknown | Moment::Before => {
            ApiError::not_found(served.kind.name(), &id).into_response()
        }
        Moment::Known { row, gap_ms } => {
            let mut response = (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                row.answer.clone(),
            )
                .into_response();
            if let Some(ms) = gap_ms {
                response
                    .headers_mut()
                    .insert(GAP_HEADER, HeaderValue::from(ms));
            }
            response
        }
    }
}

/// Loads the archive and serves it until Ctrl-C / SIGTERM.
pub async fn serve(config: Config) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    config.validate().map_err(invalid)?;
    let Some(dir) = &config.replay.dir else {
        return Err(invalid("replay mode needs --replay DIR".into()));
    };
    let timeline = Timeline::load(dir).map_err(|e| invalid(e.to_string()))?;
    let clock = config.replay.clock(&timeline).map_err(invalid)?;
    tracing::info!(
        "replaying {} answers from {} at {}, {}× as fast as recorded",
        timeline.len(),
        dir.display(),
        predmarket_core::time::format_rfc3339(clock.now_ms()),
        config.replay.speed
    );
    let replayed = Arc::new(Replayed {
        timeline: Arc::new(timeline),
        clock,
    });
    let listeners = crate::runtimes::bind(config.addr, crate::runtimes::count())?;
    tracing::info!(
        "predmarket-server replay listening on http://{}",
        listeners[0].local_addr()?
    );
    crate::runtimes::log(&listeners);
    crate::runtimes::serve(
        listeners,
        router(&config, replayed, dir),
        config.connection_limits(),
        listen::shutdown_signal(),
    )
    .await?;
    tracing::info!("predmarket-server stopped");
    Ok(())
}
