//! The words one side may write and the other leave unwritten while both
//! ask one question: filler, no-op words, synonyms, words implied by
//! another (a product's maker, the verb of a count), and the scopes
//! that never are. `rules::unexplained` and the wording rule read them
//! to decide whether each word of a side is accounted for by the other.
//!
//! Entries are general facts of the language of markets (a moneyline IS
//! a bet on the winner; GPT is OpenAI's), never one pair's words.

/// Words that add no predicate of their own: a title that says "rates"
/// or "decision" where the other does not asks the same thing.
pub const FILLER: &[&str] = &[
    "decision",
    "rate",
    "interest",
    "level",
    "official",
    "report",
    "show",
    "regular",
    "meeting",
    "target",
    // "the target range" is the policy rate.
    "range",
    "candidate",
    "season",
];

/// Words that carry nothing a question could differ by, beyond
/// [`FILLER`]: a side that says them where the other does not still asks
/// the same thing ("Bitcoin price above" / "Bitcoin above"), and the
/// boilerplate of rules text ("resolves according to the published
/// figure").
pub const NO_OP: &[&str] = &[
    "price",
    "resolve",
    "resolution",
    "according",
    "published",
    "publish",
    "figure",
    "value",
    "data",
    "source",
    // The predicate of a contest or award a title leaves unwritten
    // ("Jokic NBA MVP 2027?"); a stage or another act is a word of its own.
    "win",
    // A price read from an exchange's candle is the price at its close.
    "candle",
    // "the average US price of ground beef" is the one the BLS
    // publishes; "the EPL table" is the league.
    "average",
    "table",
    // A year's last close is where the price finishes it.
    "finish",
    "finishe",
    // A price on a day is its close or settlement; another price point
    // (high, low, open) is the metric rule's.
    "close",
    "settle",
    "settlement",
    "rating",
    "tournament",
    "ceremony",
    "chart",
    "overall",
    "time",
    "all",
    "role",
    // "enter a recession" is "a recession".
    "enter",
    // What the lexer writes for "hold", "conduct" or "stage" before an
    // event's noun ("hold a referendum": see `lex/light_verbs.rs`): the
    // event takes place, which its noun alone says too. Kept as a word,
    // so the share of words two titles have in common is as before.
    TAKES_PLACE,
    // "inflation come in above 2%" is "inflation above 2%": the verb of a
    // published figure, as Kalshi words its economic markets.
    "come",
    // A company's price is its stock's ("Tesla stock above $500" / "TSLA
    // above $500"); a market cap is another quantity with another unit.
    "stock",
    // The men's event is the one a title names without saying so; a
    // title that says "women's" keeps that word. "re-elected" is elected.
    "men",
    "single",
    "singles",
    "re",
    // "win the title" is "win": the title of what both sides name.
    "title",
    // "still PM on Jan 1" is "PM on Jan 1": a state asked on a day holds
    // or not whatever it was before.
    "still",
    // "ETFs see net inflows above $2B" is "net inflows above $2B".
    "see",
    // "the Cy Young Award" is "the Cy Young"; "Glastonbury Festival" is
    // "Glastonbury".
    "award",
    "festival",
    // Copulas: "become law", "go public", "goes to a runoff" say what
    // their noun or adjective says.
    "become",
    "go",
    "goe",
];

/// Words that widen or narrow where a question is asked: a side that
/// writes "the US" accounts for a side that names no place only when that
/// side writes none of these either.
pub const SCOPES: &[&str] = &[
    "global",
    "globally",
    "worldwide",
    "world",
    "international",
    "domestic",
    "domestically",
];

/// Groups of words (folded) that say one thing: a word one side writes is
/// accounted for when the other writes any word of its group.
pub const SYNONYMS: &[&[&str]] = &[
    &["election", "win"],
    &["added", "payroll", "job"],
    &["weekend", "open", "opening"],
    &["oil", "crude"],
    &["meet", "meeting", "summit"],
    &["married", "marry", "wedding"],
    &["abolish", "eliminate"],
    &["oz", "ounce"],
    &["lb", "pound"],
    &["doz", "dozen"],
    &["held", "hold", "holding"],
    &["headline", "headliner"],
    &["weekly", "week"],
    // The US elections of a midterm year.
    &["midterm", "election"],
    // A moneyline is a bet on the winner of the game.
    &["moneyline", "win", "beat"],
    // Leaving an office, however a platform words it ("out as Speaker",
    // "leave the Speakership", "exit"); not the manner (resigning,
    // being ousted), which is another question.
    &["leave", "out", "exit"],
    // A bill that becomes law is enacted ("signed into law").
    &["law", "enacted", "enact"],
    // Joining an index is being added to it.
    &["join", "added"],
    // The fifteenth round's paraphrases (branch recall19), each seen in
    // two development sets or more and each moving a labelled pair or a
    // candidate of `find_pairs` to its label (see docs/benchmarks.md,
    // "Fifteenth round: windows, dates and paraphrase"; a word listed
    // here is read as bearing a fact, so a class that moves nothing is
    // left out): the warmest year is the hottest;
    &["hottest", "warmest"],
    // a noun and its verb, a verb and its participles;
    &["approval", "approve"],
    &["abolish", "abolished", "eliminated", "eliminating"],
    // a lunar landing is on the Moon;
    &["lunar", "moon"],
    // the ladies' singles are the women's;
    &["ladie", "women"],
    // the whole world's chart.
    &["global", "globally", "worldwide"],
    // The sixteenth round's (branch recall21; each seen in two
    // development sets or more, see docs/benchmarks.md "Sixteenth
    // round"): a chart's top artist is its most-streamed one.
    &["streamed", "top"],
];

