//! Response headers of the demo under `/app/`: a Content
//! Security Policy the Leptos app works with, `nosniff`, a referrer policy,
//! and caching that suits Trunk's output (hashed file names are immutable,
//! everything else is revalidated). API answers get `no-store` in `layers.rs`.

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;

/// Hashed assets never change under their name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `index.html` (and every client-side route that falls back to it) names
/// the current hashed assets, so it is revalidated on every load.
pub const REVALIDATE: &str = "no-cache";
pub const REFERRER_POLICY: &str = "no-referrer";

/// The headers of the demo, computed once from its `index.html`.
pub struct WebPolicy {
    csp: HeaderValue,
}

impl WebPolicy {
    /// Reads `dir/index.html` for the inline scripts Trunk writes (the
    /// module that starts the wasm) and allows exactly those by hash.
    pub fn new(dir: &Path) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).unwrap_or_default();
        let csp = content_security_policy(&index);
        Self {
            // Hashes and keywords are ASCII; the fallback is never used.
            csp: HeaderValue::from_str(&csp)
                .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'")),
        }
    }
}

/// The policy for a Trunk-built Leptos app:
/// - `script-src`: own files, `'wasm-unsafe-eval'` to compile the wasm
///   module, and the sha256 of each inline script of `index_html`; no
///   `'unsafe-inline'`, so injected markup cannot run script.
/// - `style-src 'unsafe-inline'`: Leptos sets `style` attributes (the
///   orderbook bars).
/// - `connect-src http: https:`: the settings page lets the user point the
///   demo at another API server (the public service or a local one).
/// - `img-src data: http: https:`: the empty favicon, and the pictures
///   the service points to (market images, avatars), which live on the
///   platforms' own hosts; the demo loads them without a referrer.
pub fn content_security_policy(index_html: &str) -> String {
    let hashes: Vec<String> = inline_scripts(index_html)
        .map(|script| {
            let digest = Sha256::digest(script.as_bytes());
            format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{}; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: http: https:; \
         connect-src 'self' http: https:; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'",
        hashes.concat()
    )
}

/// The text of every `<script>` without `src`.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let open = rest.find("<script")?;
            let after_tag = rest[open..].find('>')? + open;
            let tag = &rest[open..after_tag];
            let close = rest[after_tag..].find("</script>")? + after_tag;
            let body = &rest[after_tag + 1..close];
            rest = &rest[close + "</script>".len()..];
            if !tag.contains("src=") {
                return Some(body);
            }
        }
    })
}

/// Whether the last path segment is a Trunk output name with a content hash:
/// `name-<hex>.ext` or `name-<hex>_bg.wasm`.
pub fn is_hashed_asset(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let Some(dash) = name.rfind('-') else {
        return false;
    };
    let tail = &name[dash + 1..];
    let hash_len = tail
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(tail.len());
    let rest = &tail[hash_len..];
    (8..=16).contains(&hash_len) && (rest.starts_with('.') || rest.starts_with("_bg."))
}

/// Sets the demo's headers on every answer under the web router.
pub async fn apply(State(policy): State<Arc<WebPolicy>>, request: Request, next: Next) -> Response {
    let hashed = is_hashed_asset(request.uri().path());
    let mut response = next.run(request).await;
    let ok = response.status().is_success();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, policy.csp.clone());
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static(REFERRER_POLICY),
    );
    headers.insert(
        HeaderName::from_static("x-frame-options"),
        HeaderValue::from_static("DENY"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if hashed && ok { IMMUTABLE } else { REVALIDATE }),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names() {
        assert!(is_hashed_asset(
            "/app/predmarket-web-3f2a9c1b7d8e0f12_bg.wasm"
        ));
        assert!(is_hashed_asset("/app/predmarket-web-3f2a9c1b7d8e0f12.js"));
        assert!(is_hashed_asset("/app/style-a1b2c3d4e5f60718.css"));
        assert!(!is_hashed_asset("/app/index.html"));
        assert!(!is_hashed_asset("/app/"));
        assert!(!is_hashed_asset("/app/markets"));
        assert!(!is_hashed_asset("/app/predmarket-web.js"));
        assert!(!is_hashed_asset("/app/events/ev-12"));
    }

    #[test]
    fn inline_scripts_are_allowed_by_hash_only() {
        let html = r#"<head><script type="module" src="/app/a-1234567890abcdef.js"></script>
<script type="module">import init from '/app/x.js';await init();</script></head>"#;
        let csp = content_security_policy(html);
        let digest = Sha256::digest(b"import init from '/app/x.js';await init();");
        let expected = base64::engine::general_purpose::STANDARD.encode(digest);
        assert!(csp.contains(&format!("'sha256-{expected}'")), "{csp}");
        assert_eq!(csp.matches("'sha256-").count(), 1, "{csp}");
        assert!(csp.contains("'wasm-unsafe-eval'"));
        assert!(!csp.contains("script-src 'self' 'unsafe-inline'"));
    }
}
