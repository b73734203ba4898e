//! Proxy mode composed: the command line's settings turned into the
//! proxy's state (`proxy::start`) and the router around its operations
//! (the OpenAPI document, the demo, the layers every answer passes), beside
//! local mode in `lib.rs`.

use crate::access_log::{self, AccessLog};
use crate::auth::Keys;
use crate::config::Config;
use crate::front::Front;
use crate::proxy::upstream::UpstreamKey;
use crate::proxy::{self, ProxyState};
use crate::{error, headers, listen, openapi, routes};
use axum::Router;
use axum::response::Response;
use axum::routing::get;
use bytes::Bytes;
use serde_json::{Value, json};
use std::sync::Arc;

/// A built proxy: its router, the router of `/metrics` (served on its own
/// address), and, for tests, its state.
pub struct Proxy {
    pub router: Router,
    /// The front service of its fresh hits (`proxy::fresh`), sharing the
    /// router's in-flight cap; `None` with `--public-proxy` or
    /// `--router-only`.
    pub front: Option<Arc<Front>>,
    pub metrics: Router,
    pub state: Arc<ProxyState>,
    /// The streams' pollers (`GET /stream`).
    pub hub: Arc<crate::stream::Hub>,
    /// With `--record`: what records the pollers' answers.
    pub recorder: Option<Arc<crate::record::Recorder>>,
}

/// Checks the proxy's options and builds it (connecting to Redis). Every
/// error is a sentence for the operator, without any key in it.
pub async fn build(config: &Config) -> Result<Proxy, String> {
    let args = &config.proxy;
    // The upstream first, then the visitors' keys: the order of the errors
    // an operator meets.
    args.upstream
        .as_deref()
        .ok_or("proxy mode needs --upstream URL")?;
    let upstream_key = UpstreamKey::load(args.upstream_key_file.as_deref())?;
    let keys = if args.public_proxy {
        if !config.api_key.is_empty() || config.api_key_file.is_some() {
            return Err(
                "--public-proxy lets every visitor in; it cannot be combined with --api-key \
                 or --api-key-file"
                    .into(),
            );
        }
        None
    } else {
        if config.demo_key_active() {
            return Err(
                "proxy mode needs keys for its visitors (--api-key or --api-key-file), \
                 or --public-proxy to let visitors in without one; the public demo key \
                 is not accepted in front of a real upstream"
                    .into(),
            );
        }
        let specs = config.key_specs()?;
        Some(Keys::new(&specs, config.max_in_flight_per_key))
    };
    let state = proxy::start(proxy::Settings {
        args,
        upstream_key,
        keys,
        request_timeout_secs: config.request_timeout_secs,
        log_requests: !config.quiet,
    })
    .await?;
    let settings = config.stream();
    // Where the streams' events are kept: Redis, shared by the replicas,
    // or this process.
    let broker: Arc<dyn crate::stream::broker::Broker> = match &args.redis {
        Some(url) => {
            crate::stream::broker::redis::Redis::connect(
                url,
                state.upstream_base(),
                settings.limits(),
            )
            .await?
        }
        None => settings.local_broker(),
    };
    let door = crate::stream::admission::Door {
        visitors: state.visitors(),
        origins: config.cors_origins.clone(),
    };
    let recorder = match config.record.settings() {
        Some(settings) => {
            let dir = settings.dir.display().to_string();
            Some(
                crate::record::Recorder::start(settings, config.stream.interval_scale)
                    .map_err(|e| format!("--record {dir}: {e}"))?,
            )
        }
        None => None,
    };
    let source = crate::record::source::wrap(
        Arc::new(crate::stream::source::Proxied {
            state: state.clone(),
        }),
        recorder.as_ref(),
    );
    let hub = crate::stream::Hub::start(source, settings, broker, door);
    let streams = hub.clone();
    let recorded = recorder.clone();
    let render = move |out: &mut String| {
        streams.render_metrics(out);
        if let Some(recorder) = &recorded {
            recorder.render_metrics(out);
        }
    };
    let in_flight = crate::guard::InFlightLayer::new(config.max_in_flight);
    let front = proxy::fresh::FreshHits::new(&state)
        .filter(|_| !config.router_only)
        .map(|hits| {
            Arc::new(Front::new(
                Arc::new(hits),
                &config.layers(),
                in_flight.clone(),
                state.log(),
            ))
        });
    Ok(Proxy {
        router: router(
            &state,
            &hub,
            config,
            state.log(),
            recorder.as_ref(),
            in_flight,
        ),
        front,
        metrics: proxy::metrics_router(&state, Arc::new(render)),
        state,
        hub,
        recorder,
    })
}

