//! What a visitor may send to reach a path other than an operation's, and
//! the check of what the upstream received: shared by the proxy's path
//! tests (`tests/proxy_paths.rs`) and the proxy attack example
//! (`examples/attack_proxy/`), both of which include it by `#[path]`.

#![allow(dead_code)] // each includer uses a different part

use predmarket_core::request::Operation;

/// The operations that take an id in their path, `{}` for the id.
pub const TEMPLATES: &[&str] = &[
    "/markets/{}",
    "/markets/{}/orderbook",
    "/series/{}",
    "/events/{}",
    "/games/{}",
    "/futures/{}",
    "/awards/{}",
];

/// Ids a visitor might put where an operation takes one: dot segments
/// plain and encoded, `/` and `\` plain, encoded and double-encoded.
pub const HOSTILE_IDS: &[&str] = &[
    "..",
    ".",
    "%2e%2e",
    "%2E%2E",
    ".%2e",
    "%2e.",
    "%2e",
    "..%2f..%2faccount%2fusage",
    "..%2F..%2Faccount",
    "%2f..%2f..%2faccount",
    "..%5c..%5caccount%5cusage",
    "..%5C..%5Caccount",
    "%2e%2e%5c%2e%2e%5caccount",
    "..\\..\\..\\account\\usage",
    "a\\..\\..\\account",
    "%252e%252e",
    "..%252f..%252faccount",
];

/// Paths with more segments than any operation's.
pub const HOSTILE_PATHS: &[&str] = &[
    "/markets/../account/usage",
    "/markets/..\\..\\..\\account\\usage",
    "/markets/%2e%2e/%2e%2e/account/usage",
    "/markets/.%2e/.%2e/account/usage",
    "/markets/x/../../account/usage",
    "/markets/x/..%2f..%2faccount",
    "/series/%2f%2e%2e/usage",
    "/..\\account\\usage",
    "/%2e%2e/account/usage",
];

/// Ids that decode to a dot segment: the core refuses them, with the
/// server's 400 `VALIDATION_ERROR` naming the parameter.
pub const REFUSED_IN_CORE: &[&str] = &[
    "/markets/..",
    "/markets/%2e%2e",
    "/games/.%2e",
    "/series/..%2faccount",
];

/// Every target a visitor sends in a sweep: each template with each
/// hostile id, then each hostile path.
pub fn sweep() -> Vec<String> {
    TEMPLATES
        .iter()
        .flat_map(|t| HOSTILE_IDS.iter().map(move |id| t.replace("{}", id)))
        .chain(HOSTILE_PATHS.iter().map(|p| (*p).to_owned()))
        .collect()
}

/// `%XX` decoded once (what a server does to a path segment).
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `target` (as the upstream received it) is an operation's path
/// under `prefix`: each template segment matched, each id a segment that
/// neither as sent nor decoded once has a `.` or `..` piece.
pub fn is_an_operation(prefix: &str, target: &str) -> bool {
    if target.contains('\\') {
        return false;
    }
    let path = target.split('?').next().unwrap_or_default();
    let Some(path) = path.strip_prefix(prefix) else {
        return false;
    };
    let segments: Vec<&str> = path.split('/').collect();
    let safe = |id: &str| {
        let decoded = percent_decode(id);
        !decoded.trim().is_empty()
            && ![id, decoded.as_str()].iter().any(|text| {
                text.split(['/', '\\'])
                    .any(|piece| piece == "." || piece == "..")
            })
    };
    Operation::ALL.iter().any(|op| {
        let template: Vec<&str> = op.path().split('/').collect();
        template.len() == segments.len()
            && template.iter().zip(&segments).all(
                |(t, s)| {
                    if t.starts_with('{') { safe(s) } else { t == s }
                },
            )
    })
}

/// `GET target` written byte for byte (no URL parser tidies it first),
/// with `X-API-Key: key` when given, from the loopback address `source`
/// when given, on a connection of its own: status, head (lower case) and
/// body (de-chunked).
pub async fn raw_get(
    addr: std::net::SocketAddr,
    target: &str,
    key: Option<&str>,
    source: Option<std::net::IpAddr>,
) -> Result<(u16, String, String), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    if let Some(ip) = source {
        socket
            .bind(std::net::SocketAddr::new(ip, 0))
            .map_err(|e| format!("bind {ip}: {e}"))?;
    }
    let mut stream = socket
        .connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let key = key
        .map(|k| format!("X-API-Key: {k}\r\n"))
        .unwrap_or_default();
    let request =
        format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n{key}Connection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut bytes = Vec::new();
    stream
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{target}: no status in {text:.200}"))?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Ok((status, head, body))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// The `details.reason` of an error body, if any.
pub fn reason(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|b| b["error"]["details"]["reason"].as_str().map(str::to_owned))
        .unwrap_or_default()
}
