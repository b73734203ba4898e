//! The short codes by which sportsbooks write a game of the major North
//! American leagues ("TB @ WSH", "PHI @ TOR", "MIN @ LAR"), as facts of
//! the field: written from the four leagues' team lists, not from any
//! labelled pair.
//!
//! A code is not a name of one team: "MIN" is the Vikings, the
//! Timberwolves, the Twins and the Wild; "PHI" four teams too. So a code
//! is not rewritten as a team (the entity table's short forms hold only
//! codes of one team, "LAL"); it is read against the other side of the
//! pair: a code stands for the team of its list the other side names,
//! and a team for its code the other side writes. Which league is meant
//! is then the other side's to say.

/// Each code (lower-case, as the facts keep names) with the teams it
/// names, each team by the last word of its nickname as
/// [`super::TEAM_CITIES`] writes it. Sorted by code, unique (a test
/// checks), for binary search. Codes that are English words ("NO", "NE",
/// "NY", "LA", "SA") are left out: a title's "no" is never a team.
pub const TEAM_CODES: &[(&str, &[&str])] = &[
    ("ana", &["ducks"]),
    ("ari", &["cardinals", "diamondbacks"]),
    ("ath", &["athletics"]),
    ("atl", &["falcons", "hawks", "braves"]),
    ("az", &["cardinals", "diamondbacks"]),
    ("bal", &["ravens", "orioles"]),
    ("bkn", &["nets"]),
    ("bos", &["celtics", "sox", "bruins"]),
    ("brk", &["nets"]),
    ("buf", &["bills", "sabres"]),
    ("car", &["panthers", "hurricanes"]),
    ("cbj", &["jackets"]),
    ("cgy", &["flames"]),
    ("cha", &["hornets"]),
    ("chc", &["cubs"]),
    ("chi", &["bears", "bulls", "cubs", "sox", "blackhawks"]),
    ("cho", &["hornets"]),
    ("chw", &["sox"]),
    ("cin", &["bengals", "reds"]),
    ("cle", &["browns", "cavaliers", "guardians"]),
    ("col", &["rockies", "avalanche"]),
    ("cws", &["sox"]),
    ("dal", &["cowboys", "mavericks", "stars"]),
    ("den", &["broncos", "nuggets"]),
    ("det", &["lions", "pistons", "tigers", "wings"]),
    ("edm", &["oilers"]),
    ("fla", &["panthers"]),
    ("gb", &["packers"]),
    ("gnb", &["packers"]),
    ("gs", &["warriors"]),
    ("gsw", &["warriors"]),
    ("hou", &["texans", "rockets", "astros"]),
    ("ind", &["colts", "pacers"]),
    ("jac", &["jaguars"]),
    ("jax", &["jaguars"]),
    ("kan", &["chiefs"]),
    ("kc", &["chiefs", "royals"]),
    ("laa", &["angels"]),
    ("lac", &["chargers", "clippers"]),
    ("lad", &["dodgers"]),
    ("lak", &["kings"]),
    ("lal", &["lakers"]),
    ("lar", &["rams"]),
    ("lv", &["raiders"]),
    ("lvr", &["raiders"]),
    ("mem", &["grizzlies"]),
    ("mia", &["dolphins", "heat", "marlins"]),
    ("mil", &["bucks", "brewers"]),
    ("min", &["vikings", "timberwolves", "twins", "wild"]),
    ("mtl", &["canadiens"]),
    ("njd", &["devils"]),
    ("nop", &["pelicans"]),
    ("nor", &["saints"]),
    ("nsh", &["predators"]),
    ("nwe", &["patriots"]),
    ("nyg", &["giants"]),
    ("nyi", &["islanders"]),
    ("nyj", &["jets"]),
    ("nyk", &["knicks"]),
    ("nym", &["mets"]),
    ("nyr", &["rangers"]),
    ("nyy", &["yankees"]),
    ("oak", &["athletics"]),
    ("okc", &["thunder"]),
    ("orl", &["magic"]),
    ("ott", &["senators"]),
    ("phi", &["eagles", "76ers", "sixers", "phillies", "flyers"]),
    ("pho", &["suns"]),
    ("phx", &["suns"]),
    ("pit", &["steelers", "pirates", "penguins"]),
    ("por", &["blazers"]),
    ("sac", &["kings"]),
    ("sas", &["spurs"]),
    ("sd", &["padres"]),
    ("sea", &["seahawks", "mariners", "kraken"]),
    ("sf", &["49ers", "giants"]),
    ("sfo", &["49ers"]),
    ("sj", &["sharks"]),
    ("sjs", &["sharks"]),
    ("stl", &["cardinals", "blues"]),
    ("tam", &["buccaneers"]),
    ("tb", &["buccaneers", "rays", "lightning"]),
    ("tbl", &["lightning"]),
    ("ten", &["titans"]),
    ("tex", &["rangers"]),
    ("tor", &["raptors", "jays", "leafs"]),
    ("uta", &["jazz", "mammoth"]),
    ("van", &["canucks"]),
    ("veg", &["knights"]),
    ("vgk", &["knights"]),
    ("was", &["commanders", "wizards", "nationals", "capitals"]),
    ("wpg", &["jets"]),
    ("wsh", &["commanders", "wizards", "nationals", "capitals"]),
];

