//! The answers as JSON text, written by hand: byte for byte what
//! `serde_json::to_string` wrote of the core's derived `Serialize` (the
//! tests below hold the two equal), without serde_json's serializer and
//! the derive's code in this wasm (docs/benchmarks.md, "Thirteenth round:
//! size"). Every value is an index, a flag, a name of the core's enums or
//! a reason's text: no number but `usize`, so no float printer.

use predmarket_core::equivalence::{Classification, Field, Finding, OutcomeMapping, Pair, Reason};

/// `findPairs`' answer: `[{"a":0,"b":1,"classification":{…}},…]`.
pub fn pairs(pairs: &[Pair]) -> String {
    let mut out = String::from("[");
    for (k, p) in pairs.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str("{\"a\":");
        out.push_str(&p.a.to_string());
        out.push_str(",\"b\":");
        out.push_str(&p.b.to_string());
        out.push_str(",\"classification\":");
        classification(&mut out, &p.classification);
        out.push('}');
    }
    out.push(']');
    out
}

/// `classifyPair`'s answer.
pub fn classified(c: &Classification) -> String {
    let mut out = String::new();
    classification(&mut out, c);
    out
}

/// `netArbitrage`'s first half: the classification and what the fee
/// wasm's pricing reads of it.
pub fn for_gap(c: &Classification, allows_gap: bool, firm: bool) -> String {
    let mut out = String::from("{\"classification\":");
    classification(&mut out, c);
    out.push_str(",\"allows_gap\":");
    out.push_str(if allows_gap { "true" } else { "false" });
    out.push_str(",\"firm\":");
    out.push_str(if firm { "true" } else { "false" });
    out.push('}');
    out
}

fn classification(out: &mut String, c: &Classification) {
    out.push_str("{\"relation\":");
    name(out, c.relation.as_str());
    out.push_str(",\"outcome_mapping\":");
    match c.outcome_mapping {
        Some(OutcomeMapping::YesYes) => name(out, "yes_yes"),
        Some(OutcomeMapping::YesNo) => name(out, "yes_no"),
        None => out.push_str("null"),
    }
    out.push_str(",\"reasons\":");
    list(out, &c.reasons, reason);
    out.push_str(",\"disagreements\":");
    list(out, &c.disagreements, |out, f| name(out, field(*f)));
    out.push_str(",\"vetoes\":");
    list(out, &c.vetoes, |out, r| name(out, r.as_str()));
    out.push('}');
}

fn reason(out: &mut String, r: &Reason) {
    out.push_str("{\"rule\":");
    name(out, r.rule.as_str());
    out.push_str(",\"field\":");
    name(out, field(r.field));
    out.push_str(",\"finding\":");
    name(out, finding(r.finding));
    for (key, side) in [(",\"a\":", &r.a), (",\"b\":", &r.b)] {
        out.push_str(key);
        match side {
            Some(text) => string(out, text),
            None => out.push_str("null"),
        }
    }
    out.push_str(",\"note\":");
    string(out, &r.note);
    out.push('}');
}