/// Ranks of an office written before its name ("Deputy HUD Secretary",
/// "Acting Attorney General"): another office than the name's, never
/// read as a qualifier of the name the other side writes.
pub const OFFICE_RANKS: &[&str] = &[
    "acting",
    "assistant",
    "associate",
    "deputy",
    "former",
    "interim",
    "shadow",
    "under",
    "vice",
];

/// Words accounted for when the other side writes one of the words that
/// imply them: the maker of a product line ("OpenAI" of "GPT-6"), the
/// body that approves or runs what the other names ("the SEC" of an ETF,
/// "FIFA" of the World Cup), the kind of loan a rate is quoted for.
pub const IMPLIED_BY: &[(&str, &[&str])] = &[
    ("openai", &["gpt", "chatgpt", "sora"]),
    ("xai", &["grok"]),
    ("google", &["gemini"]),
    ("anthropic", &["claude"]),
    ("apple", &["iphone", "ipad", "macbook"]),
    ("sec", &["etf"]),
    // Spotify's year-end chart is published as Spotify Wrapped.
    ("wrapped", &["spotify"]),
    ("fifa", &["world"]),
    ("uefa", &["champion"]),
    // A World Cup is contested by national teams; a ceasefire or a deal
    // is agreed; a strike on a country is a military one; a day's
    // temperature, unless the other side says low, is its high.
    ("national", &["cup"]),
    ("agree", &["ceasefire", "deal", "treaty"]),
    ("military", &["strike", "strikes"]),
    ("high", &["temperature"]),
    ("highest", &["temperature"]),
    // Inflation is an annual rate unless a side says monthly; the
    // Premier League of a club is the English one; a metal is quoted by
    // the ounce.
    ("annual", &["inflation"]),
    ("yoy", &["inflation"]),
    ("english", &["premier"]),
    ("ounce", &["gold", "silver", "platinum", "palladium"]),
    ("oz", &["gold", "silver", "platinum", "palladium"]),
    // Yards thrown are passing yards; a carmaker delivers vehicles.
    ("passing", &["throw"]),
    ("vehicle", &["deliver", "deliveries", "delivery"]),
    // A central bank's rate is its policy rate, by whichever name it
    // goes (the RBA's cash rate, the RBI's repo rate, Banxico's benchmark).
    ("policy", &["rate"]),
    // A government's deficit is its budget's (a film's budget is no
    // deficit: without the other side's "deficit", "budget" stays a fact).
    ("budget", &["deficit"]),
    ("cash", &["rate"]),
    ("repo", &["rate"]),
    ("benchmark", &["rate"]),
    // "leave office" where the other side names the office; a party's
    // nomination in a presidential year is the presidential one; an
    // election for seats is a parliamentary one.
    (
        "office",
        &[
            "president",
            "prime",
            "chancellor",
            "governor",
            "mayor",
            "speaker",
        ],
    ),
    ("president", &["nomination"]),
    ("parliamentary", &["seat", "parliament"]),
    // US GDP growth is published real (annualized: `US_GDP_BASIS`, for
    // the US only), each release an estimate (advance, second, third);
    // crude is quoted by the barrel.
    ("real", &["gdp"]),
    ("estimate", &["advance"]),
    ("barrel", &["wti", "brent", "crude"]),
    // WTI is a crude oil (West Texas Intermediate); Brent is another.
    ("crude", &["wti"]),
    ("oil", &["wti"]),
    // "Which party will win …? Democratic": the party is the one the
    // other side names (a list of parties' words, not of pairs).
    (
        "party",
        &[
            "democrat",
            "republican",
            "liberal",
            "conservative",
            "labour",
            "labor",
            "morena",
            "bjp",
        ],
    ),
    // A 30-year mortgage rate is quoted fixed.
    ("fixed", &["mortgage"]),
    // A price index's rate is the inflation it measures ("the PCE price
    // index up 2.5% YoY" / "PCE inflation above 2.5%").
    ("index", &["cpi", "pce", "ppi", "inflation"]),
    // The Emmys, unnamed otherwise, are the Primetime Emmys; the Palme
    // d'Or is Cannes' prize; Blue Origin makes New Glenn and Blue Moon.
    ("primetime", &["emmy"]),
    ("canne", &["palme"]),
    ("cannes", &["palme"]),
    ("origin", &["glenn", "moon"]),
    // A national statistics office publishes its country's figures, and
    // names that country ("UK CPI (ONS)" / "ONS CPI", "Australia jobless
    // rate" / "the ABS report").
    ("ons", &["uk"]),
    ("uk", &["ons"]),
    ("abs", &["australia"]),
    ("australia", &["abs"]),
    ("bls", &["us"]),
    ("destatis", &["germany"]),
    ("germany", &["destatis"]),
    ("insee", &["france"]),
    ("france", &["insee"]),
    ("statcan", &["canada"]),
    ("canada", &["statcan"]),
    ("istat", &["italy"]),
    ("italy", &["istat"]),
    // Control of the House or the Senate in a midterm year is decided at
    // the midterms (the year both sides must still agree on).
    ("midterm", &["house", "senate"]),
    // A US executive department's head is its secretary ("remain
    // Treasury Secretary" / "leave the Treasury"); a secretary heads a
    // department ("Commerce Secretary" / "the Commerce Department").
    (
        "secretary",
        &[
            "treasury",
            "hhs",
            "dhs",
            "homeland",
            "commerce",
            "pentagon",
            "department",
            "usda",
            "hud",
        ],
    ),
    ("department", &["secretary"]),
    // A TV award's category is a series' ("Outstanding Comedy Series" /
    // "Best Comedy" at the Emmys); a stock index's name is the index's
    // ("CAC 40 index" / "CAC 40"); a central bank's monetary policy
    // committee is where its rate is set ("lowers the repo rate at its
    // March MPC meeting" / "cut the repo rate in March"); a film's money
    // at the box office is its gross ("opening weekend gross above $150M"
    // / "3-day opening over $150M").
    ("serie", &["comedy", "drama"]),
    (
        "index",
        &[
            "cac", "dax", "ftse", "nikkei", "kospi", "asx", "tsx", "stoxx", "sensex", "nifty",
            "ibovespa", "russell", "nasdaq", "hang",
        ],
    ),
    ("mpc", &["rate"]),
    // A Grand Prix is Formula 1's unless a side names another series.
    ("f1", &["prix"]),
    ("gross", &["opening", "weekend", "worldwide"]),
    // "leave her post as Chief of Staff", "leave office as Prime
    // Minister": the post is the office the other side names.
    (
        "post",
        &[
            "president",
            "prime",
            "chancellor",
            "governor",
            "mayor",
            "speaker",
            "secretary",
            "chief",
            "ceo",
            "chair",
            "chairman",
            "leader",
            "minister",
            "dni",
            "director",
            "commissioner",
        ],
    ),
];

