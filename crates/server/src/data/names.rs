//! The wire ids of platforms and leagues.
//!
//! Inside the server a platform or league is known by its label of
//! `docs/spec/service.md` (`platform_a`, `league_a`). By default the
//! wire carries the labels too. With `--rename-ids` every platform and
//! league id on the wire (and in parameters) is a name unrelated to the
//! labels, and display names follow: the public service's ids are not the
//! labels either (`docs/spec/public-service-facts.md`, "Identifiers are
//! not the labels"), so test suites run against a renamed server prove that
//! no client, package or demo code depends on them.

/// (label, renamed id, renamed display name)
const PLATFORMS: [(&str, &str, &str); 8] = [
    ("platform_a", "kestrel", "Kestrel"),
    ("platform_b", "heron", "Heron"),
    ("platform_c", "osprey", "Osprey"),
    ("platform_d", "plover", "Plover"),
    ("platform_e", "wren", "Wren"),
    ("platform_f", "merlin", "Merlin"),
    ("platform_g", "tern", "Tern"),
    ("platform_h", "lark", "Lark"),
];

/// (label, renamed id)
const LEAGUES: [(&str, &str); 4] = [
    ("league_a", "ridge"),
    ("league_b", "cove"),
    ("league_c", "mesa"),
    ("league_d", "fjord"),
];

/// Which spelling of the ids this server speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Names {
    renamed: bool,
}

impl Names {
    pub fn new(renamed: bool) -> Self {
        Self { renamed }
    }

    pub fn is_renamed(self) -> bool {
        self.renamed
    }

    /// The wire id of a platform or league label; any other text as it is.
    pub fn wire(self, label: &str) -> &str {
        if !self.renamed {
            return label;
        }
        PLATFORMS
            .iter()
            .map(|(l, id, _)| (*l, *id))
            .chain(LEAGUES.iter().copied())
            .find(|(l, _)| *l == label)
            .map_or(label, |(_, id)| id)
    }

    /// The wire ids of `labels`, in their order.
    pub fn wires<'a>(self, labels: &[&'a str]) -> Vec<&'a str> {
        labels.iter().map(|l| self.wire(l)).collect()
    }

    /// The label a wire id stands for (`None`: no platform or league of
    /// this server).
    pub fn label(self, wire: &str) -> Option<&'static str> {
        PLATFORMS
            .iter()
            .map(|(l, id, _)| (*l, *id))
            .chain(LEAGUES.iter().copied())
            .find(|(l, id)| {
                if self.renamed {
                    *id == wire
                } else {
                    *l == wire
                }
            })
            .map(|(l, _)| l)
    }

    /// `text` with every label in it replaced by its wire id (the prose and
    /// enums of the OpenAPI document).
    pub fn in_text(self, text: &str) -> String {
        if !self.renamed {
            return text.to_owned();
        }
        let mut out = text.to_owned();
        for (label, id) in PLATFORMS
            .iter()
            .map(|(l, id, _)| (*l, *id))
            .chain(LEAGUES.iter().copied())
        {
            out = out.replace(label, id);
        }
        out
    }

    /// A platform's display name.
    pub fn platform_name(self, label: &str) -> String {
        match PLATFORMS.iter().find(|(l, _, _)| *l == label) {
            Some((_, _, name)) if self.renamed => (*name).to_owned(),
            // `platform_a` → "Platform A".
            _ => match label.strip_prefix("platform_") {
                Some(letter) => format!("Platform {}", letter.to_ascii_uppercase()),
                None => label.to_owned(),
            },
        }
    }
}

/// The label of a platform written either way (`--fail-platform` takes both).
pub fn label_of_any(id: &str) -> Option<&'static str> {
    Names::new(false)
        .label(id)
        .or_else(|| Names::new(true).label(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renamed_ids_share_nothing_with_the_labels() {
        let names = Names::new(true);
        for (label, id, name) in PLATFORMS {
            assert_eq!(names.wire(label), id);
            assert_eq!(names.label(id), Some(label));
            assert_eq!(
                names.label(label),
                None,
                "a label is no wire id when renamed"
            );
            assert_eq!(names.platform_name(label), name);
            assert!(!id.contains("platform") && !name.to_lowercase().contains("platform"));
        }
        for (label, id) in LEAGUES {
            assert_eq!(names.wire(label), id);
            assert!(!id.contains("league"));
        }
        assert_eq!(names.wires(&["platform_a", "x"]), ["kestrel", "x"]);
        assert_eq!(
            names.in_text("platform_a and league_d_mvp"),
            "kestrel and fjord_mvp"
        );
    }

    #[test]
    fn default_ids_are_the_labels() {
        let names = Names::default();
        assert_eq!(names.wire("platform_c"), "platform_c");
        assert_eq!(names.label("league_b"), Some("league_b"));
        assert_eq!(names.label("heron"), None);
        assert_eq!(names.platform_name("platform_c"), "Platform C");
        assert_eq!(label_of_any("heron"), Some("platform_b"));
        assert_eq!(label_of_any("platform_b"), Some("platform_b"));
    }
}
