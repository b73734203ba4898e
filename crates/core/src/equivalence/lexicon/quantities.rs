//! The measured quantities: families whose members are two questions
//! when two markets name different ones ("core" / headline CPI,
//! "approval" / "disapproval"), read into bit masks once per market.

/// A family of quantities: two questions naming different members of one
/// family measure different things ("core" / headline CPI, "approval" /
/// "disapproval", "seats" / "votes"), whatever else they share.
pub struct Quantity {
    pub family: &'static str,
    /// Each member as the words (folded, or as written) that name it.
    pub members: &'static [&'static [&'static str]],
    /// The member a question means when it names none ("CPI" is the
    /// headline figure, "nominee" the presidential one).
    pub unstated: Option<usize>,
}

const fn q(
    family: &'static str,
    members: &'static [&'static [&'static str]],
    unstated: Option<usize>,
) -> Quantity {
    Quantity {
        family,
        members,
        unstated,
    }
}

pub const QUANTITIES: &[Quantity] = &[
    q(
        "indicator",
        &[
            &["unemployment", "jobless"],
            &["payroll", "nonfarm", "job"],
            &["adp"],
            &["claim"],
            &["cpi", "inflation"],
            &["pce"],
            &["ppi"],
            &["gdp"],
        ],
        None,
    ),
    q("core", &[&["core"], &["headline"]], Some(1)),
    q(
        "period",
        &[&["month", "mom"], &["year", "yoy", "annual"]],
        None,
    ),
    q("estimate", &[&["advance"], &["second"], &["third"]], None),
    q(
        "price point",
        &[
            &["high", "highest"],
            &["low", "lowest"],
            &["open", "opening"],
            &["close", "closing"],
        ],
        None,
    ),
    q(
        "rating",
        &[
            &["approval"],
            &["disapproval"],
            &["favorability", "favorable"],
        ],
        None,
    ),
    q("tally", &[&["seat"], &["vote"]], None),
    q(
        "win condition",
        &[&["majority"], &["most", "plurality"]],
        None,
    ),
    q(
        "position",
        &[
            &["quarterback"],
            &["receiver"],
            &["running"],
            &["tight"],
            &["kicker"],
        ],
        None,
    ),
    q("electorate", &[&["popular"], &["electoral"]], None),
    q(
        "box office",
        &[&["worldwide", "global"], &["domestic", "domestically"]],
        None,
    ),
    q("box office span", &[&["weekend"], &["total"]], None),
    q("fuel", &[&["gas", "gasoline"], &["diesel"]], None),
    q("crude", &[&["wti"], &["brent"]], None),
    q(
        "metal",
        &[
            &["gold"],
            &["silver"],
            &["copper"],
            &["platinum"],
            &["palladium"],
        ],
        None,
    ),
    q("housing", &[&["start"], &["permit"]], None),
    q("deal", &[&["ceasefire"], &["treaty", "peace"]], None),
    q(
        "stat",
        &[
            &["home", "homer"],
            &["stolen", "steal"],
            &["goal"],
            &["assist"],
        ],
        None,
    ),
    q("session", &[&["pole", "qualifying"], &["race"]], None),
    q("standings", &[&["driver"], &["constructor"]], None),
    q("award", &[&["mvp"], &["defensive"]], None),
    q("billing", &[&["supporting"], &[]], Some(1)),
    q("gender", &[&["actress"], &["actor"]], None),
    q("grammy", &[&["album"], &["record"], &["song"]], None),
    q(
        "oscar",
        &[&["picture"], &["director"], &["screenplay"]],
        None,
    ),
    q("division", &[&["men"], &["women"]], None),
    q("disease", &[&["measles"], &["mumps"]], None),
    q("office", &[&["vice"], &[]], Some(1)),
    q("segment", &[&["iphone"], &[]], Some(1)),
    // A dollar figure of a coin or a company is its price unless the
    // market says market cap ("$DOT above $10" / "Polkadot market cap
    // above $10B"); the largest ("most valuable") company is the largest
    // by market cap. A ratio of two assets ("ETH/BTC", read with the word
    // "ratio" by the lexer) is neither's price.
    q(
        "valuation",
        &[
            &["price"],
            &["cap", "capitalization", "largest"],
            &["ratio"],
        ],
        Some(0),
    ),
    q("series", &[&["draw"], &["sweep"], &["game"]], None),
    q(
        "snow",
        &[&["snowfall", "snow"], &["ground", "cover", "white"]],
        None,
    ),
    q("release", &[&["release"], &["announce", "announced"]], None),
    q("clemency", &[&["pardon"], &["commute"]], None),
    q(
        "output",
        &[
            &["deliver", "deliverie", "delivery"],
            &["produce", "production"],
        ],
        None,
    ),
    q("debt limit", &[&["hike"], &["suspend"]], None),
];

/// The members of each family of [`QUANTITIES`] a text names, as a bit
/// mask per family (index-aligned); `says` tells whether the text has a
/// word. Read once per market, so comparing two is a few integer tests.
pub fn quantity_masks(says: impl Fn(&str) -> bool) -> Vec<u32> {
    QUANTITIES
        .iter()
        .map(|q| {
            let named = |generic: bool| {
                q.members
                    .iter()
                    .enumerate()
                    .filter(|(_, words)| {
                        words
                            .iter()
                            .any(|w| GENERIC_MEMBER_WORDS.contains(w) == generic && says(w))
                    })
                    .fold(0, |mask, (i, _)| mask | 1 << i)
            };
            match named(false) {
                0 => named(true),
                specific => specific,
            }
        })
        .collect()
}

/// Words that name their member of a family only when no other word of
/// the family is written: "inflation" is CPI, but "PCE inflation" is PCE.
pub const GENERIC_MEMBER_WORDS: &[&str] = &["inflation"];

/// A word that names a member of a family of [`QUANTITIES`] ("nonfarm",
/// "cpi"): capitalized at a title's start, it is still no subject.
pub fn names_a_quantity(word: &str) -> bool {
    QUANTITIES
        .iter()
        .any(|q| q.members.iter().any(|m| m.contains(&word)))
}

/// The family (index in [`QUANTITIES`]) and member bit of each member
/// `word` names.
pub fn quantity_members_of(word: &str) -> impl Iterator<Item = (usize, u32)> + '_ {
    QUANTITIES.iter().enumerate().flat_map(move |(i, q)| {
        q.members
            .iter()
            .enumerate()
            .filter(move |(_, words)| words.contains(&word))
            .map(move |(m, _)| (i, 1 << m))
    })
}

/// A word for each member of [`QUANTITIES`] the masks name: the keys
/// under which questions that name no subject but a measured quantity
/// ("National average gas price", "US gas prices") meet.
pub fn quantity_keys(masks: &[u32]) -> impl Iterator<Item = &'static str> + '_ {
    QUANTITIES.iter().zip(masks).flat_map(|(q, &mask)| {
        q.members
            .iter()
            .enumerate()
            .filter(move |(m, _)| mask & 1 << m != 0)
            .filter_map(|(_, words)| words.first().copied())
    })
}

/// The families whose member is what a market is about, whatever else it
/// names: a commodity ("COMEX copper settles above $5 per pound" is about
/// copper, COMEX is where it settles).
const COMMODITIES: &[&str] = &["metal", "crude", "fuel"];

/// A word for each commodity (`COMMODITIES`) the masks name: keys
/// under which a market is filed even when it names an exchange, so that
/// it meets a title that names only the commodity.
pub fn commodity_keys(masks: &[u32]) -> impl Iterator<Item = &'static str> + '_ {
    QUANTITIES
        .iter()
        .zip(masks)
        .filter(|(q, _)| COMMODITIES.contains(&q.family))
        .flat_map(|(q, &mask)| {
            q.members
                .iter()
                .enumerate()
                .filter(move |(m, _)| mask & 1 << m != 0)
                .filter_map(|(_, words)| words.first().copied())
        })
}
