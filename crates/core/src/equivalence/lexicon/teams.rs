//! The teams of the major North American leagues as facts of the field:
//! which leagues' games cannot end level, and the city each team is
//! named by ("Green Bay wins" is the Packers winning, "vs Dallas" is
//! against the Cowboys).

/// The teams of a league whose games cannot end level (the NBA: a tie
/// goes to overtime; MLB: to extra innings). A game between two of them,
/// named on both sides, makes "win" and "lose" each other's negation.
/// Names shared with a team of a league that can end level (the NFL's
/// Giants and Cardinals, the NHL's Rangers, soccer's Reds and Pirates)
/// are left out.
pub const NO_DRAW_TEAMS: &[&str] = &[
    // MLB.
    "yankees",
    "orioles",
    "rays",
    "jays",
    "twins",
    "guardians",
    "astros",
    "mariners",
    "angels",
    "dodgers",
    "padres",
    "rockies",
    "diamondbacks",
    "mets",
    "phillies",
    "braves",
    "marlins",
    "brewers",
    "cubs",
    // The NBA.
    "lakers",
    "celtics",
    "knicks",
    "nets",
    "76ers",
    "sixers",
    "raptors",
    "bulls",
    "cavaliers",
    "pistons",
    "pacers",
    "bucks",
    "hawks",
    "hornets",
    "heat",
    "magic",
    "wizards",
    "nuggets",
    "timberwolves",
    "thunder",
    "blazers",
    "jazz",
    "warriors",
    "clippers",
    "suns",
    "kings",
    "mavericks",
    "rockets",
    "grizzlies",
    "pelicans",
    "spurs",
];

/// Every MLB team by the last word of its nickname: a game between two of
/// them cannot end level (extra innings), where one of them is named by
/// a word only baseball uses ([`MLB_ONLY_NAMES`]); the others' names
/// ("Tigers", "Rangers", "Giants", "Cardinals") are other leagues' too.
pub const MLB_TEAMS: &[&str] = &[
    "angels",
    "astros",
    "athletics",
    "braves",
    "brewers",
    "cardinals",
    "cubs",
    "diamondbacks",
    "dodgers",
    "giants",
    "guardians",
    "jays",
    "mariners",
    "marlins",
    "mets",
    "nationals",
    "orioles",
    "padres",
    "phillies",
    "pirates",
    "rangers",
    "rays",
    "reds",
    "rockies",
    "royals",
    "sox",
    "tigers",
    "twins",
    "yankees",
];

/// The names of [`MLB_TEAMS`] no other league's team or college has.
pub const MLB_ONLY_NAMES: &[&str] = &[
    "astros",
    "athletics",
    "braves",
    "brewers",
    "diamondbacks",
    "dodgers",
    "guardians",
    "jays",
    "mariners",
    "marlins",
    "mets",
    "nationals",
    "orioles",
    "padres",
    "phillies",
    "rockies",
    "sox",
    "twins",
    "yankees",
];

/// NHL teams: a game can end level after sixty minutes, but a
/// sportsbook's moneyline on it counts overtime and the shootout, so two
/// moneylines on a game between two of them (named on both sides) back
/// the two sides of one result. Names shared with a team of a league
/// that can end level (the NFL's Panthers and Jets) or with a coin
/// (Avalanche) are left out.
pub const SHOOTOUT_TEAMS: &[&str] = &[
    "leafs",
    "bruins",
    "canadiens",
    "senators",
    "sabres",
    "wings",
    "lightning",
    "hurricanes",
    "capitals",
    "flyers",
    "penguins",
    "islanders",
    "devils",
    "jackets",
    "blackhawks",
    "predators",
    "blues",
    "wild",
    "stars",
    "oilers",
    "flames",
    "canucks",
    "kraken",
    "sharks",
    "ducks",
    "knights",
];

