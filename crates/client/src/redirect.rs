//! The little URL handling redirects need: whose origin a URL is, and where
//! a `Location` points. Transports follow no redirect themselves (see
//! `Inner::follow`), so that the API key reaches the configured origin only.

/// `scheme://host:port` of an absolute http(s) URL, lower-cased, the
/// default port spelt out; `None` for anything else.
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    // Userinfo is not part of the origin (and not something we send).
    let host_port = authority.rsplit('@').next()?.to_ascii_lowercase();
    let has_port = host_port
        .rsplit_once(':')
        .is_some_and(|(_, p)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && !host_port.ends_with(']');
    Some(if has_port {
        format!("{scheme}://{host_port}")
    } else {
        format!("{scheme}://{host_port}:{default_port}")
    })
}

/// The absolute URL a `Location` header points at, from the URL that
/// answered with it. `None` when it is not http(s).
pub fn resolve(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    if location.contains("://") {
        return origin(location).map(|_| location.to_owned());
    }
    let (scheme, rest) = base.split_once("://")?;
    if let Some(net_path) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{net_path}"));
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if location.starts_with('/') {
        return Some(format!("{scheme}://{authority}{location}"));
    }
    // Relative to the base's directory.
    let path = rest[authority_end..].split(['?', '#']).next().unwrap_or("");
    let dir = path.rfind('/').map_or("/", |i| &path[..=i]);
    Some(format!("{scheme}://{authority}{dir}{location}"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Some("https://a.test:443")
        );
        assert_eq!(origin("ftp://a.test/"), None);
    }

    #[test]
    fn locations_resolve_against_the_answering_url() {
        let base = "http://a.test:1/v1/markets?limit=5";
        assert_eq!(
            resolve(base, "https://b.test/x").as_deref(),
            Some("https://b.test/x")
        );
        assert_eq!(
            resolve(base, "//b.test/x").as_deref(),
            Some("http://b.test/x")
        );
        assert_eq!(
            resolve(base, "/markets?limit=5").as_deref(),
            Some("http://a.test:1/markets?limit=5")
        );
        assert_eq!(
            resolve(base, "other").as_deref(),
            Some("http://a.test:1/v1/other")
        );
        assert_eq!(
            resolve(base, "javascript:alert(1)").as_deref(),
            Some("http://a.test:1/v1/javascript:alert(1)")
        );
        assert_eq!(resolve(base, "file:///etc/passwd"), None);
    }
}
