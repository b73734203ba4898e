//! The native client (reqwest) against two real HTTP listeners on loopback:
//! the service, which answers with redirects, and another origin, which
//! logs everything that reaches it. Whatever the `Location` spelling, the
//! key and the caller's headers never reach the other origin; a redirect on
//! the service's own origin is followed with both.

use predmarket_client::core::request::ListPlatforms;
use predmarket_client::native::NativeClient;
use predmarket_client::{CallOptions, ClientConfig, Error, ErrorCode};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

const KEY: &str = "pm_redirect_test_key";
const PLATFORMS: &str = r#"{"platforms":[{"id":"platform_a"}],"meta":{"total":1}}"#;

/// One request a listener received.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    /// Every header, names lower-case.
    headers: Vec<(String, String)>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

type Answer = (u16, Vec<(String, String)>, String);

/// A blocking HTTP/1.1 listener on its own thread: one request per
/// connection (`Connection: close`), every request logged before it is
/// answered.
struct Listener {
    /// `host:port`.
    authority: String,
    log: Arc<Mutex<Vec<Seen>>>,
}

impl Listener {
    fn start(host: &str, answer: impl Fn(&str) -> Answer + Send + 'static) -> Self {
        let listener = TcpListener::bind((host, 0)).expect("bind a loopback port");
        let port = listener.local_addr().expect("bound address").port();
        let log: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let seen = log.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if let Some(request) = read_request(&stream) {
                    let (status, headers, body) = answer(&request.path);
                    seen.lock().expect("log").push(request);
                    write_answer(stream, status, &headers, &body);
                }
            }
        });
        Self {
            authority: format!("{host}:{port}"),
            log,
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.log.lock().expect("log").clone()
    }
}

fn read_request(stream: &TcpStream) -> Option<Seen> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split(' ').nth(1)?.to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    Some(Seen { path, headers })
}

fn write_answer(mut stream: TcpStream, status: u16, headers: &[(String, String)], body: &str) {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// The service (redirecting `/platforms` to `location`, answering
/// `/v2/platforms`) and the other origin (answering everything).
fn pair(
    other_host: &str,
    location: impl Fn(&str, &str) -> String + Send + 'static,
) -> (Listener, Listener) {
    let other = Listener::start(other_host, |_| (200, Vec::new(), PLATFORMS.to_owned()));
    // The service's Location names its own authority, known once bound.
    let other_authority = other.authority.clone();
    let own: Arc<Mutex<String>> = Arc::default();
    let own_in = own.clone();
    let location_for_service = move |path: &str| -> Answer {
        if path.starts_with("/v2/") {
            return (200, Vec::new(), PLATFORMS.to_owned());
        }
        let me = own_in.lock().expect("own").clone();
        let target = location(&other_authority, &me);
        (302, vec![("location".to_owned(), target)], String::new())
    };
    let service = Listener::start("127.0.0.1", location_for_service);
    *own.lock().expect("own") = service.authority.clone();
    (service, other)
}

fn client(service: &Listener) -> NativeClient {
    let mut config = ClientConfig::new(format!("http://{}", service.authority), KEY);
    config.headers = vec![("x-app".into(), "client-level".into())];
    config.max_retries = 2;
    NativeClient::new(config).expect("client")
}

fn call_options() -> CallOptions {
    CallOptions {
        headers: vec![("x-trace".into(), "per-call".into())],
        ..CallOptions::default()
    }
}

#[tokio::test]
async fn a_location_that_leaves_the_origin_is_refused_and_nothing_reaches_it() {
    // `other` is the authority of the other listener, `me` the service's.
    let spellings: [fn(&str, &str) -> String; 8] = [
        |other, me| format!("http://{other}\\@{me}/v2/platforms"),
        |other, me| format!("//{other}\\@{me}/v2/platforms"),
        |other, _| format!("/\\{other}/v2/platforms"),
        |other, _| format!("\\\\{other}\\v2\\platforms"),
        |other, _| format!("http:\\\\{other}/v2/platforms"),
        |other, me| format!("http://{me}@{other}/v2/platforms"),
        |other, me| format!("http://{me}%40@{other}/v2/platforms"),
        |other, _| format!("HTTP://{}/v2/platforms", other.to_uppercase()),
    ];
    for (n, spelling) in spellings.into_iter().enumerate() {
        for other_host in ["127.0.0.1", "localhost"] {
            let (service, other) = pair(other_host, spelling);
            let c = client(&service);
            let result = c.send(&ListPlatforms, &call_options()).await;
            // First what reached the other origin, the leak itself.
            let leaked: Vec<_> = other.seen().iter().map(|s| s.headers.clone()).collect();
            assert!(
                leaked.is_empty(),
                "spelling {n} ({other_host}): the other origin got {leaked:?}"
            );
            let err = result.expect_err("refused");
            let location = match &err {
                Error::Redirected { status, location } => {
                    assert_eq!(*status, 302);
                    location.clone()
                }
                other => panic!("spelling {n} ({other_host}): not refused: {other:?}"),
            };
            assert_eq!(err.code(), ErrorCode::NetworkError);
            let quoted = predmarket_client::core::error::Quoted(&location).to_string();
            assert!(err.to_string().contains(&quoted), "{err}");
            assert!(!err.to_string().contains(KEY));
            // Refused at once: not retried, the service asked once.
            assert_eq!(service.seen().len(), 1, "spelling {n}");
        }
    }
}

#[tokio::test]
async fn a_redirect_on_the_origin_is_followed_with_the_key_and_headers() {
    let (service, other) = pair("127.0.0.1", |_, me| {
        format!("http://user:pass@{me}/x/../v2/./platforms#top")
    });
    let c = client(&service);
    let platforms: predmarket_client::core::models::PlatformsResponse = c
        .send(&ListPlatforms, &call_options())
        .await
        .expect("followed");
    assert_eq!(platforms.platforms.len(), 1);
    let seen = service.seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1].path, "/v2/platforms");
    for request in &seen {
        assert_eq!(request.header("x-api-key"), Some(KEY));
        assert_eq!(request.header("x-app"), Some("client-level"));
        assert_eq!(request.header("x-trace"), Some("per-call"));
        assert_eq!(request.header("host"), Some(service.authority.as_str()));
        assert_eq!(request.header("authorization"), None, "no credentials");
    }
    assert!(other.seen().is_empty());
}
