//! `GET /platforms`.

use super::{HttpRequest, Request};
use crate::error::Error;
use crate::models::PlatformsResponse;

/// `GET /platforms`: the platform directory. No parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListPlatforms;

impl Request for ListPlatforms {
    const OPERATION: &'static str = "listPlatforms";
    type Response = PlatformsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/platforms"))
    }
}
