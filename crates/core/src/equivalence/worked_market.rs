//! The market the worked examples classify: a title, a platform, a
//! closing time and, where given, a rules text; nothing else set, so a
//! verdict rests on the wording alone. One builder for every file of
//! worked examples, each of which names its own closing time; and the
//! two checks most of them share.

use super::{Relation, classify};
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

/// The relation of a Polymarket market and a Kalshi one, each a title and
/// its closing time, without rules texts: the shape most worked examples
/// compare.
pub(super) fn titles_relation(a: (&str, &str), b: (&str, &str)) -> Relation {
    classify(
        &worked_market("polymarket", a.0, None, a.1),
        &worked_market("kalshi", b.0, None, b.1),
    )
    .relation
}

/// What a look-alike must be: neither `same` nor `inverted`.
pub(super) fn neither_same_nor_inverted(r: Relation) -> bool {
    !matches!(r, Relation::Same | Relation::Inverted)
}
