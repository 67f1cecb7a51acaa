//! The git commit of a source tree, as the build script reads it (this file is also
//! compiled into the build script). The decisions (is this the project's own checkout? is
//! HEAD a commit? which files say that HEAD moved?) are plain functions, unit-tested in
//! `lib.rs` without depending on how the crate was built.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The commit a build records when it cannot tell: built from a source archive (no
/// `.git`), without git installed, or before the first commit.
pub const UNKNOWN: &str = "unknown";

/// What the build script learns about a source tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The commit HEAD names (40 or 64 hexadecimal digits), or [`UNKNOWN`].
    pub commit: String,
    /// Files (or folders) whose change means HEAD may name another commit.
    pub watch: Vec<PathBuf>,
}

/// A git checkout whose work tree is the source tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkout {
    /// The commit HEAD names.
    pub commit: String,
    /// The work tree's own git folder (where its `HEAD` is; per worktree).
    pub git_dir: PathBuf,
    /// The repository's shared git folder (refs and `packed-refs`).
    pub common_dir: PathBuf,
}

/// The `git rev-parse` query whose answer [`parse_rev_parse`] reads.
pub const REV_PARSE: [&str; 5] = [
    "rev-parse",
    "--show-toplevel",
    "--git-dir",
    "--git-common-dir",
    "HEAD",
];

/// Runs `git -C dir ARGS`; its standard output if it succeeded (`None` when git is
/// missing or fails).
pub fn git(dir: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
}

/// Asks git about the source tree at `root`; any failure gives [`UNKNOWN`] and nothing to
/// watch.
pub fn probe(root: &Path) -> Probe {
    let answer = git(root, &REV_PARSE);
    match parse_rev_parse(answer.as_deref(), root) {
        Some(checkout) => Probe {
            watch: watched_files(&checkout),
            commit: checkout.commit,
        },
        None => Probe {
            commit: UNKNOWN.to_string(),
            watch: Vec::new(),
        },
    }
}

/// Reads the answer of `git rev-parse` ([`REV_PARSE`]) run in `root` (`None`: git failed
/// or is missing). The answer counts only if `root` is the top of the work tree (a source
/// archive unpacked inside some other repository must not take that repository's commit)
/// and HEAD is a commit.
pub fn parse_rev_parse(answer: Option<&str>, root: &Path) -> Option<Checkout> {
    let mut lines = answer?.lines();
    let toplevel = lines.next()?;
    let git_dir = lines.next()?;
    let common_dir = lines.next()?;
    let head = lines.next()?;
    if lines.next().is_some() || !same_dir(Path::new(toplevel), root) || !is_object_id(head) {
        return None;
    }
    Some(Checkout {
        commit: head.to_string(),
        git_dir: root.join(git_dir),
        common_dir: root.join(common_dir),
    })
}

/// Whether `text` is a full object name: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
pub fn is_object_id(text: &str) -> bool {
    matches!(text.len(), 40 | 64)
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The files that change when HEAD moves: `HEAD` itself (another branch, or a detached
/// commit), the branch's loose ref (a commit on it), and `packed-refs`. When the branch's
/// ref is packed, a commit writes a new loose ref, so the nearest existing folder on its
/// path is watched instead (a rarer case that costs a rebuild whenever a ref there moves).
pub fn watched_files(checkout: &Checkout) -> Vec<PathBuf> {
    let head = checkout.git_dir.join("HEAD");
    let mut watch = vec![head.clone()];
    let target = fs::read_to_string(&head).unwrap_or_default();
    if let Some(reference) = target.trim().strip_prefix("ref: ") {
        let loose = checkout.common_dir.join(reference);
        let nearest = loose
            .ancestors()
            .take_while(|path| path.starts_with(&checkout.common_dir))
            .find(|path| path.exists());
        watch.extend(nearest.map(Path::to_path_buf));
    }
    for shared in ["packed-refs", "reftable"] {
        let path = checkout.common_dir.join(shared);
        if path.exists() {
            watch.push(path);
        }
    }
    watch.dedup();
    watch
}
