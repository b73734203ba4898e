//! Whose origin a URL is, and where a `Location` points, as the transport
//! itself will read them. Transports follow no redirect (see
//! `Inner::follow`): the client follows those that stay on the service's
//! origin and refuses the others, so that the API key and the caller's
//! headers reach the configured origin only.
//!
//! Both answers come from a WHATWG URL parser, the one the transport's own
//! URL handling follows: the `url` crate natively (reqwest's), the JS
//! `URL` constructor on wasm (fetch's). A hand-written split would read
//! `http://evil\@good/` as a URL of `good`, where every such parser (and so
//! the request) goes to `evil`.

/// An absolute http(s) URL as the parser serializes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The URL to request: resolved, normalized, without userinfo (no
    /// credentials of a `Location` are sent) nor fragment.
    pub href: String,
    /// Its origin's serialization, `scheme://host[:port]`, the default
    /// port left out (the same text in both parsers).
    pub origin: String,
}

#[cfg(not(target_arch = "wasm32"))]
mod parser {
    use super::Target;

    fn target(mut url: url::Url) -> Option<Target> {
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        // Both fail only where a URL cannot have credentials at all.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        url.set_fragment(None);
        Some(Target {
            origin: url.origin().ascii_serialization(),
            href: url.into(),
        })
    }

    pub fn parse(url: &str) -> Option<Target> {
        target(url::Url::parse(url).ok()?)
    }

    pub fn resolve(base: &str, location: &str) -> Option<Target> {
        target(url::Url::parse(base).ok()?.join(location).ok()?)
    }
}

#[cfg(target_arch = "wasm32")]
mod parser {
    use super::Target;

    fn target(url: web_sys::Url) -> Option<Target> {
        let protocol = url.protocol();
        if protocol != "http:" && protocol != "https:" {
            return None;
        }
        url.set_username("");
        url.set_password("");
        url.set_hash("");
        Some(Target {
            origin: url.origin(),
            href: url.href(),
        })
    }

    pub fn parse(url: &str) -> Option<Target> {
        target(web_sys::Url::new(url).ok()?)
    }

    pub fn resolve(base: &str, location: &str) -> Option<Target> {
        target(web_sys::Url::new_with_base(location, base).ok()?)
    }
}

/// `url` as an absolute http(s) URL; `None` for anything else.
pub fn parse(url: &str) -> Option<Target> {
    parser::parse(url)
}

/// The http(s) URL a `Location` header points at, resolved against the URL
/// that answered with it; `None` when it is not one.
pub fn resolve(base: &str, location: &str) -> Option<Target> {
    parser::resolve(base, location)
}

/// A `Location` as an error may show it: at most 200 characters, and never
/// the key (a service may echo what it was sent).
pub fn shown(location: &str, api_key: &str) -> String {
    let redacted = if api_key.is_empty() {
        location.to_owned()
    } else {
        location.replace(api_key, "<redacted>")
    };
    let mut out: String = redacted.chars().take(200).collect();
    if redacted.chars().nth(200).is_some() {
        out.push('…');
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn origin(url: &str) -> Option<String> {
        parse(url).map(|t| t.origin)
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert_eq!(
            origin("http://127.0.0.1:8787/markets?x=1").as_deref(),
            Some("http://127.0.0.1:8787")
        );
        assert_eq!(
            origin("HTTPS://Api.Example.com/x"),
            origin("https://api.example.com:443/y")
        );
        assert_ne!(
            origin("https://api.example.com"),
            origin("https://evil.example.com")
        );
        assert_ne!(
            origin("http://api.example.com"),
            origin("https://api.example.com")
        );
        assert_ne!(origin("http://a.test:1"), origin("http://a.test:2"));
        assert_eq!(
            origin("https://user@a.test/").as_deref(),
            Some("https://a.test")
        );
        assert_eq!(origin("ftp://a.test/"), None);
    }

    /// The spellings a hand-written split reads as `good` while a WHATWG
    /// parser (and so the request) goes to `evil`.
    #[test]
    fn backslashes_and_userinfo_are_read_as_the_transport_reads_them() {
        let base = "http://good.test:1/v1/markets?limit=5";
        for location in [
            "http://evil.test\\@good.test:1/",
            "http://evil.test:1\\@good.test:1/",
            "/\\evil.test/",
            "\\\\evil.test\\x",
            "http:\\\\evil.test/",
            "//evil.test\\@good.test:1/",
            "http://good.test:1@evil.test/",
            "http://good.test:1%40@evil.test/",
            "\thttp://ev\nil.test/",
            "HTTP://EVIL.TEST/",
        ] {
            let target = resolve(base, location).expect(location);
            assert!(
                target.origin.starts_with("http://evil.test"),
                "{location:?} → {target:?}"
            );
        }
    }

    #[test]
    fn locations_resolve_against_the_answering_url() {
        let base = "http://a.test:1/v1/markets?limit=5";
        let href = |location: &str| resolve(base, location).map(|t| t.href);
        assert_eq!(
            href("https://b.test/x").as_deref(),
            Some("https://b.test/x")
        );
        assert_eq!(href("//b.test/x").as_deref(), Some("http://b.test/x"));
        assert_eq!(
            href("/markets?limit=5").as_deref(),
            Some("http://a.test:1/markets?limit=5")
        );
        assert_eq!(href("other").as_deref(), Some("http://a.test:1/v1/other"));
        assert_eq!(
            href("../x/./y#frag").as_deref(),
            Some("http://a.test:1/x/y"),
            "dot segments resolved, fragment dropped"
        );
        assert_eq!(
            href("http://u:p@a.test:1/z").as_deref(),
            Some("http://a.test:1/z"),
            "no credentials are sent"
        );
        assert_eq!(href("javascript:alert(1)"), None);
        assert_eq!(href("file:///etc/passwd"), None);
        assert_eq!(href("http://[::1"), None);
    }

    #[test]
    fn a_shown_location_is_bounded_and_never_holds_the_key() {
        assert_eq!(
            shown("http://e.test/?k=pm_key", "pm_key"),
            "http://e.test/?k=<redacted>"
        );
        let long = format!("http://e.test/{}", "a".repeat(500));
        assert_eq!(shown(&long, "k").chars().count(), 201);
    }
}
