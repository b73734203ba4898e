//! Says which items of a list could not be read, and why, as text.

use crate::api::Unread;
use leptos::prelude::*;

/// Longest reason shown: a decode error may quote a whole hostile value.
const REASON_CHARS: usize = 240;

/// Says that some items of a list could not be read (the rest is shown),
/// with why in a `<details>`. The reasons come from the service's data:
/// text only, cut to a readable length.
#[component]
pub fn UnreadNotice(
    #[prop(into)] unread: Signal<Vec<Unread>>,
    /// Plural of what is listed ("markets").
    noun: &'static str,
) -> impl IntoView {
    move || {
        unread.with(|all| {
            if all.is_empty() {
                return None;
            }
            let n = all.len();
            let verb = if n == 1 { "is" } else { "are" };
            let headline = format!(
                "{n} of the {noun} the service sent could not be read and {verb} left out."
            );
            let reasons = all
                .iter()
                .map(|u| {
                    let text = format!(
                        "Page {}, item {}: {}",
                        u.page,
                        u.item.index + 1,
                        clip(&u.item.reason)
                    );
                    view! { <li>{text}</li> }
                })
                .collect_view();
            Some(view! {
                <div class="notice warning unread-notice" role="status" data-unread=n.to_string()>
                    <strong>{headline}</strong>
                    <details>
                        <summary>"Why"</summary>
                        <ul>{reasons}</ul>
                    </details>
                </div>
            })
        })
    }
}

fn clip(reason: &str) -> String {
    match reason.char_indices().nth(REASON_CHARS) {
        Some((end, _)) => format!("{}…", &reason[..end]),
        None => reason.to_owned(),
    }
}
