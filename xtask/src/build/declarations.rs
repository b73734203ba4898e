//! What wasm-bindgen's declarations of a glue become in the package: the
//! public part of them, and the values they export.

use crate::util::Result;

/// wasm-bindgen's declarations without what only its loader needs
/// (`InitInput`, `InitOutput` with the raw wasm exports, `initSync`, the
/// default `init`), with the lib reference `[Symbol.dispose]` needs and
/// `free()` documented.
pub(crate) fn public_types(glue_types: &str) -> Result<String> {
    let cut = glue_types
        .find("export type InitInput")
        .ok_or("predmarket.d.ts: no `export type InitInput` (wasm-bindgen changed?)")?;
    let types = glue_types[..cut].trim_end().replace(
        "  free(): void;",
        "  /** Releases the object's wasm memory now instead of at garbage collection (optional; `using` does it too). */\n  free(): void;",
    );
    // The classes declare `[Symbol.dispose]`; without this a project whose
    // `lib` predates ES2024 fails on the package's own types.
    Ok(format!(
        "/// <reference lib=\"esnext.disposable\" />\n{types}\n"
    ))
}

/// The values (classes and functions) a declaration file exports.
pub(crate) fn exported_values(types: &str) -> Vec<String> {
    let mut names: Vec<String> = types
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("export class ")
                .or_else(|| line.strip_prefix("export function "))?;
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))?;
            // `__` names are the entries' business, not the public API's.
            Some(rest[..end].to_owned()).filter(|name| !name.starts_with("__"))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    #[test]
    fn exported_values_are_classes_and_functions() {
        let types = "export class Client {\n}\nexport function americanToDecimal(a: number): number;\nexport type X = 1;\nexport interface Y {}\n";
        assert_eq!(
            super::exported_values(types),
            ["Client", "americanToDecimal"]
        );
    }
}
