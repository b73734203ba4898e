//! The reading cursor of a chart with one point per slot (the price line,
//! the candles): where the pointer is in the chart's own units, and which
//! point the arrow keys move to, so both charts answer the mouse and the
//! keyboard alike.

use wasm_bindgen::JsCast;

/// The pointer's x in the drawing's `viewBox` units (`0..width`), or
/// `None` while the chart is not laid out.
pub fn view_x(ev: &web_sys::PointerEvent, width: f64) -> Option<f64> {
    let target = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())?;
    let rect = target.get_bounding_client_rect();
    (rect.width() > 0.0).then(|| (f64::from(ev.client_x()) - rect.left()) / rect.width() * width)
}

/// The point the key moves the cursor to among `n` points: arrows step
/// (from the last point when none is read), Home and End jump, Escape
/// lets go (`Some(None)`); `None` for a key the chart leaves alone.
pub fn after_key(key: &str, current: Option<usize>, n: usize) -> Option<Option<usize>> {
    let last = n.checked_sub(1)?;
    Some(match key {
        "ArrowLeft" => Some(current.map_or(last, |i| i.saturating_sub(1))),
        "ArrowRight" => Some(current.map_or(last, |i| (i + 1).min(last))),
        "Home" => Some(0),
        "End" => Some(last),
        "Escape" => None,
        _ => return None,
    })
}

/// The handler of `keydown` for a chart whose cursor is `hover`.
pub fn on_key(
    hover: leptos::prelude::RwSignal<Option<usize>>,
    n: usize,
) -> impl Fn(web_sys::KeyboardEvent) + Copy + 'static {
    use leptos::prelude::{GetUntracked, Set};
    move |ev: web_sys::KeyboardEvent| {
        if let Some(next) = after_key(&ev.key(), hover.get_untracked(), n) {
            ev.prevent_default();
            hover.set(next);
        }
    }
}
