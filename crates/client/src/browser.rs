//! The browser's side of [`SharedBudget`] and [`Store`]: one budget per key
//! across the tabs of an origin (a ledger in localStorage, read and written
//! under a Web Lock), and answers
//! kept in IndexedDB across reloads.
//!
//! Everything is looked up on the global object at run time, so the same
//! code runs where these APIs are missing (Node, workers without storage):
//! the constructors then return `None` and the client keeps its own budget
//! and no store.

use crate::shared::{SharedBudget, Store, Stored};
use futures::FutureExt;
use futures::future::LocalBoxFuture;
use predmarket_core::ledger::{Ledger, budget_name};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn get(target: &JsValue, key: &str) -> JsValue {
    if !target.is_object() && !target.is_function() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

/// `target.name(args…)`.
fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let function: js_sys::Function = get(target, name).dyn_into()?;
    let args: js_sys::Array = args.iter().collect();
    function.apply(target, &args)
}

/// localStorage, when this global has one that works (it throws in some
/// privacy modes and opaque origins).
fn local_storage() -> Option<JsValue> {
    let storage =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("localStorage")).ok()?;
    if !storage.is_object() {
        return None;
    }
    call(
        &storage,
        "getItem",
        &[JsValue::from_str("predmarket.probe")],
    )
    .ok()?;
    Some(storage)
}

fn navigator_locks() -> Option<JsValue> {
    let locks = get(&get(&js_sys::global(), "navigator"), "locks");
    locks.is_object().then_some(locks)
}

/// The budget of one key shared by the tabs of an origin. Nothing is kept
/// in the tab: every question reads the ledger from localStorage, so what
/// another tab spent is seen at once, with no message between tabs.
pub struct TabsBudget {
    storage: JsValue,
    /// `navigator.locks`; without it (old browsers, some embedded views)
    /// the ledger is read and written without a lock: two tabs acting in
    /// the same millisecond may both take the last slot, which the
    /// ledger's safety margin and the service's headers absorb.
    locks: Option<JsValue>,
    name: String,
}

impl TabsBudget {
    /// The shared budget of `api_key` at `base_url`, stored under a hash of
    /// the two (the key is never written). `None` where there is no
    /// localStorage (Node, workers): the client's own budget applies.
    pub fn new(base_url: &str, api_key: &str) -> Option<Rc<Self>> {
        Some(Rc::new(Self {
            storage: local_storage()?,
            locks: navigator_locks(),
            name: budget_name(base_url, api_key),
        }))
    }

    fn read(&self) -> Ledger {
        let text = call(&self.storage, "getItem", &[JsValue::from_str(&self.name)])
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        Ledger::decode(&text)
    }

    fn write(&self, ledger: &Ledger) {
        let _ = call(
            &self.storage,
            "setItem",
            &[
                JsValue::from_str(&self.name),
                JsValue::from_str(&ledger.encode()),
            ],
        );
    }

    /// One read-modify-write of the ledger: inside the lock when there is
    /// one. Returns the wait (0: a slot was taken).
    fn update(&self, limit: u32) -> f64 {
        let mut ledger = self.read();
        match ledger.try_acquire(js_sys::Date::now(), limit) {
            Ok(()) => {
                self.write(&ledger);
                0.0
            }
            Err(ms) => ms,
        }
    }

    /// Runs `work` holding the lock named after the ledger, and resolves
    /// with its number.
    async fn locked(self: &Rc<Self>, locks: &JsValue, limit: u32) -> Result<f64, JsValue> {
        let this = self.clone();
        // localStorage is synchronous, so the whole update runs inside the
        // lock's callback and the lock is held for microseconds.
        let work = Closure::once_into_js(move |_lock: JsValue| -> JsValue {
            JsValue::from_f64(this.update(limit))
        });
        let promise: js_sys::Promise =
            call(locks, "request", &[JsValue::from_str(&self.name), work])?.dyn_into()?;
        let value = JsFuture::from(promise).await?;
        Ok(value.as_f64().unwrap_or(0.0))
    }
}

/// The budget as the client sees it: an `Rc`, because the lock's callback
/// outlives the borrow of one call.
pub struct SharedTabsBudget(pub Rc<TabsBudget>);

impl SharedBudget for SharedTabsBudget {
    fn acquire(&self, limit: u32) -> LocalBoxFuture<'_, Result<(), f64>> {
        let this = self.0.clone();
        async move {
            let wait = match &this.locks {
                Some(locks) => match this.locked(locks, limit).await {
                    Ok(wait) => wait,
                    // A lock manager that refuses (a sandboxed frame):
                    // storage alone.
                    Err(_) => this.update(limit),
                },
                None => this.update(limit),
            };
            if wait > 0.0 { Err(wait) } else { Ok(()) }
        }
        .boxed_local()
    }

    fn block_for(&self, wait_ms: f64) {
        let mut ledger = self.0.read();
        ledger.block_for(js_sys::Date::now(), wait_ms);
        self.0.write(&ledger);
    }

    fn remaining(&self, limit: u32) -> u32 {
        self.0.read().remaining(js_sys::Date::now(), limit)
    }
}

/// Wraps an IndexedDB request (or open request) into a promise of its
/// `result`. One callback serves success and error, so it is called once
/// and freed.
fn idb_result(request: &JsValue) -> JsFuture {
    let request = request.clone();
    let promise =
        js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
            let target = request.clone();
            let done = Closure::once_into_js(move |event: JsValue| {
                let ok = get(&event, "type").as_string().as_deref() == Some("success");
                let _ = if ok {
                    resolve.call1(&JsValue::UNDEFINED, &get(&target, "result"))
                } else {
                    reject.call1(&JsValue::UNDEFINED, &get(&target, "error"))
                };
            });
            set(&request, "onsuccess", &done);
            set(&request, "onerror", &done);
        });
    JsFuture::from(promise)
}

