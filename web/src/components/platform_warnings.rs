//! The platforms that failed inside an otherwise served answer.

use crate::api::platform_name;
use leptos::prelude::*;
use predmarket_client::core::models::PlatformError;
use std::collections::BTreeMap;

/// The platforms that failed inside an otherwise served answer, shown next
/// to the data they are missing from.
#[component]
pub fn PlatformWarnings(errors: Option<BTreeMap<String, PlatformError>>) -> impl IntoView {
    let errors: Vec<(String, PlatformError)> = errors.unwrap_or_default().into_iter().collect();
    (!errors.is_empty()).then(|| {
        let items = errors
            .into_iter()
            .map(|(platform, error)| {
                let name = platform_name(&platform);
                let code = error.code.unwrap_or_default();
                let message = error.message.unwrap_or_else(|| "did not answer".into());
                view! {
                    <li data-platform=platform>
                        <strong>{name}</strong>": "{message}
                        {(!code.is_empty()).then(|| view! { <span class="code">" (" {code} ")"</span> })}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="notice warning platform-warnings" role="status">
                <strong>"Partial data: some platforms did not answer."</strong>
                <ul>{items}</ul>
            </div>
        }
    })
}
