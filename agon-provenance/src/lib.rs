//! # agon-provenance
//!
//! Which build of agon wrote an output. Every report the tools write (`experiment.json` and
//! `summary.json` of `agon-selfplay`, every `--json` output of `agon`) carries a [`Tool`]:
//! the program's name, the workspace version and the git commit the build was made from,
//! so that a published figure can be traced to the code that produced it. `--version` of
//! both programs prints [`LONG_VERSION`].
//!
//! The commit is fixed at build time by this crate's build script, from `git rev-parse
//! HEAD` of the workspace, and reads `unknown` when the sources are not a git checkout (a
//! source archive) or git is missing. The build script reruns when HEAD or its branch
//! moves. It records no "dirty" marker: edits that are not committed are not visible in
//! the commit.
//!
//! ```
//! let tool = agon_provenance::Tool::current("agon");
//! assert_eq!(tool.version, env!("CARGO_PKG_VERSION"));
//! assert!(tool.commit == "unknown" || tool.commit.len() == 40 || tool.commit.len() == 64);
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of the agon workspace; every crate of it carries this version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this build was made from (full hexadecimal object name), or `unknown`.
pub const COMMIT: &str = env!("AGON_BUILD_COMMIT");

/// `VERSION (commit COMMIT)`: what `--version` prints after the program's name.
pub const LONG_VERSION: &str = env!("AGON_BUILD_LONG_VERSION");

/// The commit recorded when a build cannot tell its own.
pub const UNKNOWN_COMMIT: &str = "unknown";

/// A program and the build of it that wrote an output: `{"name", "version", "commit"}` in
/// JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// The program: `agon` or `agon-selfplay`.
    pub name: String,
    /// Its version ([`VERSION`] for this build).
    pub version: String,
    /// The git commit it was built from ([`COMMIT`] for this build), or `unknown`.
    pub commit: String,
}

impl Tool {
    /// This build of the program `name`.
    pub fn current(name: &str) -> Tool {
        Tool {
            name: name.to_string(),
            version: VERSION.to_string(),
            commit: COMMIT.to_string(),
        }
    }

    /// Whether the commit is known (a build from a git checkout).
    pub fn commit_is_known(&self) -> bool {
        self.commit != UNKNOWN_COMMIT
    }
}

impl fmt::Display for Tool {
    /// `agon-selfplay 0.1.0 (commit 0123abc...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} (commit {})", self.name, self.version, self.commit)
    }
}

pub mod git;

#[cfg(test)]
mod tests {
    use super::git::{is_object_id, parse_rev_parse, probe, watched_files, UNKNOWN};
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const SHA1: &str = "90cbb85f72eb69f5a86eece565be373854221cd0";

    fn workspace_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// A fresh empty folder for one test.
    fn scratch(name: &str) -> agon_tests::scratch::ScratchDir {
        agon_tests::scratch::ScratchDir::new(&format!("provenance-{name}"))
    }