const OBJECT_STORE: &str = "answers";

/// Answers kept in IndexedDB, one database per name (the demo names it
/// after a hash of its settings), at most `max_entries` of them (the
/// oldest go first) and none larger than `max_bytes`.
pub struct IdbStore {
    db: Rc<RefCell<Option<JsValue>>>,
    opening: futures::future::Shared<LocalBoxFuture<'static, ()>>,
    max_entries: u32,
    max_bytes: usize,
    puts: Cell<u32>,
}

impl IdbStore {
    /// Opens (or creates) the database `name`. `None` where there is no
    /// IndexedDB; a database that fails to open later makes every read a
    /// miss.
    pub fn open(name: &str, max_entries: u32, max_bytes: usize) -> Option<Rc<Self>> {
        let factory = get(&js_sys::global(), "indexedDB");
        if !factory.is_object() {
            return None;
        }
        let request = call(
            &factory,
            "open",
            &[JsValue::from_str(name), JsValue::from_f64(1.0)],
        )
        .ok()?;
        let upgrade_target = request.clone();
        let upgrade = Closure::once_into_js(move |_event: JsValue| {
            let db = get(&upgrade_target, "result");
            let _ = call(&db, "createObjectStore", &[JsValue::from_str(OBJECT_STORE)]).and_then(
                |store| {
                    call(
                        &store,
                        "createIndex",
                        &[JsValue::from_str("at"), JsValue::from_str("at")],
                    )
                },
            );
        });
        set(&request, "onupgradeneeded", &upgrade);
        let db = Rc::new(RefCell::new(None));
        let slot = db.clone();
        let result = idb_result(&request);
        let opening = async move {
            if let Ok(handle) = result.await {
                *slot.borrow_mut() = Some(handle);
            }
        }
        .boxed_local()
        .shared();
        Some(Rc::new(Self {
            db,
            opening,
            max_entries: max_entries.max(1),
            max_bytes,
            puts: Cell::new(0),
        }))
    }

    /// Deletes the database `name` (what a store of it held).
    pub fn delete(name: &str) {
        let factory = get(&js_sys::global(), "indexedDB");
        let _ = call(&factory, "deleteDatabase", &[JsValue::from_str(name)]);
    }

    fn object_store(db: &JsValue, mode: &str) -> Result<JsValue, JsValue> {
        let tx = call(
            db,
            "transaction",
            &[JsValue::from_str(OBJECT_STORE), JsValue::from_str(mode)],
        )?;
        call(&tx, "objectStore", &[JsValue::from_str(OBJECT_STORE)])
    }

    /// Drops the oldest entries beyond `max_entries` (run now and then,
    /// not on every write).
    async fn trim(db: JsValue, max_entries: u32) -> Result<(), JsValue> {
        let store = Self::object_store(&db, "readwrite")?;
        let count = idb_result(&call(&store, "count", &[])?).await?;
        let excess = count.as_f64().unwrap_or(0.0) - f64::from(max_entries);
        if excess <= 0.0 {
            return Ok(());
        }
        let index = call(&store, "index", &[JsValue::from_str("at")])?;
        let keys = idb_result(&call(
            &index,
            "getAllKeys",
            &[JsValue::UNDEFINED, JsValue::from_f64(excess)],
        )?)
        .await?;
        let store = Self::object_store(&db, "readwrite")?;
        for key in js_sys::Array::from(&keys).iter() {
            let _ = call(&store, "delete", &[key]);
        }
        Ok(())
    }
}

impl Store for IdbStore {
    fn get(&self, url: &str) -> LocalBoxFuture<'static, Option<Stored>> {
        let (db, opening, url) = (self.db.clone(), self.opening.clone(), url.to_owned());
        async move {
            opening.await;
            let db = db.borrow().clone()?;
            let store = Self::object_store(&db, "readonly").ok()?;
            let request = call(&store, "get", &[JsValue::from_str(&url)]).ok()?;
            let value = idb_result(&request).await.ok()?;
            Some(Stored {
                text: get(&value, "text").as_string()?,
                stored_at_ms: get(&value, "at").as_f64()?,
            })
        }
        .boxed_local()
    }

    fn put(&self, url: &str, text: &str) {
        if text.len() > self.max_bytes {
            return;
        }
        let (db, opening) = (self.db.clone(), self.opening.clone());
        let record = js_sys::Object::new();
        set(&record, "text", &JsValue::from_str(text));
        set(&record, "at", &JsValue::from_f64(js_sys::Date::now()));
        let url = JsValue::from_str(url);
        let n = self.puts.get().wrapping_add(1);
        self.puts.set(n);
        let max_entries = self.max_entries;
        wasm_bindgen_futures::spawn_local(async move {
            opening.await;
            let Some(db) = db.borrow().clone() else {
                return;
            };
            if let Ok(store) = Self::object_store(&db, "readwrite") {
                let _ = call(&store, "put", &[record.into(), url]);
            }
            // Every 16th write: cheap enough, and the bound holds within
            // 16 entries.
            if n % 16 == 1 {
                let _ = Self::trim(db, max_entries).await;
            }
        });
    }

    fn clear(&self) -> LocalBoxFuture<'static, ()> {
        let (db, opening) = (self.db.clone(), self.opening.clone());
        async move {
            opening.await;
            let Some(db) = db.borrow().clone() else {
                return;
            };
            if let Ok(store) = Self::object_store(&db, "readwrite")
                && let Ok(request) = call(&store, "clear", &[])
            {
                let _ = idb_result(&request).await;
            }
        }
        .boxed_local()
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }
}
