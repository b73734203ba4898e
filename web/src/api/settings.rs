//! The settings: which service to ask (base URL) and with which key, kept
//! in this tab's storage and, when the user asks for it, on this device.

use predmarket_client::browser::IdbStore;

const BASE_URL_KEY: &str = "predmarket.baseUrl";
const API_KEY_KEY: &str = "predmarket.apiKey";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub base_url: String,
    pub api_key: String,
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn read(storage: &Option<web_sys::Storage>, key: &str) -> Option<String> {
    storage
        .as_ref()
        .and_then(|s| s.get_item(key).ok().flatten())
        .filter(|v| !v.trim().is_empty())
}

impl Settings {
    /// This tab's settings, else the remembered ones, else the server that
    /// serves this page and its public demo key.
    pub fn load() -> Self {
        let (session, local) = (session(), local());
        let stored = |key: &str| read(&session, key).or_else(|| read(&local, key));
        Self {
            base_url: stored(BASE_URL_KEY).unwrap_or_else(default_base_url),
            api_key: stored(API_KEY_KEY)
                .unwrap_or_else(|| predmarket_client::core::DEMO_API_KEY.to_owned()),
        }
    }

    pub fn defaults() -> Self {
        Self {
            base_url: default_base_url(),
            api_key: predmarket_client::core::DEMO_API_KEY.to_owned(),
        }
    }

    /// Whether settings are kept beyond this tab.
    pub fn remembered() -> bool {
        let local = local();
        read(&local, BASE_URL_KEY).is_some() || read(&local, API_KEY_KEY).is_some()
    }

    /// Stores the settings for this tab, and on this device only when the
    /// user asked for it: a key in localStorage outlives the session.
    pub fn save(&self, remember: bool) -> Result<(), String> {
        let write = |storage: Option<web_sys::Storage>| -> Result<(), String> {
            let storage = storage.ok_or("this browser gives no storage")?;
            storage
                .set_item(BASE_URL_KEY, &self.base_url)
                .map_err(|_| "storage refused the value")?;
            storage
                .set_item(API_KEY_KEY, &self.api_key)
                .map_err(|_| "storage refused the value")?;
            Ok(())
        };
        write(session())?;
        if remember {
            write(local())?;
        } else {
            forget(local());
        }
        Ok(())
    }

    /// Drops stored settings everywhere: the defaults apply again.
    pub fn clear() {
        forget(session());
        forget(local());
    }

    /// Whether answers may be kept on this device: not when the user
    /// saved a key for this tab only (they chose not to remember it);
    /// yes with the defaults (the public demo key) or remembered settings.
    pub fn may_persist() -> bool {
        Self::remembered() || read(&session(), API_KEY_KEY).is_none()
    }

    /// The IndexedDB database of these settings, named by a hash (never
    /// the key itself).
    pub fn store_name(&self) -> String {
        let digest = predmarket_client::core::ledger::sha256(
            format!("{}\n{}", self.base_url, self.api_key).as_bytes(),
        );
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        format!("predmarket-cache-{hex}")
    }

    /// Deletes what is kept on this device for these settings.
    pub fn forget_store(&self) {
        IdbStore::delete(&self.store_name());
    }
}

fn forget(storage: Option<web_sys::Storage>) {
    if let Some(s) = storage {
        let _ = s.remove_item(BASE_URL_KEY);
        let _ = s.remove_item(API_KEY_KEY);
    }
}

fn default_base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .filter(|o| o.starts_with("http"))
        .unwrap_or_else(|| predmarket_client::DEFAULT_BASE_URL.to_owned())
}
