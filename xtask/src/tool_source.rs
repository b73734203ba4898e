//! The source of each tool `setup` compiles, prepared where no workspace
//! can claim it.
//!
//! `cargo install --path DIR` treats DIR as part of any workspace above
//! it. A newcomer's target folder is inside the clone, so a copy made
//! there belonged to the project's workspace and cargo refused it ("current
//! package believes it's in a workspace when it's not"); CI, with its
//! target folder outside the clone, never saw it. Every copy therefore gets
//! a `[workspace]` table of its own, whatever `CARGO_TARGET_DIR` is, and
//! the `fresh-path` test step prepares each tool inside the clone's default
//! target folder and resolves its manifest against its lock, stopping
//! before the compile that CI's installed tools would skip.

use crate::util::{Result, cmd, output, root};
use std::fs;
use std::path::{Path, PathBuf};

/// A crate from crates.io that setup compiles and installs.
pub struct ToolCrate {
    /// The crate's name on crates.io.
    pub name: &'static str,
    pub version: String,
    /// A lock file of ours to use instead of the one the crate ships.
    pub lock: Option<PathBuf>,
}

/// Fetches the crate's source through cargo (a one-line manifest that
/// depends on it, resolved by `cargo metadata`), copies it under `work` as
/// a workspace of its own, applies our lock if there is one, and returns
/// the copy's folder.
pub fn prepare(tool: &ToolCrate, work: &Path) -> Result<PathBuf> {
    let finder = work.join(format!("find-{}", tool.name));
    fs::create_dir_all(finder.join("src")).map_err(|e| format!("{}: {e}", finder.display()))?;
    fs::write(
        finder.join("Cargo.toml"),
        format!(
            "[package]\nname = \"find-{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [dependencies]\n{name} = \"={version}\"\n\n[workspace]\n",
            name = tool.name,
            version = tool.version
        ),
    )
    .map_err(|e| format!("{}: {e}", finder.display()))?;
    fs::write(finder.join("src/lib.rs"), "").map_err(|e| format!("{}: {e}", finder.display()))?;
    let metadata = output(
        cmd("cargo")
            .args(["metadata", "--format-version", "1", "--manifest-path"])
            .arg(finder.join("Cargo.toml")),
    )
    .ok_or_else(|| format!("cargo metadata could not fetch {}'s source", tool.name))?;
    // A crate with only binaries (trunk) is not a valid dependency: cargo
    // fetches and unpacks it but leaves it out of the metadata, so it is
    // looked up in the registry's unpacked sources.
    let source = source_dir(&metadata, tool).or_else(|e| registry_source_dir(tool).ok_or(e))?;
    let copy = work.join(format!("{}-{}", tool.name, tool.version));
    copy_as_own_workspace(&source, &copy)?;
    if let Some(lock) = &tool.lock {
        fs::copy(lock, copy.join("Cargo.lock")).map_err(|e| format!("{}: {e}", lock.display()))?;
    }
    Ok(copy)
}

/// The folder of the crate's source, from `cargo metadata`'s manifest path.
fn source_dir(metadata: &str, tool: &ToolCrate) -> Result<PathBuf> {
    let manifest_end = format!("{}-{}/Cargo.toml\"", tool.name, tool.version);
    let end = metadata
        .find(&manifest_end)
        .ok_or_else(|| format!("cargo metadata names no {} source", tool.name))?;
    let start = metadata[..end]
        .rfind('"')
        .ok_or("cargo metadata: unquoted manifest path")?;
    Ok(PathBuf::from(
        &metadata[start + 1..end + manifest_end.len() - "/Cargo.toml\"".len()],
    ))
}

/// The unpacked source `cargo` left in its registry folder.
fn registry_source_dir(tool: &ToolCrate) -> Option<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))?;
    let wanted = format!("{}-{}", tool.name, tool.version);
    fs::read_dir(cargo_home.join("registry/src"))
        .ok()?
        .filter_map(|index| index.ok())
        .map(|index| index.path().join(&wanted))
        .find(|dir| dir.join("Cargo.toml").is_file())
}

