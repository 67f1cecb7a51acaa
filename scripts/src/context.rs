//! What every section needs: where the workspace and the work directory are, which
//! binaries to run, which commit this is, and how much to play.

use std::path::PathBuf;

/// The settings of one `cargo xtask docs` run.
pub struct Context {
    /// The workspace root.
    pub root: PathBuf,
    /// Tiny budgets (`--quick`): checks that every block comes out, produces no data.
    pub quick: bool,
    /// Where the experiments write their folders.
    pub work: PathBuf,
    /// The `agon-selfplay` binary of this build.
    pub selfplay: PathBuf,
    /// The `agon` binary of this build (beside `selfplay`).
    pub agon: PathBuf,
    /// Worker threads for the experiments.
    pub threads: usize,
    /// The commit of the work tree (HEAD), which the binaries were built from.
    pub commit: String,
    /// Whether games played by another (known) commit may be reused.
    pub reuse: bool,
}
