//! Word lists and templates for realistic titles and names, and the hostile
//! decorations of `--hostile`.

use super::rng::Rng;

pub const FIRST_NAMES: &[&str] = &[
    "Avery", "Jordan", "Mateo", "Priya", "Kenji", "Amara", "Lucas", "Sofia", "Omar", "Hannah",
    "Diego", "Mei", "Noah", "Zara", "Elijah", "Ingrid", "Kwame", "Lena", "Rafael", "Yuki", "Caleb",
    "Nadia", "Felix", "Aisha", "Theo", "Camila", "Jonah", "Freya", "Malik", "Rosa", "Isaac",
    "Leila", "Marcus", "Anya", "Tobias", "Imani", "Hugo", "Selin", "Dante", "Maren",
];

pub const LAST_NAMES: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Castillo",
    "Nakamura",
    "Brennan",
    "Haddad",
    "Kowalski",
    "Osei",
    "Delgado",
    "Fischer",
    "Reyes",
    "Sato",
    "Whitaker",
    "Abara",
    "Novak",
    "Quinn",
    "Petrov",
    "Mbeki",
    "Larsen",
    "Ferreira",
    "Donovan",
    "Iyer",
    "Vasquez",
    "Holloway",
    "Kaur",
    "Marchetti",
    "Adeyemi",
    "Lund",
    "Carver",
    "Tanaka",
    "Rahman",
    "Everett",
    "Solberg",
];

pub const COMPANIES: &[&str] = &[
    "Northwind",
    "Globex",
    "Initech",
    "Hooli",
    "Vandelay Industries",
    "Stark Dynamics",
    "Wayne Logistics",
    "Acme Robotics",
    "Umbrella Analytics",
    "Soylent Foods",
    "Cyberdyne",
    "Tyrell Biotech",
    "Massive Dynamic",
    "Aperture Labs",
    "Oceanic Air",
    "Blue Sun Energy",
];

pub const PRODUCTS: &[&str] = &[
    "a foldable phone",
    "an AI assistant",
    "a self-driving taxi service",
    "a VR headset",
    "a quantum computing cloud",
    "a satellite internet plan",
    "a humanoid robot",
    "a smart ring",
    "a solid-state battery",
    "a pocket translator",
];

pub const COUNTRIES: &[&str] = &[
    "Brazil",
    "Canada",
    "Germany",
    "India",
    "Japan",
    "Kenya",
    "Mexico",
    "Norway",
    "Poland",
    "South Korea",
    "Spain",
    "Australia",
    "Chile",
    "Portugal",
    "Ireland",
    "Ghana",
];

pub const OFFICES: &[&str] = &["presidential", "parliamentary", "mayoral", "senate"];

pub const CITIES: &[&str] = &[
    "New York",
    "Chicago",
    "Miami",
    "Denver",
    "Seattle",
    "Austin",
    "Phoenix",
    "Boston",
    "Atlanta",
    "Los Angeles",
    "Minneapolis",
    "Philadelphia",
    "Nashville",
    "Portland",
];

pub const MOVIES: &[&str] = &[
    "Starfall Rising",
    "The Quiet Harbor",
    "Neon Saints",
    "Glacier Run",
    "Paper Moons",
    "The Last Cartographer",
    "Iron Orchard",
    "Midnight Protocol",
    "Copper Sky",
    "Wildfire Road",
];

pub const SONGS: &[&str] = &[
    "Golden Hour Again",
    "Satellites",
    "Paper Hearts",
    "Velvet Thunder",
    "No Signal",
    "Summer in Reverse",
    "Electric Blue",
    "Slow Burn",
    "Highway Lights",
    "Echo Park",
];

pub const COINS: &[(&str, &str, f64)] = &[
    ("Bitcoin", "BTC", 95_000.0),
    ("Ethereum", "ETH", 3_400.0),
    ("Solana", "SOL", 180.0),
    ("Dogecoin", "DOGE", 0.25),
];

pub const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub fn person(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(FIRST_NAMES), rng.pick(LAST_NAMES))
}

/// `will-bitcoin-close-above-100k`: lowercase ASCII words joined by dashes.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut dash = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
        if out.len() >= 80 {
            break;
        }
    }
    out
}

/// Hostile text for the demo's safety tests: each variant is a kind of
/// input that breaks naive rendering (markup, script, bidi overrides,
/// emoji and combining characters, sheer length).
pub fn hostile(text: &str, variant: u64) -> String {
    match variant % 7 {
        0 => format!("<script>alert(\"xss\")</script>{text}"),
        1 => format!("{text} <img src=x onerror=\"alert(document.cookie)\"><b>bold</b>"),
        2 => format!("\u{202E}{text}\u{202C} 🚀🔥💥"),
        3 => {
            let mut long = format!("{text} ");
            while long.len() < 4_000 {
                long.push_str("very long text without end, ");
            }
            long
        }
        4 => format!(
            "\"{text}\" & 'quotes' \\ back\\slash </div><!-- comment -->\u{200B}z\u{0301}\u{0301}"
        ),
        5 => format!("{text} 👨\u{200D}👩\u{200D}👧\u{200D}👦 \u{200F}مرحبا שלום\u{200E}"),
        _ => format!("<a href=\"javascript:alert(1)\">{text}</a>\n\ttabs\tand\nnewlines"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(
            slugify("Will Bitcoin close above $100,000?"),
            "will-bitcoin-close-above-100-000"
        );
        assert_eq!(slugify("  <b>x</b> "), "b-x-b");
    }

    #[test]
    fn hostile_variants_carry_their_payload() {
        assert!(hostile("t", 0).contains("<script>"));
        assert!(hostile("t", 2).contains('\u{202E}'));
        assert!(hostile("t", 3).len() >= 4_000);
    }
}
