//! The markets as the entry (js/venues.js, `encodeMarkets`) hands them to
//! this wasm: no JSON, so the wasm carries no JSON decoder and no float
//! parser for them. One string holds every text field of every market,
//! back to back, untouched (no separator, no escaping: any text survives
//! as it is); a `Uint32Array` says where each ends and how the markets
//! are shaped:
//!
//! ```text
//! markets
//! per market: id, then each of the optional fields (`OPTIONAL_FIELDS`),
//!             outcomes? (count, then per outcome: id, name?),
//!             price keys? (count, then each key)
//! ```
//!
//! A text's number is its length in UTF-16 code units (JS's `.length`),
//! an optional one's that plus one (0: absent); an optional list's is
//! its count plus one (0: absent). wasm-bindgen hands the string over as
//! UTF-8, a lone surrogate as U+FFFD (one code unit either way), so the
//! lengths hold.

use predmarket_core::models::{Market, MarketType, Outcome, PlatformId};

/// The input did not have the shape the entry writes: a bug between the
/// two halves, reported rather than read past.
#[derive(Debug, PartialEq, Eq)]
pub struct Malformed;

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("markets: the text and its lengths disagree")
    }
}

/// Where each optional text field goes, in the order the entry writes
/// them (js/venues.js, `OPTIONAL_FIELDS`).
const OPTIONAL_FIELDS: [fn(&mut Market, String); 8] = [
    |m, v| m.platform = Some(PlatformId::from(v)),
    |m, v| m.title = Some(v),
    |m, v| m.market_type = Some(MarketType::from(v)),
    |m, v| m.event_name = Some(v),
    |m, v| m.trading_end_at = Some(v),
    |m, v| m.resolution_date = Some(v),
    |m, v| m.resolution_source = Some(v),
    |m, v| m.resolution_criteria = Some(v),
];

/// The markets of `text` and `shape` (see the module doc).
pub fn read_markets(text: &str, shape: &[u32]) -> Result<Vec<Market>, Malformed> {
    let mut r = Reader {
        text,
        shape: shape.iter(),
    };
    let count = r.number()?;
    let mut markets = Vec::with_capacity(count.min(shape.len()));
    for _ in 0..count {
        markets.push(r.market()?);
    }
    if !r.text.is_empty() || !r.shape.as_slice().is_empty() {
        return Err(Malformed);
    }
    Ok(markets)
}

struct Reader<'a> {
    text: &'a str,
    shape: std::slice::Iter<'a, u32>,
}

impl<'a> Reader<'a> {
    fn number(&mut self) -> Result<usize, Malformed> {
        self.shape.next().map(|n| *n as usize).ok_or(Malformed)
    }

    /// The next text, `units` UTF-16 code units long.
    fn take(&mut self, units: usize) -> Result<String, Malformed> {
        let bytes = self.text.as_bytes();
        // Most text is ASCII: a code unit a byte.
        let end = if bytes.get(..units).is_some_and(<[u8]>::is_ascii) {
            units
        } else {
            let mut left = units;
            let mut end = 0;
            for c in self.text.chars() {
                if left == 0 {
                    break;
                }
                left = left.checked_sub(c.len_utf16()).ok_or(Malformed)?;
                end += c.len_utf8();
            }
            if left > 0 {
                return Err(Malformed);
            }
            end
        };
        let (head, rest) = self.text.split_at(end);
        self.text = rest;
        Ok(head.to_owned())
    }

    /// A text, or `None` for a 0.
    fn optional(&mut self) -> Result<Option<String>, Malformed> {
        match self.number()? {
            0 => Ok(None),
            n => self.take(n - 1).map(Some),
        }
    }

    /// A list's count, or `None` for a 0.
    fn count(&mut self) -> Result<Option<usize>, Malformed> {
        Ok(self.number()?.checked_sub(1))
    }

    fn market(&mut self) -> Result<Market, Malformed> {
        let id = self.number().and_then(|n| self.take(n))?;
        let mut market = Market::new(id);
        for set in OPTIONAL_FIELDS {
            if let Some(value) = self.optional()? {
                set(&mut market, value);
            }
        }
        if let Some(n) = self.count()? {
            let mut outcomes = Vec::with_capacity(n.min(self.shape.len()));
            for _ in 0..n {
                let id = self.number().and_then(|n| self.take(n))?;
                let name = self.optional()?;
                outcomes.push(Outcome { id, name });
            }
            market.outcomes = Some(outcomes);
        }
        if let Some(n) = self.count()? {
            // The prices' keys only: one keyed `Yes` says which side is YES.
            let mut prices = std::collections::BTreeMap::new();
            for _ in 0..n {
                let key = self.number().and_then(|n| self.take(n))?;
                prices.insert(key, serde_json::Value::Null);
            }
            market.current_prices = Some(prices);
        }
        Ok(market)
    }
}