/// The NHL teams [`SHOOTOUT_TEAMS`] leaves out because another league's
/// team has their name, each with the city or state that names only the
/// NHL one: the New York Rangers (not Texas's baseball Rangers, nor
/// Glasgow's football club), the Florida Panthers (not Carolina's NFL
/// team), the Winnipeg Jets (not New York's), the Los Angeles Kings (not
/// Sacramento's) and the Colorado Avalanche (not the coin).
pub const SHOOTOUT_TEAMS_BY_CITY: &[(&str, &[&str])] = &[
    ("rangers", &["new", "york"]),
    ("panthers", &["florida"]),
    ("jets", &["winnipeg"]),
    ("kings", &["los", "angeles"]),
    ("avalanche", &["colorado"]),
];

/// Each team (the last word of its name, as written) and the words of the
/// city or state it is named by. Cities with two teams in one league (New
/// York, Los Angeles, Chicago's baseball) are left out: there the city
/// names no one team.
pub const TEAM_CITIES: &[(&str, &[&str])] = &[
    // The NFL.
    ("packers", &["green", "bay"]),
    ("bengals", &["cincinnati"]),
    ("cowboys", &["dallas"]),
    ("steelers", &["pittsburgh"]),
    ("ravens", &["baltimore"]),
    ("bears", &["chicago"]),
    ("lions", &["detroit"]),
    ("vikings", &["minnesota"]),
    ("eagles", &["philadelphia"]),
    ("commanders", &["washington"]),
    ("saints", &["new", "orleans"]),
    ("falcons", &["atlanta"]),
    ("buccaneers", &["tampa", "bay"]),
    ("cardinals", &["arizona"]),
    ("49ers", &["san", "francisco"]),
    ("seahawks", &["seattle"]),
    ("chiefs", &["kansas", "city"]),
    ("broncos", &["denver"]),
    ("raiders", &["las", "vegas"]),
    ("browns", &["cleveland"]),
    ("texans", &["houston"]),
    ("colts", &["indianapolis"]),
    ("jaguars", &["jacksonville"]),
    ("titans", &["tennessee"]),
    ("bills", &["buffalo"]),
    ("dolphins", &["miami"]),
    ("patriots", &["new", "england"]),
    // The NBA.
    ("bucks", &["milwaukee"]),
    ("pacers", &["indiana"]),
    ("pistons", &["detroit"]),
    ("cavaliers", &["cleveland"]),
    ("celtics", &["boston"]),
    ("76ers", &["philadelphia"]),
    ("raptors", &["toronto"]),
    ("heat", &["miami"]),
    ("magic", &["orlando"]),
    ("hawks", &["atlanta"]),
    ("hornets", &["charlotte"]),
    ("wizards", &["washington"]),
    ("bulls", &["chicago"]),
    ("nuggets", &["denver"]),
    ("timberwolves", &["minnesota"]),
    ("thunder", &["oklahoma", "city"]),
    ("blazers", &["portland"]),
    ("jazz", &["utah"]),
    ("warriors", &["golden", "state"]),
    ("suns", &["phoenix"]),
    ("kings", &["sacramento"]),
    ("mavericks", &["dallas"]),
    ("rockets", &["houston"]),
    ("grizzlies", &["memphis"]),
    ("pelicans", &["new", "orleans"]),
    ("spurs", &["san", "antonio"]),
    // MLB (Boston's are the Red Sox).
    ("brewers", &["milwaukee"]),
    ("phillies", &["philadelphia"]),
    ("braves", &["atlanta"]),
    ("marlins", &["miami"]),
    ("nationals", &["washington"]),
    ("reds", &["cincinnati"]),
    ("pirates", &["pittsburgh"]),
    ("cardinals", &["st", "louis"]),
    ("rockies", &["colorado"]),
    ("diamondbacks", &["arizona"]),
    ("padres", &["san", "diego"]),
    ("giants", &["san", "francisco"]),
    ("mariners", &["seattle"]),
    ("astros", &["houston"]),
    ("rangers", &["texas"]),
    ("twins", &["minnesota"]),
    ("tigers", &["detroit"]),
    ("guardians", &["cleveland"]),
    ("royals", &["kansas", "city"]),
    ("orioles", &["baltimore"]),
    ("rays", &["tampa", "bay"]),
    ("jays", &["toronto"]),
    ("sox", &["boston"]),
    // The NHL.
    ("leafs", &["toronto"]),
    ("bruins", &["boston"]),
    ("canadiens", &["montreal"]),
    ("senators", &["ottawa"]),
    ("sabres", &["buffalo"]),
    ("wings", &["detroit"]),
    ("lightning", &["tampa", "bay"]),
    ("panthers", &["florida"]),
    ("hurricanes", &["carolina"]),
    ("capitals", &["washington"]),
    ("flyers", &["philadelphia"]),
    ("penguins", &["pittsburgh"]),
    ("devils", &["new", "jersey"]),
    ("jackets", &["columbus"]),
    ("blackhawks", &["chicago"]),
    ("predators", &["nashville"]),
    ("blues", &["st", "louis"]),
    ("wild", &["minnesota"]),
    ("stars", &["dallas"]),
    ("jets", &["winnipeg"]),
    ("oilers", &["edmonton"]),
    ("flames", &["calgary"]),
    ("canucks", &["vancouver"]),
    ("kraken", &["seattle"]),
    ("sharks", &["san", "jose"]),
    ("ducks", &["anaheim"]),
    ("knights", &["vegas"]),
];