/// Whether `word` is implied by a word `says` finds on the other side.
pub fn implied_by(word: &str, says: impl Fn(&str) -> bool) -> bool {
    IMPLIED_BY
        .iter()
        .any(|&(w, by)| w == word && by.iter().any(|b| says(b)))
}

/// The verbs and nouns of a count ("score 25+ points", "record 121
/// RBIs", "total points", "win 100 games" / "100 wins"): the line's side
/// writes none ("Over 24.5 Points"). Accounted for only when both sides
/// state a threshold of a counted quantity.
pub const COUNT_VERBS: &[&str] = &[
    "score", "scored", "record", "recorded", "tally", "throw", "total", "game",
];

/// A scope that is a measure's default (an opening weekend's gross is
/// domestic unless it says otherwise): accounted for when the other side
/// writes a word of the measure and no scope word of [`SCOPES`].
pub const DEFAULT_SCOPES: &[(&[&str], &[&str])] =
    &[(&["domestic", "domestically"], &["opening", "gross", "box"])];

/// The basis of US GDP growth as the BEA publishes its headline figure
/// (seasonally adjusted, at an annual rate: "SAAR"): accounted for when
/// both sides name GDP and one names the US or the BEA. Not for other
/// countries, whose headline growth is often quarter on quarter, not
/// annualized (the UK's, the euro area's).
pub const US_GDP_BASIS: &[&str] = &["adjusted", "annualized", "saar", "seasonally"];

