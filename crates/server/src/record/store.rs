//! Where one disk is not enough: every finished part copied to object
//! storage (`--record-store URL`) through the `object_store` crate, under
//! the same hive path as on disk, by the writer's thread on a runtime of
//! its own. Built with the crate's local-filesystem backend (`file:///…`)
//! and its S3 backend (`s3://bucket/prefix`, tested against moto's
//! S3-compatible server); GCS and Azure are features of the same crate,
//! not compiled in. A put is atomic (a
//! reader never sees half a part); a failed put is counted and logged and
//! the local part stays, so recording goes on.

use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use std::path::Path;
use std::sync::Arc;

/// A store's settings: the environment's `AWS_*` variables (credentials
/// among them, which never go in the URL), then the URL's query
/// (`?endpoint=http://127.0.0.1:9000&region=us-east-1&allow_http=true`),
/// which wins. Keys the backend does not know are ignored by it.
pub fn options(url: &url::Url) -> Vec<(String, String)> {
    let environment = std::env::vars()
        .filter(|(name, _)| name.starts_with("AWS_"))
        .map(|(name, value)| (name.to_ascii_lowercase(), value));
    let query = url
        .query_pairs()
        .map(|(name, value)| (name.into_owned(), value.into_owned()));
    environment.chain(query).collect()
}

/// An object store and the prefix parts go under.
pub struct Store {
    store: Arc<dyn ObjectStore>,
    prefix: StorePath,
    runtime: tokio::runtime::Runtime,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({} under {})", self.store, self.prefix)
    }
}

impl Store {
    /// The store `url` names: `file:///dir`, or `s3://bucket/prefix`
    /// with the settings of `options`.
    pub fn open(url: &str) -> Result<Store, String> {
        let mut parsed =
            url::Url::parse(url).map_err(|e| format!("--record-store: not a URL: {e}"))?;
        let settings = options(&parsed);
        // Errors name the store without its query: what a user put there
        // is not repeated into logs.
        parsed.set_query(None);
        let shown = parsed.to_string();
        let (store, prefix) = object_store::parse_url_opts(&parsed, settings)
            .map_err(|e| format!("--record-store {shown}: {e}"))?;
        if parsed.scheme() == "file" {
            // The local backend puts into directories that exist.
            std::fs::create_dir_all(parsed.path())
                .map_err(|e| format!("--record-store {shown}: {e}"))?;
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("--record-store {shown}: {e}"))?;
        Ok(Store {
            store: Arc::from(store),
            prefix,
            runtime,
        })
    }

    /// Copies the part at `path`, whose place in the archive is `relative`
    /// (`kind=…/date=…/part-….parquet`).
    pub fn put(&self, path: &Path, relative: &Path) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let mut location = self.prefix.clone();
        for part in relative.iter() {
            location = location.join(part.to_string_lossy().as_ref());
        }
        let store = self.store.clone();
        self.runtime
            .block_on(async move { store.put(&location, bytes.into()).await })
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