fn router(
    state: &Arc<ProxyState>,
    hub: &Arc<crate::stream::Hub>,
    config: &Config,
    log: Arc<AccessLog>,
    recorder: Option<&Arc<crate::record::Recorder>>,
    in_flight: crate::guard::InFlightLayer,
) -> Router {
    // As on the local server, the OpenAPI document needs no key. It is the
    // proxy's own: it serves the same operations, and the public service
    // documents none of its own.
    let recording = recorder.is_some();
    let public = Router::new().route("/openapi.json", get(move || own_openapi(recording)));
    let streams = proxy::behind_visitor_key(
        state,
        Router::new()
            .route(predmarket_core::live::PATH, get(crate::stream::open))
            .with_state(hub.clone()),
    );
    let mut app = proxy::operations(state).merge(public).merge(streams);
    if let Some(recorder) = recorder {
        app = app.merge(crate::record::history::proxied(
            state,
            recorder.dir().to_owned(),
        ));
    }
    if let Some(dir) = &config.web {
        let policy = Arc::new(headers::WebPolicy::new(dir));
        app = app.merge(
            routes::web(dir).layer(axum::middleware::from_fn_with_state(policy, headers::apply)),
        );
    }
    let app = app
        .fallback(error::not_found_fallback)
        .method_not_allowed_fallback(error::method_not_allowed_fallback);
    let answers = Arc::new(crate::encoding::Answers::new(crate::encoding::MAX_BYTES));
    access_log::wrap(
        crate::layers::wrap_sharing(app, &config.layers(), answers, in_flight),
        log,
    )
}

/// The reference server's document, minus the examples drawn from local
/// data (a proxy has none), with what the proxy adds to every answer;
/// `x-history` when it records.
async fn own_openapi(recording: bool) -> Response {
    static DOCUMENTS: [std::sync::OnceLock<Bytes>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let bytes = DOCUMENTS[usize::from(recording)].get_or_init(|| {
        let mut doc = openapi::document();
        if recording {
            crate::record::history::describe_in(&mut doc);
        }
        if let Some(info) = doc.get_mut("info").and_then(Value::as_object_mut) {
            info.insert("title".into(), json!("predmarket service (caching proxy)"));
            let text = info
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let text = format!(
                "Served by predmarket-server in proxy mode: every operation is answered from \
                 an upstream service through a cache. `X-Cache` says how (HIT, MISS, UPDATING, \
                 STALE, PASS, ERROR); a stale answer served because the upstream failed has \
                 `meta.stale: true` and `meta.stale_age_seconds`.\n\n{text}"
            );
            info.insert("description".into(), Value::from(text));
        }
        open_parameter_sets(&mut doc);
        Bytes::from(serde_json::to_vec(&doc).unwrap_or_default())
    });
    routes::respond::bytes_response(bytes.to_vec())
}

/// Drops the `enum` of every parameter: the reference server lists the
/// values it accepts (its platform and league ids among them), while which
/// values a proxy accepts is the upstream's call, and the public service's
/// ids are not the spec's labels.
fn open_parameter_sets(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for operation in paths.values_mut().filter_map(|p| p.get_mut("get")) {
        let Some(parameters) = operation
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for parameter in parameters {
            let dropped = parameter
                .get_mut("schema")
                .and_then(Value::as_object_mut)
                .and_then(|schema| schema.remove("enum"));
            if dropped.is_some()
                && let Some(text) = parameter.get("description").and_then(Value::as_str)
            {
                let text = format!("{text} Which values are accepted is the upstream's call.");
                parameter["description"] = Value::from(text);
            }
        }
    }
}

/// Runs the proxy until Ctrl-C / SIGTERM (`serve` of proxy mode).
pub async fn serve(config: Config) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    config.validate().map_err(invalid)?;
    let proxy = build(&config).await.map_err(invalid)?;
    let listeners = crate::runtimes::bind(config.addr, crate::runtimes::count())?;
    let addr = listeners[0].local_addr()?;
    tracing::info!(
        "predmarket-server proxy listening on http://{addr}, upstream {} ({} requests per minute{}{})",
        proxy.state.upstream_base(),
        config.proxy.upstream_limit,
        if config.proxy.redis.is_some() {
            ", budget, cache and stream pollers shared through Redis"
        } else {
            ""
        },
        if config.proxy.public_proxy {
            ", visitors need no key"
        } else {
            ""
        },
    );
    crate::runtimes::log(&listeners);
    if let Some(dir) = &config.web {
        tracing::info!(
            "serving the demo from {} at http://{addr}/app/",
            dir.display()
        );
    }
    let limits = config.connection_limits();
    // Ended with the proxy (aborted on drop).
    let _metrics = match config.proxy.metrics_addr().map_err(invalid)? {
        Some(metrics_addr) => {
            let listener = tokio::net::TcpListener::bind(metrics_addr).await?;
            let metrics_addr = listener.local_addr()?;
            tracing::info!("proxy metrics on http://{metrics_addr}/metrics");
            if !metrics_addr.ip().is_loopback() {
                tracing::warn!(
                    "--metrics-addr {metrics_addr} is reachable beyond this machine: \
                     /metrics tells when the upstream budget is low"
                );
            }
            Some(proxy::AbortOnDrop(tokio::spawn(async move {
                let _ =
                    listen::serve(listener, proxy.metrics, limits, std::future::pending()).await;
            })))
        }
        None => None,
    };
    let served = crate::front::Served {
        router: proxy.router,
        front: proxy.front,
    };
    crate::runtimes::serve(listeners, served, limits, listen::shutdown_signal()).await?;
    if let Some(recorder) = &proxy.recorder {
        recorder.flush(crate::record::FLUSH_PATIENCE);
    }
    tracing::info!("predmarket-server stopped");
    Ok(())
}
