//! Recurring events named by their edition ("the 99th Academy Awards",
//! "Super Bowl LXII"), each with the year of its edition zero: the lexer
//! (`lex::resolve_editions`) reads the edition as its
//! year. Moved out of `lexicon.rs` when the thirteenth recall round's
//! rows (the Tour de France, Wimbledon, the World Series, the Open, the
//! Indianapolis 500, the Boston Marathon) took it past 600 lines.

/// A recurring event named by its edition: the words that name it (after
/// the phrase rewrites of `facts`), the year of edition zero, and the
/// years between editions. The year is that of the edition's final day.
pub struct Edition {
    pub words: &'static [&'static str],
    pub year_zero: i64,
    pub every: i64,
    /// Written with Roman numerals after the name ("Super Bowl LXII")
    /// rather than an ordinal before it ("the 99th Academy Awards").
    pub roman: bool,
}

pub const EDITIONS: &[Edition] = &[
    // Super Bowl I was played in January 1967.
    Edition {
        words: &["super", "bowl"],
        year_zero: 1966,
        every: 1,
        roman: true,
    },
    // The 1st Academy Awards were held in 1929; the 98th in 2026.
    Edition {
        words: &["oscars"],
        year_zero: 1928,
        every: 1,
        roman: false,
    },
    // The 68th Annual Grammy Awards were held in 2026.
    Edition {
        words: &["grammy"],
        year_zero: 1958,
        every: 1,
        roman: false,
    },
    // The 89th Masters was played in 2025 (none 1943–45).
    Edition {
        words: &["masters"],
        year_zero: 1936,
        every: 1,
        roman: false,
    },
    // The 151st Kentucky Derby was run in 2025.
    Edition {
        words: &["kentucky", "derby"],
        year_zero: 1874,
        every: 1,
        roman: false,
    },
    // The 69th Eurovision Song Contest was held in 2025 (none in 2020).
    Edition {
        words: &["eurovision"],
        year_zero: 1956,
        every: 1,
        roman: false,
    },
    // The 111th Tour de France was raced in 2024 (none 1915–18,
    // 1940–46): its editions since 1947 are its year less 1913.
    Edition {
        words: &["tour", "de", "france"],
        year_zero: 1913,
        every: 1,
        roman: false,
    },
    // The 137th Wimbledon Championships were played in 2024 (none
    // 1915–18, 1940–45).
    Edition {
        words: &["wimbledon"],
        year_zero: 1887,
        every: 1,
        roman: false,
    },
    // The 120th World Series was played in 2024 (none 1904 and 1994).
    Edition {
        words: &["world", "series"],
        year_zero: 1904,
        every: 1,
        roman: false,
    },
    // The 152nd Open (Championship) was played in 2024; "the 124th US
    // Open" puts "us" between the number and "open", so it is not read.
    Edition {
        words: &["open"],
        year_zero: 1872,
        every: 1,
        roman: false,
    },
    // The 108th Indianapolis 500 was run in 2024.
    Edition {
        words: &["indianapolis"],
        year_zero: 1916,
        every: 1,
        roman: false,
    },
    // The 128th Boston Marathon was run in 2024.
    Edition {
        words: &["boston", "marathon"],
        year_zero: 1896,
        every: 1,
        roman: false,
    },
    // The 77th Primetime Emmy Awards were held in 2025.
    Edition {
        words: &["primetime", "emmy"],
        year_zero: 1948,
        every: 1,
        roman: false,
    },
    Edition {
        words: &["emmys"],
        year_zero: 1948,
        every: 1,
        roman: false,
    },
    // The 78th BAFTA Film Awards were held in 2025.
    Edition {
        words: &["bafta"],
        year_zero: 1947,
        every: 1,
        roman: false,
    },
    Edition {
        words: &["baftas"],
        year_zero: 1947,
        every: 1,
        roman: false,
    },
    // The 153rd Open Championship was played in 2025.
    Edition {
        words: &["open"],
        year_zero: 1872,
        every: 1,
        roman: false,
    },
    // The 109th Indianapolis 500 was run in 2025 (none 1917–18, 1942–45).
    Edition {
        words: &["indianapolis"],
        year_zero: 1916,
        every: 1,
        roman: false,
    },
    // The 1st FIFA Women's World Cup was 1991, every four years.
    Edition {
        words: &["fifa", "women", "world", "cup"],
        year_zero: 1987,
        every: 4,
        roman: false,
    },
    // Written from the organisers' own counts, not from any labelled
    // pair: the 125th U.S. Open (golf) was played in 2025 (the tennis
    // major's editions are not counted by number in titles).
    Edition {
        words: &["us", "open"],
        year_zero: 1900,
        every: 1,
        roman: false,
    },
    // The 107th PGA Championship was played in 2025.
    Edition {
        words: &["pga", "championship"],
        year_zero: 1918,
        every: 1,
        roman: false,
    },
    // The 82nd Golden Globe Awards were held in January 2025.
    Edition {
        words: &["golden", "globe"],
        year_zero: 1943,
        every: 1,
        roman: false,
    },
    Edition {
        words: &["golden", "globes"],
        year_zero: 1943,
        every: 1,
        roman: false,
    },
    // "the 80th Primetime Emmys" as well as "Primetime Emmy Awards".
    Edition {
        words: &["primetime", "emmys"],
        year_zero: 1948,
        every: 1,
        roman: false,
    },
    // The 78th Tony Awards were held in 2025.
    Edition {
        words: &["tony"],
        year_zero: 1947,
        every: 1,
        roman: false,
    },
    Edition {
        words: &["tonys"],
        year_zero: 1947,
        every: 1,
        roman: false,
    },
    // The 67th Daytona 500 was run in 2025.
    Edition {
        words: &["daytona"],
        year_zero: 1958,
        every: 1,
        roman: false,
    },
    // The 150th Preakness Stakes was run in 2025.
    Edition {
        words: &["preakness"],
        year_zero: 1875,
        every: 1,
        roman: false,
    },
    // The 157th Belmont Stakes was run in 2025.
    Edition {
        words: &["belmont"],
        year_zero: 1868,
        every: 1,
        roman: false,
    },
    // The 129th Boston Marathon was run in 2025.
    Edition {
        words: &["boston", "marathon"],
        year_zero: 1896,
        every: 1,
        roman: false,
    },
    // The 78th Cannes Film Festival was held in 2025.
    Edition {
        words: &["cannes"],
        year_zero: 1947,
        every: 1,
        roman: false,
    },
    // The 45th Ryder Cup was played in 2025, every two years.
    Edition {
        words: &["ryder", "cup"],
        year_zero: 1935,
        every: 2,
        roman: false,
    },
    // The 23rd FIFA World Cup is 2026, every four years.
    Edition {
        words: &["fifa", "world", "cup"],
        year_zero: 1934,
        every: 4,
        roman: false,
    },
    Edition {
        words: &["world", "cup"],
        year_zero: 1934,
        every: 4,
        roman: false,
    },
];
