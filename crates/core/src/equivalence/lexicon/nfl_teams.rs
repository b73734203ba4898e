//! The NFL's teams as the reading of its seasons needs them
//! (`read::around::names_nfl_season`): a text naming one is about the
//! NFL, whose seasons are named by the year they start in. Kept apart
//! from `teams.rs`, which is about games that cannot end level and the
//! cities teams are named by.

/// The NFL's teams whose nicknames no team of another major league
/// shares (the Jets, Giants, Cardinals and Panthers are left out): a
/// text naming one is about the NFL (its seasons, see
/// `read::around::names_nfl_season`).
pub const NFL_ONLY_TEAMS: &[&str] = &[
    "bills",
    "dolphins",
    "patriots",
    "ravens",
    "bengals",
    "browns",
    "steelers",
    "texans",
    "colts",
    "jaguars",
    "titans",
    "broncos",
    "chiefs",
    "raiders",
    "chargers",
    "cowboys",
    "eagles",
    "commanders",
    "bears",
    "lions",
    "packers",
    "vikings",
    "falcons",
    "saints",
    "buccaneers",
    "49ers",
    "seahawks",
    "rams",
];

/// The NFL's teams whose nicknames another league's team shares, with
/// the last word of the NFL team's city ("New York Jets", not Winnipeg's).
pub const NFL_SHARED_NICKNAMES: &[(&str, &str)] = &[
    ("york", "jets"),
    ("york", "giants"),
    ("arizona", "cardinals"),
    ("carolina", "panthers"),
];
