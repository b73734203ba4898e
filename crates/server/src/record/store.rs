//! Where one disk is not enough: every finished part copied to object
//! storage (`--record-store URL`) through the `object_store` crate, under
//! the same hive path as on disk, by the writer's thread on a runtime of
//! its own. Built here with its local-filesystem backend (`file:///…`);
//! S3, GCS and Azure are features of the same crate. A put is atomic (a
//! reader never sees half a part); a failed put is counted and logged and
//! the local part stays, so recording goes on.

use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use std::path::Path;
use std::sync::Arc;

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
    /// The store `url` names (`file:///dir`; others as the crate's
    /// features allow).
    pub fn open(url: &str) -> Result<Store, String> {
        let parsed = url::Url::parse(url).map_err(|e| format!("--record-store {url}: {e}"))?;
        let (store, prefix) =
            object_store::parse_url(&parsed).map_err(|e| format!("--record-store {url}: {e}"))?;
        if parsed.scheme() == "file" {
            // The local backend puts into directories that exist.
            std::fs::create_dir_all(parsed.path())
                .map_err(|e| format!("--record-store {url}: {e}"))?;
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("--record-store {url}: {e}"))?;
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