fn list<T>(out: &mut String, items: &[T], write: impl Fn(&mut String, &T)) {
    out.push('[');
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

/// A name of the core's enums: snake_case ASCII, nothing to escape.
fn name(out: &mut String, name: &str) {
    out.push('"');
    out.push_str(name);
    out.push('"');
}

/// A string as serde_json writes it: `"` and `\` escaped, the control
/// characters as `\b \t \n \f \r` or `\u00xx`, everything else as it is.
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let n = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[n >> 4]));
                out.push(char::from(HEX[n & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The names `#[serde(rename_all = "snake_case")]` gives [`Field`].
fn field(f: Field) -> &'static str {
    match f {
        Field::MarketType => "market_type",
        Field::Platform => "platform",
        Field::Entities => "entities",
        Field::Date => "date",
        Field::Threshold => "threshold",
        Field::Numbers => "numbers",
        Field::Wording => "wording",
        Field::Negation => "negation",
        Field::OutcomeMapping => "outcome_mapping",
        Field::ResolutionSource => "resolution_source",
        Field::ResolutionCriteria => "resolution_criteria",
        Field::CloseTime => "close_time",
    }
}

/// The names `#[serde(rename_all = "snake_case")]` gives [`Finding`].
fn finding(f: Finding) -> &'static str {
    match f {
        Finding::Agrees => "agrees",
        Finding::Conflicts => "conflicts",
        Finding::Nested => "nested",
        Finding::Opposite => "opposite",
        Finding::Disagrees => "disagrees",
        Finding::Missing => "missing",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use predmarket_core::equivalence::{PairOptions, RuleCode, classify, find_pairs};
    use predmarket_core::models::Market;

    /// Markets from the equivalence fixtures (development and held-out
    /// data, not the unreported test sets), whose pairs and reasons cover
    /// every rule the fixtures reach.
    fn fixture_markets() -> Vec<Market> {
        let mut markets = Vec::new();
        for file in ["held-out", "real-world", "dev-v2", "test-v2"] {
            let path = format!(
                "{}/../../tests/fixtures/equivalence/{file}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            for p in v["pairs"].as_array().unwrap() {
                for side in ["a", "b"] {
                    markets.push(serde_json::from_value(p[side].clone()).unwrap());
                }
            }
        }
        markets
    }

    #[test]
    fn answers_are_serde_jsons_byte_for_byte() {
        let markets = fixture_markets();
        let options = PairOptions {
            include_different: true,
            ..PairOptions::default()
        };
        let found = find_pairs(&markets[..400], &options);
        assert!(found.len() > 100);
        assert_eq!(pairs(&found), serde_json::to_string(&found).unwrap());
        let mut reasons = 0;
        for two in markets.chunks_exact(2) {
            let c = classify(&two[0], &two[1]);
            reasons += c.reasons.len();
            assert_eq!(classified(&c), serde_json::to_string(&c).unwrap());
        }
        assert!(reasons > 1000);
    }

    #[test]
    fn every_name_and_escape_as_serde_json_writes_it() {
        let fields = [
            Field::MarketType,
            Field::Platform,
            Field::Entities,
            Field::Date,
            Field::Threshold,
            Field::Numbers,
            Field::Wording,
            Field::Negation,
            Field::OutcomeMapping,
            Field::ResolutionSource,
            Field::ResolutionCriteria,
            Field::CloseTime,
        ];
        for f in fields {
            assert_eq!(
                format!("\"{}\"", field(f)),
                serde_json::to_string(&f).unwrap()
            );
        }
        for f in [
            Finding::Agrees,
            Finding::Conflicts,
            Finding::Nested,
            Finding::Opposite,
            Finding::Disagrees,
            Finding::Missing,
        ] {
            assert_eq!(
                format!("\"{}\"", finding(f)),
                serde_json::to_string(&f).unwrap()
            );
        }
        let all: String = (0u32..0x80)
            .chain([0xe9, 0x2028, 0x1f600])
            .filter_map(char::from_u32)
            .collect();
        let reason = Reason {
            rule: RuleCode::SubjectDiffers,
            field: Field::Wording,
            finding: Finding::Conflicts,
            a: Some(all.clone()),
            b: None,
            note: all,
        };
        let mut ours = String::new();
        super::reason(&mut ours, &reason);
        assert_eq!(ours, serde_json::to_string(&reason).unwrap());
        let c = Classification {
            relation: predmarket_core::equivalence::Relation::Inverted,
            outcome_mapping: Some(OutcomeMapping::YesNo),
            reasons: vec![reason],
            disagreements: fields.to_vec(),
            vetoes: vec![RuleCode::SubjectDiffers, RuleCode::CutoffDiffers],
        };
        assert_eq!(classified(&c), serde_json::to_string(&c).unwrap());
        assert_eq!(
            for_gap(&c, false, true),
            format!(
                "{{\"classification\":{},\"allows_gap\":false,\"firm\":true}}",
                serde_json::to_string(&c).unwrap()
            )
        );
    }
}
