//! "Download CSV / NDJSON" for a table or a chart: the rows it shows,
//! written by predmarket-core's export rule (the npm package's `toCsv`
//! follows the same rule, held to it by shared vectors). The file is made
//! when the link is clicked, not on every render.

use leptos::prelude::*;
use predmarket_core::export::{self, CsvOptions};
use serde_json::Value;
use wasm_bindgen::JsCast;

/// The text of a download: CSV (spreadsheet-safe: the data's titles are
/// untrusted) or NDJSON, of the rows of `data` (an answer, a list, an
/// order book).
pub fn file_text(data: &Value, csv: bool) -> String {
    let rows = export::rows(data);
    if csv {
        export::to_csv(
            &rows,
            None,
            CsvOptions {
                spreadsheet_safe: true,
            },
        )
    } else {
        export::to_ndjson(&rows)
    }
}

/// A `blob:` URL of `text`, or `None` where the browser refuses one.
fn blob_url(text: &str, mime: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// Two links, CSV and NDJSON, that download `rows()` as `name.csv` /
/// `name.ndjson`. `rows` is called on click, so it reads the data as shown
/// then.
#[component]
pub fn Download(
    #[prop(into)] name: String,
    rows: impl Fn() -> Value + Send + Sync + 'static,
) -> impl IntoView {
    let rows = StoredValue::new(rows);
    let link = move |csv: bool| {
        let (extension, mime) = if csv {
            ("csv", "text/csv;charset=utf-8")
        } else {
            ("ndjson", "application/x-ndjson")
        };
        let file = format!("{name}.{extension}");
        let on_click = move |event: leptos::ev::MouseEvent| {
            let text = rows.with_value(|rows| file_text(&rows(), csv));
            let target = event
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            match (target, blob_url(&text, mime)) {
                // The link follows its new `href` after this handler: the
                // browser saves the file. The previous URL is released.
                (Some(anchor), Some(url)) => {
                    if let Some(old) = anchor.get_attribute("href")
                        && old.starts_with("blob:")
                    {
                        let _ = web_sys::Url::revoke_object_url(&old);
                    }
                    let _ = anchor.set_attribute("href", &url);
                }
                _ => event.prevent_default(),
            }
        };
        view! {
            <a class="download-link" download=file href="#" on:click=on_click data-format=extension>
                {extension.to_uppercase()}
            </a>
        }
    };
    view! {
        <span class="download" role="group" aria-label="Download">
            "Download " {link(true)} " / " {link(false)}
        </span>
    }
}