/// The teams `code` names, if it is a code of [`TEAM_CODES`].
fn teams_of_code(code: &str) -> Option<&'static [&'static str]> {
    TEAM_CODES
        .binary_search_by(|(c, _)| c.cmp(&code))
        .ok()
        .and_then(|at| TEAM_CODES.get(at))
        .map(|(_, teams)| *teams)
}

/// `word` (as written or folded: "rams", "ram") is `team`.
fn is(team: &str, word: &str) -> bool {
    team == word || team.strip_suffix('s') == Some(word)
}

/// The codes of the team `word` names (as written or folded), if it is a
/// team of [`TEAM_CODES`]. Asked of words a side leaves unaccounted:
/// most are no team, and none of a code's teams is more than a short
/// scan.
fn codes_of_team(word: &str) -> impl Iterator<Item = &'static str> + '_ {
    TEAM_CODES
        .iter()
        .filter(move |(_, teams)| teams.iter().any(|t| is(t, word)))
        .map(|(code, _)| *code)
}

/// `word` is a code of [`TEAM_CODES`].
pub fn is_code(word: &str) -> bool {
    teams_of_code(word).is_some()
}

/// `word` is a code of [`TEAM_CODES`] or a team one of its codes names.
/// Asked of every name a side leaves unmatched in every candidate pair:
/// one binary search of a sorted list of every code and team (as
/// written and folded), built once.
pub fn is_team_or_code(word: &str) -> bool {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut words: Vec<&'static str> = TEAM_CODES
            .iter()
            .flat_map(|&(code, teams)| std::iter::once(code).chain(teams.iter().copied()))
            .flat_map(|w| std::iter::once(w).chain(w.strip_suffix('s')))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    });
    words.binary_search(&word).is_ok()
}

/// `word` names a team `says` finds on the other side: a code one of
/// whose teams is named there ("MIN" against "vs Vikings"), or a team
/// whose code is written there ("Capitals" against "TB @ WSH").
pub fn code_and_team(word: &str, says: impl Fn(&str) -> bool) -> bool {
    match teams_of_code(word) {
        Some(teams) => teams.iter().any(|t| says(t)),
        None => codes_of_team(word).any(says),
    }
}

/// Two words of one side, each a code or a team, that may name the same
/// team ("PHI" and "76ers"): not the two teams of one game.
pub fn may_be_one_team(x: &str, y: &str) -> bool {
    let teams = |w: &str| -> Vec<&'static str> {
        match teams_of_code(w) {
            Some(teams) => teams.to_vec(),
            None => TEAM_CODES
                .iter()
                .flat_map(|(_, teams)| teams.iter().copied())
                .filter(|t| is(t, w))
                .collect(),
        }
    };
    let of_y = teams(y);
    teams(x).iter().any(|t| of_y.contains(t))
}

#[cfg(test)]
mod tests {
    use super::{TEAM_CODES, code_and_team, is_team_or_code, may_be_one_team};

    #[test]
    fn the_codes_are_sorted_and_unique_for_binary_search() {
        assert!(TEAM_CODES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_code_stands_for_the_team_the_other_side_names_and_no_other() {
        let says = |names: &'static [&'static str]| move |w: &str| names.contains(&w);
        assert!(code_and_team("min", says(&["vikings"])));
        assert!(code_and_team("min", says(&["wild"])));
        assert!(!code_and_team("min", says(&["packers"])));
        // Folded as content words are: "viking" of "Vikings".
        assert!(code_and_team("viking", says(&["min"])));
        assert!(!code_and_team("viking", says(&["gb"])));
        // A word that is no code and no team.
        assert!(!is_team_or_code("no"));
        assert!(!is_team_or_code("points"));
        assert!(is_team_or_code("wsh"));
        assert!(is_team_or_code("ram"));
    }

    #[test]
    fn a_code_and_a_team_of_it_may_be_one_team() {
        assert!(may_be_one_team("phi", "76ers"));
        assert!(!may_be_one_team("phi", "tor"));
        assert!(!may_be_one_team("min", "rams"));
    }
}
