//! The OpenAPI 3.1 document at `/openapi.json`.

use crate::SharedState;
use axum::extract::State;
use axum::response::Response;

pub async fn serve(State(_state): State<SharedState>) -> Response {
    crate::routes::json(&serde_json::json!({"openapi": "3.1.0"}))
}