/// Two-word nicknames by their first word ("Blue" of "Toronto Blue
/// Jays"), each with the last word [`TEAM_CITIES`] writes: the first
/// word names the team only beside the last.
pub const NICKNAME_LEADS: &[(&str, &str)] = &[
    ("blue", "jackets"),
    ("blue", "jays"),
    ("golden", "knights"),
    ("maple", "leafs"),
    ("red", "sox"),
    ("red", "wings"),
    ("trail", "blazers"),
    ("white", "sox"),
];

/// `word` is the first word of a two-word nickname whose last word
/// `x_says` finds beside it, and that last word is accounted for
/// (`accounted`): "Blue" of "Blue Jays" against "Toronto".
pub fn nickname_lead(
    word: &str,
    x_says: impl Fn(&str) -> bool,
    accounted: impl Fn(&str) -> bool,
) -> bool {
    NICKNAME_LEADS
        .iter()
        .any(|&(lead, last)| lead == word && x_says(last) && accounted(last))
}

/// The teams of the cities [`TEAM_CITIES`] leaves out because they have
/// two teams in one league (Los Angeles, New York, Chicago's baseball),
/// each with its city. The city names one of them only in a game whose
/// other team both sides name ([`team_of_a_shared_city`]).
pub const SHARED_CITY_TEAMS: &[(&str, &[&str])] = &[
    ("rams", &["los", "angeles"]),
    ("chargers", &["los", "angeles"]),
    ("lakers", &["los", "angeles"]),
    ("clippers", &["los", "angeles"]),
    ("dodgers", &["los", "angeles"]),
    ("angels", &["los", "angeles"]),
    ("kings", &["los", "angeles"]),
    ("galaxy", &["los", "angeles"]),
    ("giants", &["new", "york"]),
    ("jets", &["new", "york"]),
    ("knicks", &["new", "york"]),
    ("nets", &["brooklyn"]),
    ("yankees", &["new", "york"]),
    ("mets", &["new", "york"]),
    ("rangers", &["new", "york"]),
    ("islanders", &["new", "york"]),
    ("cubs", &["chicago"]),
    ("sox", &["chicago"]),
];

/// The first word a team of [`SHARED_CITY_TEAMS`] needs where its last
/// word is another city's team too: "Sox" is Chicago's only as the White
/// Sox (the Red Sox are Boston's, [`TEAM_CITIES`]).
const SHARED_CITY_LEADS: &[(&str, &str)] = &[("sox", "white")];

/// Either side writes the first word of another team with `team`'s last
/// word ("Red" of "Red Sox" against Chicago's White Sox).
fn another_teams_lead(team: &str, says: &[&dyn Fn(&str) -> bool]) -> bool {
    SHARED_CITY_LEADS.iter().any(|&(last, lead)| {
        last == team
            && NICKNAME_LEADS
                .iter()
                .any(|&(other, l)| l == last && other != lead && says.iter().any(|s| s(other)))
    })
}