/// The words of a sportsbook's line ("Cubs -1.5 Run Line") and of the
/// margin it asks ("win by 2 or more runs"): accounted for on both sides
/// when one's line is read as the other's margin.
pub const LINE_WORDS: &[&str] = &["point", "run", "goal", "line", "spread"];

/// Words by which a market says its count includes overtime: what a
/// North American sportsbook's line ("Over 44.5 Total Points", "-3.5")
/// counts without saying so (soccer's extra time is not overtime).
pub const OVERTIME_WORDS: &[&str] = &["overtime", "ot", "included", "include", "including", "incl"];

/// Verbs of a move the threshold states ("PCE index up more than 2.5%",
/// "rise above"): accounted for when both sides state a threshold in the
/// same direction, upward for the first list, downward for the second.
pub const DIRECTION_VERBS: (&[&str], &[&str]) = (
    &["up", "rise", "climb", "increase"],
    &["down", "fall", "decline", "drop"],
);

/// Words of a price reached at any time in a window ("trade at $1 or
/// higher at any point in 2027" / "hit $1.00 before 2028"): accounted
/// for when both sides state a threshold and neither names a price point
/// (a close, an open, a high or a low), which is another question.
pub const ANY_TIME_WORDS: &[&str] = &["trade", "point"];

/// The word the lexer writes for a verb of [`LIGHT_VERBS`].
pub const TAKES_PLACE: &str = "takes-place";

/// Verbs that only say an event takes place ("hold a referendum",
/// "conduct a nuclear test", "a poll held in 2028"), as written (every
/// inflection): read by the lexer before a noun of
/// [`EVENT_NOUNS`], where they add nothing to the event's own noun, and
/// written as [`TAKES_PLACE`], a word of [`NO_OP`]. Not
/// "hold rates" or "hold the seat", whose "hold" is a predicate.
pub const LIGHT_VERBS: &[&str] = &[
    "conduct",
    "conducted",
    "conducting",
    "conducts",
    "held",
    "hold",
    "holding",
    "holds",
    "stage",
    "staged",
    "stages",
    "staging",
];

/// Nouns of an event that takes place or does not (a vote, a meeting, a
/// test), after which a verb of [`LIGHT_VERBS`] says only that it does.
pub const EVENT_NOUNS: &[&str] = &[
    "caucus",
    "caucuses",
    "debate",
    "debates",
    "election",
    "elections",
    "hearing",
    "hearings",
    "meeting",
    "meetings",
    "plebiscite",
    "poll",
    "primaries",
    "primary",
    "referendum",
    "referendums",
    "runoff",
    "summit",
    "test",
    "tests",
    "vote",
    "votes",
];

/// The words of a soccer match's full time ("90 minutes plus stoppage
/// time", "regulation time"), as a rules text writes them: the default
/// of every market on a soccer match (result, totals, handicaps, both
/// teams to score) on the sportsbooks and the prediction platforms, so a
/// side that does not say it means it. Extra time and penalties are not
/// among them: a side that counts those still says so, and that word
/// stays a fact.
pub const SOCCER_FULL_TIME_WORDS: &[&str] = &[
    "added",
    "injury",
    "minute",
    "regulation",
    "stoppage",
    "time",
];

/// The words by which a rules text says a game's count is its final
/// score, of both teams together ("Combined final score of both teams"):
/// what a total or a margin on one game means on every platform.
/// Accounted for only where both sides count one game's score (see
/// `rules::unexplained`); a team's own total says "team total" in its
/// title, which is read there.
pub const GAME_SCORE_WORDS: &[&str] = &["both", "combined", "final", "score", "team", "teams"];

/// The words by which a rules text names the game a title names ("win
/// the game, including overtime"; "the final result including overtime
/// and shootout"): accounted for, in the rules text only, where the game
/// cannot end level (`rules::predicate::game_without_draws`), whose
/// result is then the one thing both sides ask.
pub const GAME_RESULT_WORDS: &[&str] = &["final", "game", "result"];

/// Crypto's word for one coin's market cap passing another's ("Solana
/// flips Ethereum by market cap", "the flippening"): accounted for where
/// both sides measure a market cap and the other writes an upward
/// comparison of the two ("SOL market cap greater than ETH market
/// cap"), and neither a downward one. "Flip a state" (an election) is
/// read nowhere else.
pub const FLIP_WORDS: &[&str] = &["flip", "flips", "flipped", "flippening"];

/// A sportsbook's "Both Teams To Score": the teams are the two the other
/// side names ("will both Liverpool and Man City score"). Accounted for
/// where both sides write "both" and "score".
pub const BOTH_TEAMS_WORDS: &[&str] = &["team", "teams"];
