//! The browser's side of [`SharedBudget`] and [`Store`]: one budget per key
//! across the tabs of an origin (a ledger in IndexedDB), and answers kept in
//! IndexedDB across reloads.
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

/// The database of the shared ledgers, the same as the npm package's
/// (crates/wasm/js/shared-budget.js reads the core's names from the wasm):
/// a tab of the demo and a tab using the package share the key's budget.
const LEDGER_DATABASE: &str = predmarket_core::ledger::DATABASE;
const LEDGER_STORE: &str = predmarket_core::ledger::STORE;

/// The budget of one key shared by the tabs of an origin: a ledger in
/// IndexedDB, read and written in one readwrite transaction per request,
/// which the browser runs one at a time across tabs. Not localStorage under
/// a Web Lock, as before: Chromium serves each tab process its own copy of
/// localStorage and other tabs' writes reach it later, so a read under the
/// lock could be stale (the npm package's test of three tabs on a budget of
/// four saw five requests go).
pub struct TabsBudget {
    db: Rc<RefCell<Option<JsValue>>>,
    opening: futures::future::Shared<LocalBoxFuture<'static, ()>>,
    name: String,
    /// The ledger as this tab last read it, for `remaining` (which must
    /// answer at once); refreshed by every acquire.
    seen: RefCell<Ledger>,
}

impl TabsBudget {
    /// The shared budget of `api_key` at `base_url`, stored under a hash of
    /// the two (the key is never written). `None` where there is no
    /// IndexedDB (Node): the client's own budget applies.
    pub fn new(base_url: &str, api_key: &str) -> Option<Rc<Self>> {
        let (db, opening) = open_database(LEDGER_DATABASE, |db| {
            let _ = call(db, "createObjectStore", &[JsValue::from_str(LEDGER_STORE)]);
        })?;
        Some(Rc::new(Self {
            db,
            opening,
            name: budget_name(base_url, api_key),
            seen: RefCell::new(Ledger::default()),
        }))
    }

    /// Reads the ledger, lets `change` edit it and writes it back, in one
    /// transaction: the write is issued from the read's own success
    /// handler, synchronously, as IndexedDB requires (a transaction closes
    /// once a task ends with no request pending; resuming a Rust future
    /// after the read comes too late). `None` when the database is not
    /// there or refuses.
    async fn update<R: 'static>(
        self: &Rc<Self>,
        change: impl FnOnce(&mut Ledger) -> R + 'static,
    ) -> Option<R> {
        self.opening.clone().await;
        let db = self.db.borrow().clone()?;
        let tx = call(
            &db,
            "transaction",
            &[
                JsValue::from_str(LEDGER_STORE),
                JsValue::from_str("readwrite"),
            ],
        )
        .ok()?;
        let store = call(&tx, "objectStore", &[JsValue::from_str(LEDGER_STORE)]).ok()?;
        let name = JsValue::from_str(&self.name);
        let request = call(&store, "get", std::slice::from_ref(&name)).ok()?;
        let outcome: Rc<RefCell<Option<R>>> = Rc::default();
        let (this, slot, target) = (self.clone(), outcome.clone(), request.clone());
        let on_read = Closure::once_into_js(move |_event: JsValue| {
            let text = get(&target, "result").as_string().unwrap_or_default();
            let mut ledger = Ledger::decode(&text);
            let result = change(&mut ledger);
            if call(&store, "put", &[JsValue::from_str(&ledger.encode()), name]).is_ok() {
                *slot.borrow_mut() = Some(result);
            }
            *this.seen.borrow_mut() = ledger;
        });
        set(&request, "onsuccess", &on_read);
        // Done when the transaction is: the write is in before the request
        // it counts goes out.
        let done = js_sys::Promise::new(&mut |resolve: js_sys::Function, _reject| {
            let finish = Closure::once_into_js(move |_event: JsValue| {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            });
            set(&tx, "oncomplete", &finish);
            set(&tx, "onabort", &finish);
            set(&tx, "onerror", &finish);
        });
        let _ = JsFuture::from(done).await;
        outcome.borrow_mut().take()
    }
}

/// The budget as the client sees it: an `Rc`, because the transaction's
/// callbacks outlive the borrow of one call.
pub struct SharedTabsBudget(pub Rc<TabsBudget>);

// A ledger that cannot be read or written lets the request go: the
// client's own budget and the service's headers still apply.
impl SharedBudget for SharedTabsBudget {
    fn acquire(&self, limit: u32) -> LocalBoxFuture<'_, Result<(), f64>> {
        let this = self.0.clone();
        async move {
            let wait = this
                .update(
                    move |ledger| match ledger.try_acquire(js_sys::Date::now(), limit) {
                        Ok(()) => 0.0,
                        Err(ms) => ms,
                    },
                )
                .await
                .unwrap_or(0.0);
            if wait > 0.0 { Err(wait) } else { Ok(()) }
        }
        .boxed_local()
    }

    fn block_for(&self, wait_ms: f64) {
        let this = self.0.clone();
        wasm_bindgen_futures::spawn_local(async move {
            this.update(move |ledger| ledger.block_for(js_sys::Date::now(), wait_ms))
                .await;
        });
    }

    fn remaining(&self, limit: u32) -> u32 {
        self.0
            .seen
            .borrow_mut()
            .remaining(js_sys::Date::now(), limit)
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

/// A database being opened, and the handle once it is.
type Opening = (
    Rc<RefCell<Option<JsValue>>>,
    futures::future::Shared<LocalBoxFuture<'static, ()>>,
);

/// Opens (or creates, through `upgrade`) the IndexedDB database `name`,
/// version 1. `None` where there is no IndexedDB; a database that fails to
/// open later leaves the handle empty.
fn open_database(name: &str, upgrade: impl FnOnce(&JsValue) + 'static) -> Option<Opening> {
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
    let on_upgrade = Closure::once_into_js(move |_event: JsValue| {
        upgrade(&get(&upgrade_target, "result"));
    });
    set(&request, "onupgradeneeded", &on_upgrade);
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
    Some((db, opening))
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
        let (db, opening) = open_database(name, |db| {
            let _ = call(db, "createObjectStore", &[JsValue::from_str(OBJECT_STORE)]).and_then(
                |store| {
                    call(
                        &store,
                        "createIndex",
                        &[JsValue::from_str("at"), JsValue::from_str("at")],
                    )
                },
            );
        })?;
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