/// `word` is a team of a city with two teams in one league
/// (`SHARED_CITY_TEAMS`) whose city `y_says` finds (or that city,
/// against the team `y_says` finds), in a game whose
/// other team both sides name, by its name or its city ("Vikings @
/// Rams" / "Minnesota at Los Angeles" on one day: Minnesota plays one
/// game that day, so Los Angeles is the Rams). The caller checks that
/// both sides state the day.
pub fn team_of_a_shared_city(
    word: &str,
    x_says: impl Fn(&str) -> bool,
    y_says: impl Fn(&str) -> bool,
) -> bool {
    // Asked of every name a side leaves unmatched in every candidate
    // pair: most are no word of these teams and cities.
    if !of_a_shared_city(word) {
        return false;
    }
    let is = |name: &str| name == word || name.strip_suffix('s') == Some(word);
    // The team written by `x` and its city by `y`, or the city (a word
    // of it, or all of it: "new york") by `x` and the team by `y`.
    let of_city = |city: &[&str]| city.contains(&word) || word.split(' ').eq(city.iter().copied());
    let Some(&(team, _)) = SHARED_CITY_TEAMS.iter().find(|&&(t, city)| {
        (is(t) && city.iter().all(|w| y_says(w)))
            || (of_city(city) && (y_says(t) || t.strip_suffix('s').is_some_and(&y_says)))
    }) else {
        return false;
    };
    if another_teams_lead(team, &[&x_says, &y_says]) {
        return false;
    }
    let names = |says: &dyn Fn(&str) -> bool, o: &str, o_city: &[&str]| {
        says(o) || o_city.iter().all(|w| says(w))
    };
    TEAM_CITIES
        .iter()
        .any(|&(o, o_city)| o != team && names(&x_says, o, o_city) && names(&y_says, o, o_city))
}

/// `word` (a name or a content word of one side) is a team whose city
/// `says` finds written on the other side, or a word of a city whose team
/// it finds there, so that either names the other.
pub fn city_stands_for_team(word: &str, says: impl Fn(&str) -> bool) -> bool {
    // Content words are folded ("packer", "dalla"): either spelling.
    let is = |name: &str| name == word || name.strip_suffix('s') == Some(word);
    // Asked of many words of many pairs: most are no team or city word,
    // and a team or city word is one of a few entries, not all of them.
    entries_of(word).iter().any(|&(_, entry)| {
        let (team, city) = TEAM_CITIES[usize::from(entry)];
        (is(team) && city.iter().all(|w| says(w)))
            || (city.iter().any(|c| is(c))
                && (says(team) || team.strip_suffix('s').is_some_and(&says)))
    })
}

/// `word` is a team or a city word of [`TEAM_CITIES`] (either spelling):
/// [`city_stands_for_team`] is false for any other word, whatever the
/// other side writes.
pub fn may_stand_for_a_team(word: &str) -> bool {
    !entries_of(word).is_empty()
}

/// `word` is one of the words [`team_of_a_shared_city`] reads: it is
/// false for any other.
pub fn of_a_shared_city(word: &str) -> bool {
    shared_city_words().binary_search(&word).is_ok()
}

/// `word` (as written or folded: "lakers", "laker") names a team of
/// [`NO_DRAW_TEAMS`], [`SHOOTOUT_TEAMS`] or [`TEAM_CITIES`]. Asked of
/// many words of many pairs: a binary search of one sorted list, built
/// once.
pub fn is_team(word: &str) -> bool {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut words: Vec<&'static str> = teams()
            .flat_map(|w| std::iter::once(w).chain(w.strip_suffix('s')))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    });
    words.binary_search(&word).is_ok()
}

/// Every team of [`NO_DRAW_TEAMS`], [`SHOOTOUT_TEAMS`] and
/// [`TEAM_CITIES`].
fn teams() -> impl Iterator<Item = &'static str> {
    NO_DRAW_TEAMS
        .iter()
        .chain(SHOOTOUT_TEAMS)
        .chain(TEAM_CITIES.iter().map(|(team, _)| team))
        .copied()
}

