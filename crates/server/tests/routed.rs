//! Every operation of the core's table is routed by the reference server:
//! its path answers with the operation's own handler (an answer or the
//! handler's typed error), never with the fallback's "no operation".

mod common;

use common::TestServer;
use predmarket_core::request::Operation;

#[tokio::test]
async fn every_operation_is_routed() {
    let server = TestServer::start().await;
    for &op in Operation::ALL {
        let mut path = op.path().to_owned();
        for name in op.path_params() {
            path = path.replace(&format!("{{{name}}}"), "no-such-id");
        }
        let (status, body) = server.json(&path).await;
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            !message.starts_with("no operation at"),
            "{op} at {path} is not routed: {status} {body}"
        );
        assert!(
            status == 200 || body["error"]["code"].is_string(),
            "{op} at {path}: {status} {body}"
        );
    }
    // The fallback the assertion tells apart.
    let (status, body) = server.json("/no-such-operation").await;
    assert_eq!(status, 404);
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("no operation at")),
        "{body}"
    );
}
