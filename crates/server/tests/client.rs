//! The native client against the real server over loopback.

mod common;

use common::{KEY, TestServer};
use predmarket_client::native::NativeClient;
use predmarket_client::{ClientConfig, ErrorCode};

#[tokio::test]
async fn client_lists_platforms() {
    let server = TestServer::start().await;
    let client = NativeClient::new(ClientConfig::new(server.url(""), KEY)).expect("client");
    let platforms = client.list_platforms().await.expect("platforms");
    assert_eq!(platforms.platforms.len(), 8);
}

#[tokio::test]
async fn client_surfaces_a_bad_key_as_unauthorized_without_retrying() {
    let server = TestServer::start().await;
    let client = NativeClient::new(ClientConfig::new(server.url(""), "wrong")).expect("client");
    let error = client.list_platforms().await.expect_err("must fail");
    assert_eq!(error.code(), ErrorCode::Unauthorized);
    assert_eq!(error.status(), Some(401));
    assert!(!error.to_string().contains("wrong"));
}
