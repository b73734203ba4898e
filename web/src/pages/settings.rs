//! Where the demo gets its data and with which key.

use crate::api::{self, Directory, Settings};
use crate::components::ErrorNotice;
use leptos::prelude::*;
use predmarket_client::core::request::ListPlatforms;
use predmarket_client::{CallOptions, Error};

#[derive(Clone, PartialEq)]
enum Check {
    Idle,
    Running,
    Ok(String),
    Failed(Error),
}

/// Where the demo gets its data and with which key. Kept for this tab
/// (sessionStorage) unless the user opts in to remembering them on this
/// device (localStorage).
#[component]
pub fn SettingsPage() -> impl IntoView {
    let current = Settings::load();
    let base_url = RwSignal::new(current.base_url.clone());
    let api_key = RwSignal::new(current.api_key.clone());
    let remember = RwSignal::new(Settings::remembered());
    let show_key = RwSignal::new(false);
    let saved = RwSignal::new(None::<Result<String, String>>);
    let check = RwSignal::new(Check::Idle);
    let draft = move || Settings {
        base_url: base_url.get_untracked().trim().to_owned(),
        api_key: api_key.get_untracked().trim().to_owned(),
    };

    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let settings = draft();
        if let Err(e) = api::client_for(&settings) {
            saved.set(Some(Err(e.to_string())));
            return;
        }
        let remember_it = remember.get_untracked();
        if !remember_it {
            // Chosen not to remember the key: nothing of it stays on the
            // device, kept answers included.
            settings.forget_store();
        }
        saved.set(Some(settings.save(remember_it).map(|()| {
            if remember_it {
                "Saved on this device.".to_owned()
            } else {
                "Saved for this tab.".to_owned()
            }
        })));
        if let Some(directory) = Directory::get() {
            directory.refetch();
        }
    };
    let on_test = move |_| {
        let settings = draft();
        check.set(Check::Running);
        leptos::task::spawn_local(async move {
            let started = js_sys::Date::now();
            let result = match api::client_for(&settings) {
                Ok(client) => client.send(&ListPlatforms, &CallOptions::default()).await,
                Err(e) => Err(e),
            };
            check.set(match result {
                Ok(r) => Check::Ok(format!(
                    "Connected: {} platforms, answered in {:.0} ms.",
                    r.platforms.len(),
                    js_sys::Date::now() - started
                )),
                Err(e) => Check::Failed(e),
            });
        });
    };
    let on_clear = move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(client) = api::client() {
                client.clear_store().await;
            }
            saved.set(Some(Ok("Cached answers cleared from this device.".into())));
        });
    };
    let on_reset = move |_| {
        Settings::clear();
        let defaults = Settings::defaults();
        base_url.set(defaults.base_url);
        api_key.set(defaults.api_key);
        remember.set(false);
        saved.set(Some(Ok(
            "Back to the defaults: this server and its demo key.".into(),
        )));
        if let Some(directory) = Directory::get() {
            directory.refetch();
        }
    };
    view! {
        <section class="page settings-page">
            <header class="page-head">
                <h1>"Settings"</h1>
                <p class="lede">"Which service the demo reads from, and with which API key."</p>
            </header>
            <form class="card settings" on:submit=on_save>
                <div class="field wide">
                    <label for="base-url">"Base URL"</label>
                    <input
                        id="base-url"
                        type="url"
                        inputmode="url"
                        autocomplete="url"
                        required
                        prop:value=move || base_url.get()
                        on:input=move |ev| base_url.set(event_target_value(&ev))
                    />
                    <p class="hint">"Default: the server this page came from."</p>
                </div>
                <div class="field wide">
                    <label for="api-key">"API key"</label>
                    <div class="with-button">
                        <input
                            id="api-key"
                            type=move || if show_key.get() { "text" } else { "password" }
                            autocomplete="off"
                            spellcheck="false"
                            required
                            prop:value=move || api_key.get()
                            on:input=move |ev| api_key.set(event_target_value(&ev))
                        />
                        <button type="button" aria-pressed=move || show_key.get().to_string() on:click=move |_| show_key.update(|s| *s = !*s)>
                            {move || if show_key.get() { "Hide" } else { "Show" }}
                        </button>
                    </div>
                    <p class="hint">"Sent only in the X-API-Key header. The local server accepts the demo key pm_demo_key."</p>
                </div>
                <label class="toggle">
                    <input type="checkbox" id="remember" prop:checked=move || remember.get() on:change=move |ev| remember.set(event_target_checked(&ev)) />
                    "Remember on this device"
                </label>
                <p class="hint">"Off: kept for this tab only (sessionStorage). On: kept in localStorage until you reset."</p>
                <div class="actions">
                    <button type="submit" class="primary">"Save"</button>
                    <button type="button" on:click=on_test disabled=move || check.get() == Check::Running>"Test connection"</button>
                    <button type="button" id="clear-cache" on:click=on_clear>"Clear cached data"</button>
                    <button type="button" class="link" on:click=on_reset>"Reset to defaults"</button>
                </div>
                <div aria-live="polite" class="status">
                    {move || saved.get().map(|r| match r {
                        Ok(msg) => view! { <p class="notice ok" id="saved">{msg}</p> }.into_any(),
                        Err(msg) => view! { <p class="notice error" role="alert">{msg}</p> }.into_any(),
                    })}
                    {move || match check.get() {
                        Check::Idle => ().into_any(),
                        Check::Running => view! { <p class="loading">"Testing…"</p> }.into_any(),
                        Check::Ok(msg) => view! { <p class="notice ok" id="check">{msg}</p> }.into_any(),
                        Check::Failed(error) => view! { <ErrorNotice error /> }.into_any(),
                    }}
                </div>
            </form>
        </section>
    }
}
