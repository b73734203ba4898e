//! The market the worked examples classify: a title, a platform, a
//! closing time and, where given, a rules text; nothing else set, so a
//! verdict rests on the wording alone. One builder for every file of
//! worked examples, each of which names its own closing time.

use crate::models::{Market, PlatformId};

/// A market of `platform` titled `title`, closing at `closes` (RFC 3339),
/// with `rules` as its resolution criteria.
pub(super) fn worked_market(
    platform: &str,
    title: &str,
    rules: Option<&str>,
    closes: &str,
) -> Market {
    let mut m = Market::new(format!("{platform}-{}", title.len()));
    m.platform = Some(PlatformId::from(platform));
    m.title = Some(title.to_owned());
    m.trading_end_at = Some(closes.into());
    m.resolution_criteria = rules.map(str::to_owned);
    m
}