/// `word` is a team that one side names beside an opponent both sides
/// name (one of `opponents`, the other side's words, that `both_name`),
/// on a day both name: the other team of that game, which a player's
/// line against the opponent ("Doncic 31+ points vs Nuggets") leaves
/// unwritten. A game has two teams, so the team is no other subject.
pub fn other_team_of_the_game<'w>(
    word: &str,
    mut opponents: impl Iterator<Item = &'w str>,
    both_name: impl Fn(&str) -> bool,
) -> bool {
    let same_team = |t: &str| t == word || t.strip_suffix('s') == Some(word);
    is_team(word) && opponents.any(|t| !same_team(t) && is_team(t) && both_name(t))
}

/// `word` is a team that one side names beside an opponent it names too,
/// where the other side names that opponent by its city, on a day both
/// name ("Mahomes Over 274.5 Passing Yards - Bills @ Chiefs" / "Mahomes
/// 275+ passing yards vs Buffalo"): the other team of that game, as in
/// [`other_team_of_the_game`]. `cities` are the other side's words,
/// `x_names` and `y_names` what each side writes.
pub fn other_team_against_a_city<'w>(
    word: &str,
    mut cities: impl Iterator<Item = &'w str>,
    x_names: impl Fn(&str) -> bool,
    y_names: impl Fn(&str) -> bool,
) -> bool {
    let same_team = |t: &str| t == word || t.strip_suffix('s') == Some(word);
    is_team(word)
        && cities.any(|c| {
            entries_of(c).iter().any(|&(_, entry)| {
                let (team, city) = TEAM_CITIES[usize::from(entry)];
                city.contains(&c)
                    && !same_team(team)
                    && (x_names(team) || team.strip_suffix('s').is_some_and(&x_names))
                    && city.iter().all(|w| y_names(w))
            })
        })
}

/// Every team of [`SHARED_CITY_TEAMS`] (as written and without its final
/// `s`), every word of its city and the whole city ("new york"), sorted
/// once for a binary search.
fn shared_city_words() -> &'static [&'static str] {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<&'static str> = SHARED_CITY_TEAMS
            .iter()
            .flat_map(|&(team, city)| {
                std::iter::once(team)
                    .chain(team.strip_suffix('s'))
                    .chain(city.iter().copied())
            })
            .chain(["los angeles", "new york"])
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// Every word of [`TEAM_CITIES`], as written and without its final `s`
/// (as content words are folded), with the entry it is a word of, sorted
/// once: the entries a word may stand for are a binary search of a few
/// string comparisons away, with no hashing and no scan of the table.
fn entries_of(word: &str) -> &'static [(&'static str, u16)] {
    static WORDS: std::sync::OnceLock<Vec<(&'static str, u16)>> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut words: Vec<(&'static str, u16)> = (0u16..)
            .zip(TEAM_CITIES)
            .flat_map(|(entry, &(team, city))| {
                std::iter::once(team)
                    .chain(city.iter().copied())
                    .flat_map(|w| std::iter::once(w).chain(w.strip_suffix('s')))
                    .map(move |w| (w, entry))
            })
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    });
    let start = words.partition_point(|&(w, _)| w < word);
    let end = start + words[start..].partition_point(|&(w, _)| w == word);
    &words[start..end]
}

#[cfg(test)]
mod tests {
    use super::{TEAM_CITIES, entries_of};

    /// The index gives each word exactly the entries a scan of the table
    /// finds it in (as a team or a city word, either spelling).
    #[test]
    fn the_index_finds_what_the_scan_finds() {
        let mut asked = 0;
        for &(team, city) in TEAM_CITIES {
            for word in std::iter::once(team)
                .chain(city.iter().copied())
                .flat_map(|w| [w, w.strip_suffix('s').unwrap_or(w), "x"])
            {
                let is = |name: &str| name == word || name.strip_suffix('s') == Some(word);
                let scanned: Vec<u16> = (0u16..)
                    .zip(TEAM_CITIES)
                    .filter(|(_, (t, c))| is(t) || c.iter().any(|w| is(w)))
                    .map(|(entry, _)| entry)
                    .collect();
                let indexed: Vec<u16> = entries_of(word).iter().map(|&(_, e)| e).collect();
                assert_eq!(indexed, scanned, "{word}");
                asked += 1;
            }
        }
        assert!(asked > 300, "{asked}");
    }
}