/// Copies a crate's folder to `copy` (replacing an earlier copy) and makes
/// the copy the root of its own workspace, so that no workspace above it,
/// such as this project's when the target folder is inside the clone, can
/// claim it.
pub fn copy_as_own_workspace(source: &Path, copy: &Path) -> Result {
    if copy.exists() {
        fs::remove_dir_all(copy).map_err(|e| format!("{}: {e}", copy.display()))?;
    }
    if let Some(parent) = copy.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    crate::util::exec_quiet(cmd("cp").arg("-r").arg(source).arg(copy))?;
    let manifest = copy.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    if !text.lines().any(|line| line.trim() == "[workspace]") {
        fs::write(&manifest, format!("{text}\n[workspace]\n"))
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    Ok(())
}

/// The `fresh-path` step: what CI's installed tools skip, run the way a
/// newcomer's first `setup` runs it. Each tool's source is fetched and
/// prepared in the clone's default target folder (`target/`, whatever
/// `CARGO_TARGET_DIR` says), and its manifest must resolve on its own
/// against the lock the install uses: `cargo fetch --locked` downloads
/// every dependency the compile needs and fails if the lock would change.
/// Only the compile itself is left out; docs/ci.md says how that is
/// checked.
pub fn check_fresh_path(tools: &[ToolCrate]) -> Result {
    let work = root().join("target").join("fresh-path").join("tool-src");
    for tool in tools {
        let copy = prepare(tool, &work)?;
        output(
            cmd("cargo")
                .args(["fetch", "--locked", "--manifest-path"])
                .arg(copy.join("Cargo.toml")),
        )
        .ok_or_else(|| {
            format!(
                "{} {}: prepared in {} but its manifest does not resolve on its own with its lock \
                 (run `cargo fetch --locked --manifest-path {}/Cargo.toml` to see why)",
                tool.name,
                tool.version,
                work.display(),
                copy.display()
            )
        })?;
        eprintln!(
            "fresh-path: {} {}: source fetched, prepared inside the clone, its dependencies fetched with its lock",
            tool.name, tool.version
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy made inside this workspace (where a newcomer's default
    /// target folder puts it) must resolve as a workspace of its own.
    /// Without the `[workspace]` table cargo refuses it, as it refused
    /// wasm-bindgen-cli on a fresh clone.
    #[test]
    fn a_copy_inside_the_clone_is_its_own_workspace() {
        let scratch = root()
            .join("target")
            .join("xtask-test")
            .join(format!("own-workspace-{}", std::process::id()));
        let source = scratch.join("published");
        fs::create_dir_all(source.join("src")).expect("scratch folder");
        // A manifest as crates.io serves it: no workspace table.
        fs::write(
            source.join("Cargo.toml"),
            "[package]\nname = \"published-tool\"\nversion = \"1.0.0\"\nedition = \"2021\"\n",
        )
        .expect("manifest");
        fs::write(source.join("src/lib.rs"), "").expect("lib");
        let copy = scratch.join("tool-src").join("published-tool-1.0.0");
        copy_as_own_workspace(&source, &copy).expect("copy");
        let resolved = cmd("cargo")
            .args([
                "metadata",
                "--format-version",
                "1",
                "--no-deps",
                "--offline",
            ])
            .arg("--manifest-path")
            .arg(copy.join("Cargo.toml"))
            .output()
            .expect("cargo runs");
        let _ = fs::remove_dir_all(&scratch);
        assert!(
            resolved.status.success(),
            "cargo refused the copy: {}",
            String::from_utf8_lossy(&resolved.stderr)
        );
    }

    #[test]
    fn the_source_folder_is_read_from_metadata() {
        let tool = ToolCrate {
            name: "trunk",
            version: "0.21.14".into(),
            lock: None,
        };
        let metadata = r#"{"packages":[{"manifest_path":"/home/u/.cargo/registry/src/x/trunk-0.21.14/Cargo.toml"}]}"#;
        assert_eq!(
            source_dir(metadata, &tool).expect("found"),
            PathBuf::from("/home/u/.cargo/registry/src/x/trunk-0.21.14")
        );
        assert!(source_dir("{}", &tool).is_err());
    }
}