/// What js/venues.js writes for markets given as JSON (its
/// `encodeMarkets`, for the native tests: outcomes as `[id, name]`, the
/// prices' keys as `price_keys`).
#[cfg(test)]
pub(crate) fn encode_json(markets: &[serde_json::Value]) -> (String, Vec<u32>) {
    const FIELDS: [&str; 8] = [
        "platform",
        "title",
        "market_type",
        "event_name",
        "trading_end_at",
        "resolution_date",
        "resolution_source",
        "resolution_criteria",
    ];
    let mut text = String::new();
    let mut shape = vec![markets.len() as u32];
    let mut put = |value: Option<&str>, optional: bool, shape: &mut Vec<u32>| match value {
        Some(v) => {
            text.push_str(v);
            shape.push(v.encode_utf16().count() as u32 + u32::from(optional));
        }
        None => shape.push(0),
    };
    for m in markets {
        put(Some(m["id"].as_str().unwrap_or("")), false, &mut shape);
        for key in FIELDS {
            put(m[key].as_str(), true, &mut shape);
        }
        match m["outcomes"].as_array() {
            Some(outcomes) => {
                shape.push(outcomes.len() as u32 + 1);
                for o in outcomes {
                    put(o[0].as_str(), false, &mut shape);
                    put(o[1].as_str(), true, &mut shape);
                }
            }
            None => shape.push(0),
        }
        match m["price_keys"].as_array() {
            Some(keys) => {
                shape.push(keys.len() as u32 + 1);
                for k in keys {
                    put(k.as_str(), false, &mut shape);
                }
            }
            None => shape.push(0),
        }
    }
    (text, shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What js/venues.js writes for one market, by hand.
    fn encode(fields: &[Option<&str>]) -> (String, Vec<u32>) {
        let mut text = String::new();
        let mut shape = vec![1];
        for (i, f) in fields.iter().enumerate() {
            match f {
                Some(v) => {
                    text.push_str(v);
                    let units = v.encode_utf16().count() as u32;
                    shape.push(if i == 0 { units } else { units + 1 });
                }
                None => shape.push(0),
            }
        }
        shape.extend([0, 0]);
        (text, shape)
    }

    #[test]
    fn any_text_survives_as_it_is() {
        let odd = "a\"b\\c\u{0}d\u{1}\u{1e}\u{1f},e🦀f\u{FFFD}g\u{10FFFF}";
        let (text, shape) = encode(&[
            Some("id-é"),
            Some("platform_a"),
            Some(odd),
            None,
            Some("🏈 Super Bowl"),
            Some("2026-03-03T00:00:00Z"),
            None,
            Some(""),
            Some(odd),
        ]);
        let m = read_markets(&text, &shape).unwrap().remove(0);
        assert_eq!(m.id, "id-é");
        assert_eq!(m.title.as_deref(), Some(odd));
        assert_eq!(m.market_type, None);
        assert_eq!(m.event_name.as_deref(), Some("🏈 Super Bowl"));
        assert_eq!(m.resolution_date, None);
        assert_eq!(m.resolution_source.as_deref(), Some(""));
        assert_eq!(m.resolution_criteria.as_deref(), Some(odd));
        assert_eq!((m.outcomes, m.current_prices), (None, None));
    }

    #[test]
    fn outcomes_and_price_keys() {
        // Two markets: the second with two outcomes and two price keys.
        let text = "abXtok1Yestok2YesNo";
        let shape = [
            2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 3, 4, 4, 4, 0, 3, 3, 2,
        ];
        let markets = read_markets(text, &shape).unwrap();
        assert_eq!(markets[0].id, "a");
        assert_eq!(markets[1].id, "b");
        assert_eq!(markets[1].platform.as_ref().map(|p| p.as_str()), Some("X"));
        let outcomes = markets[1].outcomes.as_ref().unwrap();
        assert_eq!(
            outcomes
                .iter()
                .map(|o| (o.id.as_str(), o.name.as_deref()))
                .collect::<Vec<_>>(),
            [("tok1", Some("Yes")), ("tok2", None)]
        );
        let mut keys: Vec<&String> = markets[1].current_prices.as_ref().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["No", "Yes"]);
    }

    #[test]
    fn lengths_that_disagree_with_the_text_are_refused() {
        let whole: Vec<u32> = [1, 3].into_iter().chain([0; 10]).collect();
        assert_eq!(read_markets("abc", &whole).unwrap()[0].id, "abc");
        // Past the end, text left over, a cut through a surrogate pair, a
        // missing number.
        let long: Vec<u32> = [1, 4].into_iter().chain([0; 10]).collect();
        assert_eq!(read_markets("abc", &long).unwrap_err(), Malformed);
        let short: Vec<u32> = [1, 2].into_iter().chain([0; 10]).collect();
        assert_eq!(read_markets("abc", &short).unwrap_err(), Malformed);
        let half: Vec<u32> = [1, 1].into_iter().chain([0; 10]).collect();
        assert_eq!(read_markets("🦀", &half).unwrap_err(), Malformed);
        assert_eq!(read_markets("abc", &[1, 3]).unwrap_err(), Malformed);
        assert_eq!(read_markets("", &[]).unwrap_err(), Malformed);
    }
}