    fn git(dir: &Path, args: &[&str]) -> Option<String> {
        let output = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
            .args(args)
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    #[test]
    fn the_answer_of_git_is_read_only_for_the_projects_own_checkout() {
        let root = workspace_root();
        let answer =
            |top: &Path, head: &str| format!("{}\n.git\n/repo/.git\n{head}\n", top.display());
        // Git missing or failing: unknown.
        assert_eq!(parse_rev_parse(None, &root), None);
        // The sources are a folder inside some other repository (an unpacked archive).
        let other = std::env::temp_dir();
        assert_eq!(parse_rev_parse(Some(&answer(&other, SHA1)), &root), None);
        // HEAD is not a commit yet, or the answer is cut short.
        assert_eq!(parse_rev_parse(Some(&answer(&root, "HEAD")), &root), None);
        assert_eq!(
            parse_rev_parse(Some(&format!("{}\n", root.display())), &root),
            None
        );
        // The project's checkout: relative git folders are relative to the root.
        let checkout = parse_rev_parse(Some(&answer(&root, SHA1)), &root).unwrap();
        assert_eq!(checkout.commit, SHA1);
        assert_eq!(checkout.git_dir, root.join(".git"));
        assert_eq!(checkout.common_dir, PathBuf::from("/repo/.git"));
    }

    #[test]
    fn object_ids_are_full_lowercase_hex() {
        assert!(is_object_id(SHA1));
        assert!(is_object_id(&"ab".repeat(32)));
        assert!(!is_object_id(&SHA1[..12]));
        assert!(!is_object_id(&SHA1.to_uppercase()));
        assert!(!is_object_id(&SHA1.replace('9', "g")));
        assert!(!is_object_id(UNKNOWN));
    }

    #[test]
    fn a_tree_without_git_records_an_unknown_commit() {
        let dir = scratch("archive");
        std::fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
        assert_eq!(
            probe(&dir),
            git::Probe {
                commit: UNKNOWN.to_string(),
                watch: Vec::new(),
            }
        );
        assert_eq!(UNKNOWN, UNKNOWN_COMMIT);
    }

    #[test]
    fn a_repository_gives_its_head_and_the_files_that_move_with_it() {
        let dir = scratch("repository");
        if git(&dir, &["init", "-q", "-b", "trunk"]).is_none() {
            eprintln!("git is not installed: nothing to check");
            return;
        }
        // Before the first commit HEAD names nothing.
        assert_eq!(probe(&dir).commit, UNKNOWN);
        std::fs::write(dir.join("file"), "x").unwrap();
        git(&dir, &["add", "file"]).unwrap();
        git(&dir, &["commit", "-q", "-m", "one"]).unwrap();
        let head = git(&dir, &["rev-parse", "HEAD"]).unwrap();
        let found = probe(&dir);
        assert_eq!(found.commit, head);
        let git_dir = std::fs::canonicalize(dir.join(".git")).unwrap();
        let canonical: Vec<PathBuf> = found
            .watch
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap())
            .collect();
        assert_eq!(
            canonical,
            [git_dir.join("HEAD"), git_dir.join("refs/heads/trunk")]
        );
        // Once the branch is packed, a commit writes a new loose ref: its folder is watched.
        git(&dir, &["pack-refs", "--all"]).unwrap();
        let found = probe(&dir);
        assert_eq!(found.commit, head);
        let canonical: Vec<PathBuf> = found
            .watch
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap())
            .collect();
        assert_eq!(
            canonical,
            [
                git_dir.join("HEAD"),
                git_dir.join("refs/heads"),
                git_dir.join("packed-refs")
            ]
        );
        // A source tree one level down in that repository is not its checkout.
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        assert_eq!(probe(&dir.join("sub")).commit, UNKNOWN);
        // A detached HEAD: HEAD itself names the commit.
        git(&dir, &["checkout", "-q", "--detach"]).unwrap();
        let found = probe(&dir);
        assert_eq!(found.commit, head);
        let checkout = git::Checkout {
            commit: head,
            git_dir: dir.join(".git"),
            common_dir: dir.join(".git"),
        };
        assert_eq!(
            watched_files(&checkout),
            [dir.join(".git/HEAD"), dir.join(".git/packed-refs")]
        );
    }

    #[test]
    fn this_build_records_the_commit_of_its_sources() {
        let tool = Tool::current("agon");
        assert_eq!(tool.version, env!("CARGO_PKG_VERSION"));
        // The build script ran on these sources at this HEAD (it reruns when HEAD moves).
        assert_eq!(tool.commit, probe(&workspace_root()).commit);
        assert_eq!(LONG_VERSION, format!("{VERSION} (commit {COMMIT})"));
        assert_eq!(
            tool.to_string(),
            format!("agon {VERSION} (commit {COMMIT})")
        );
        let json = serde_json::to_value(&tool).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"name": "agon", "version": VERSION, "commit": COMMIT})
        );
    }
}
