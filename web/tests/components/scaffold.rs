//! The loading scaffold: the placeholder, the value, the error and its
//! retry.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::Error;
use predmarket_web::components::Loader;
use wasm_bindgen_test::*;

use super::support::*;

#[wasm_bindgen_test]
async fn the_scaffold_shows_loading_then_the_value() {
    // The value comes only when the test lets it: "loading" is asserted
    // while the value is certainly still pending.
    let released = RwSignal::new(false);
    let (root, _h) = mount(move || {
        let resource = LocalResource::new(move || async move {
            while !released.get_untracked() {
                sleep(20).await;
            }
            Ok::<_, Error>(42)
        });
        view! {
            <Loader resource what="the answer" let:n>
                <p class="value">{n}</p>
            </Loader>
        }
    });
    tick().await;
    assert!(text(&root, ".loading").contains("Loading the answer"));
    released.set(true);
    assert!(wait_for(&root, ".value", 5_000).await);
    assert_eq!(text(&root, ".value"), "42");
    assert!(find(&root, ".loading").is_none());
}

#[wasm_bindgen_test]
async fn the_scaffold_shows_the_error_and_retries() {
    let calls = RwSignal::new(0);
    let (root, _h) = mount(move || {
        let resource = LocalResource::new(move || {
            calls.update_untracked(|n| *n += 1);
            let first = calls.get_untracked() == 1;
            async move {
                if first {
                    Err(failure(503, "PLATFORM_UNAVAILABLE", None))
                } else {
                    Ok("second time".to_owned())
                }
            }
        });
        view! {
            <Loader resource what="a value" let:v>
                <p class="value">{v}</p>
            </Loader>
        }
    });
    assert!(wait_for(&root, "[role=alert]", 5_000).await);
    find(&root, "[role=alert] button")
        .expect("try again")
        .click();
    assert!(wait_for(&root, ".value", 5_000).await);
    assert_eq!(text(&root, ".value"), "second time");
    assert_eq!(calls.get_untracked(), 2);
}
