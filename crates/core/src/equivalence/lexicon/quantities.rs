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

/// Every word of [`QUANTITIES`] with the family (index) and member it
/// names, packed as `family << 5 | member` (a family has at most 32
/// members, a mask's bits), sorted by word once, so a text's sorted words
/// meet it in one walk. `(&str, u16)` as `teams::entries_of` sorts too:
/// one sort in the wasm for both.
fn member_words() -> &'static [(&'static str, u16)] {
    static WORDS: std::sync::OnceLock<Vec<(&'static str, u16)>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        // Loops, not iterator adapters: the same index in less wasm.
        let mut words: Vec<(&'static str, u16)> = Vec::new();
        for (family, q) in (0u16..).zip(QUANTITIES) {
            for (m, member) in (0u16..).zip(q.members) {
                for &w in *member {
                    words.push((w, family << 5 | m));
                }
            }
        }
        words.sort_unstable();
        words
    })
}

/// The members of each family of [`QUANTITIES`] a text names, as a bit
/// mask per family (index-aligned): a member a word names, and the
/// generic word's member ([`GENERIC_MEMBER_WORDS`]) only where no other
/// word of the family is written. `sorted` are the text's word lists,
/// each in ascending order: each is walked once beside
/// `member_words`, not searched once per word of the lexicon. Read once
/// per market, so comparing two is a few integer tests.
pub fn quantity_masks(sorted: &[&super::super::word_set::WordSet]) -> Vec<u32> {
    let index = member_words();
    // Per family: the members named by a specific word, and by a generic one.
    let mut masks = vec![(0u32, 0u32); QUANTITIES.len()];
    for words in sorted {
        let mut at = 0;
        for w in words.iter().map(String::as_str) {
            at += index[at..].partition_point(|&(m, _)| m < w);
            for &(_, packed) in index[at..].iter().take_while(|&&(m, _)| m == w) {
                let (specific, generic) = &mut masks[usize::from(packed >> 5)];
                let mask = if GENERIC_MEMBER_WORDS.contains(&w) {
                    generic
                } else {
                    specific
                };
                *mask |= 1 << (packed & 31);
            }
        }
    }
    masks
        .into_iter()
        .map(|(specific, generic)| if specific == 0 { generic } else { specific })
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
