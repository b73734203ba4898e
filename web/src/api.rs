//! Talking to the service: the settings (base URL and key) and the client
//! built from them. One client per settings, so its rate budget is shared by
//! every page.

use predmarket_client::fetch::FetchClient;
use predmarket_client::{ClientConfig, Error};
use std::cell::RefCell;
use std::rc::Rc;

const BASE_URL_KEY: &str = "predmarket.baseUrl";
const API_KEY_KEY: &str = "predmarket.apiKey";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub base_url: String,
    pub api_key: String,
}

impl Settings {
    /// Stored settings, else the local server that serves this page and its
    /// public demo key.
    pub fn load() -> Self {
        let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
        let stored = |key: &str| storage.as_ref().and_then(|s| s.get_item(key).ok().flatten()).filter(|v| !v.is_empty());
        Self {
            base_url: stored(BASE_URL_KEY).unwrap_or_else(default_base_url),
            api_key: stored(API_KEY_KEY).unwrap_or_else(|| predmarket_client::core::DEMO_API_KEY.to_owned()),
        }
    }
}

fn default_base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_else(|| predmarket_client::DEFAULT_BASE_URL.to_owned())
}

thread_local! {
    static CLIENT: RefCell<Option<(Settings, Rc<FetchClient>)>> = const { RefCell::new(None) };
}

/// The client for the current settings.
pub fn client() -> Result<Rc<FetchClient>, Error> {
    let settings = Settings::load();
    CLIENT.with(|cell| {
        let mut cell = cell.borrow_mut();
        if let Some((cached, client)) = cell.as_ref() {
            if *cached == settings {
                return Ok(client.clone());
            }
        }
        let client = Rc::new(FetchClient::new(ClientConfig::new(settings.base_url.clone(), settings.api_key.clone()))?);
        *cell = Some((settings, client.clone()));
        Ok(client)
    })
}
