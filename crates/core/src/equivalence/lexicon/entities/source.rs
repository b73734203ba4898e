//! `entities.txt` as the wasm carries it, tightened at compile time: its
//! comment lines and the spaces around its separators left out, which
//! the parse skips and trims anyway (the same table, tested below), for
//! about 1 KB less of the venues wasm's gzip (docs/benchmarks.md,
//! "Fourteenth round: size"). The file stays written for people.

/// The table, as written.
const WRITTEN: &[u8] = include_bytes!("../entities.txt");

/// The table as the wasm carries it: [`WRITTEN`] without its comment lines
/// and the spaces around its separators (`;`, `=`, `,`, `:`), which the
/// parse trims anyway.
pub(super) static SOURCE: &str = match std::str::from_utf8(&TIGHT) {
    Ok(text) => text,
    Err(_) => panic!("entities.txt is not UTF-8"),
};

/// [`WRITTEN`] tightened, its length learnt by a first pass.
static TIGHT: [u8; tighten::<0>(WRITTEN).1] = tighten(WRITTEN).0;

/// A separator of `entities.txt`'s fields, around which spaces are dropped.
const fn separates(b: u8) -> bool {
    matches!(b, b';' | b'=' | b',' | b':')
}

/// `text` tightened (its first `N` bytes) and its tightened length: each
/// line whose first byte not a space is `#` left out, and each space that
/// spaces lead to a separator or that follows one.
const fn tighten<const N: usize>(text: &[u8]) -> ([u8; N], usize) {
    let mut out = [0; N];
    let (mut i, mut n) = (0, 0);
    // The last byte kept, and whether `i` begins a line.
    let (mut last, mut line_start) = (b'\n', true);
    while i < text.len() {
        // The first byte after the spaces from `i`.
        let mut next = i;
        while next < text.len() && text[next] == b' ' {
            next += 1;
        }
        if line_start && next < text.len() && text[next] == b'#' {
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            i += 1;
            continue;
        }
        let b = text[i];
        let drop = b == b' ' && ((next < text.len() && separates(text[next])) || separates(last));
        if !drop {
            if n < N {
                out[n] = b;
            }
            n += 1;
            last = b;
        }
        line_start = b == b'\n';
        i += 1;
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::{SOURCE, WRITTEN};

    #[test]
    fn the_tightened_table_is_the_written_one() {
        let written = std::str::from_utf8(WRITTEN).unwrap();
        let (tight, errors) = super::super::parse_text(SOURCE);
        assert_eq!(errors, Vec::new());
        assert_eq!(
            format!("{tight:?}"),
            format!("{:?}", super::super::parse_text(written).0)
        );
        assert!(
            SOURCE.len() < written.len() - 3_000,
            "{} of {}",
            SOURCE.len(),
            written.len()
        );
        assert!(!SOURCE.contains(" ;") && !SOURCE.contains("; ") && !SOURCE.contains("\n#"));
    }
}
