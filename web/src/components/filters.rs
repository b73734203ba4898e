//! The search box and filter selects of the lists, each bound to one URL
//! parameter.

use crate::api::Directory;
use crate::routes::UrlState;
use leptos::prelude::*;

/// The search box of a list: a draft that follows `?q=` (back and forward
/// change it) and goes into the URL on submit, starting the paging over.
#[component]
pub fn SearchBox(
    url: UrlState,
    #[prop(into)] id: String,
    #[prop(into)] label: String,
    #[prop(into)] placeholder: String,
) -> impl IntoView {
    let q = Memo::new(move |_| url.get("q"));
    let draft = RwSignal::new(url.get_untracked("q").unwrap_or_default());
    Effect::new(move |_| draft.set(q.get().unwrap_or_default()));
    let on_search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        url.set(
            &[("q", Some(draft.get_untracked())), ("pages", None)],
            false,
        );
    };
    view! {
        <form role="search" class="search" on:submit=on_search>
            <label for=id.clone() class="visually-hidden">{label}</label>
            <input
                id=id
                type="search"
                name="q"
                placeholder=placeholder
                autocomplete="off"
                prop:value=move || draft.get()
                on:input=move |ev| draft.set(event_target_value(&ev))
            />
            <button type="submit" class="primary">"Search"</button>
        </form>
    }
}

/// A select bound to one URL parameter (its id `filter-{key}` unless
/// given); a choice is a new history entry and starts the paging over.
#[component]
pub fn FilterSelect(
    url: UrlState,
    key: &'static str,
    #[prop(optional)] id: Option<&'static str>,
    label: &'static str,
    /// The text of the empty choice ("All platforms").
    all: &'static str,
    /// (value, text) of each choice.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    let id = id.map_or_else(|| format!("filter-{key}"), str::to_owned);
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <select id=id name=key on:change=move |ev| url.set(&[(key, Some(event_target_value(&ev))), ("pages", None)], false)>
                <option value="" prop:selected=move || url.get(key).is_none()>{all}</option>
                {move || {
                    options
                        .get()
                        .into_iter()
                        .map(|(value, text)| {
                            let v = value.clone();
                            view! {
                                <option value=value prop:selected=move || url.get(key).as_deref() == Some(v.as_str())>{text}</option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </div>
    }
}

/// The platform filter (`?platform=`): the platforms the directory lists
/// for `endpoint`, by their names.
#[component]
pub fn PlatformFilter(url: UrlState, endpoint: &'static str) -> impl IntoView {
    let directory = Directory::get();
    let options = Signal::derive(move || {
        directory
            .map(|d| d.platforms_serving(endpoint))
            .unwrap_or_default()
    });
    view! { <FilterSelect url key="platform" label="Platform" all="All platforms" options /> }
}

/// A free-text field bound to one URL parameter (its id `filter-{key}`
/// unless given): the draft follows the URL (back and forward change it)
/// and is committed on `change` (Enter or leaving the field), a new
/// history entry that starts the paging over. `kind` is the input type
/// (`text`, `date`, `number`).
#[component]
pub fn TextFilter(
    url: UrlState,
    key: &'static str,
    #[prop(optional)] id: Option<&'static str>,
    label: &'static str,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] placeholder: &'static str,
    /// Bounds of a date or number field.
    #[prop(optional)]
    min: Option<&'static str>,
    #[prop(optional)] max: Option<&'static str>,
) -> impl IntoView {
    let id = id.map_or_else(|| format!("filter-{key}"), str::to_owned);
    let value = Memo::new(move |_| url.get(key).unwrap_or_default());
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type=kind
                name=key
                placeholder=placeholder
                min=min
                max=max
                autocomplete="off"
                prop:value=move || value.get()
                on:change=move |ev| url.set(&[(key, Some(event_target_value(&ev))), ("pages", None)], false)
            />
        </div>
    }
}
