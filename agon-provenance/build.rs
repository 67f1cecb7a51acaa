//! Fixes the git commit of the source tree into the crate (`AGON_BUILD_COMMIT`), or
//! `unknown` when the tree is not a git checkout (a source archive) or git is missing.
//!
//! Cargo reruns this script when HEAD or the branch it points to moves (the files git keeps
//! them in), not on every build. No `-dirty` marker: uncommitted edits change no file that
//! this script could watch cheaply, so such a marker would go stale between builds; tools
//! that publish figures check the work tree themselves (`cargo xtask docs`).

#[path = "src/git.rs"]
mod git;

use std::path::PathBuf;

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest_dir
        .parent()
        .expect("the crate lives in the workspace root");
    let probe = git::probe(root);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/git.rs");
    for path in &probe.watch {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets it");
    println!("cargo:rustc-env=AGON_BUILD_COMMIT={}", probe.commit);
    println!(
        "cargo:rustc-env=AGON_BUILD_LONG_VERSION={version} (commit {})",
        probe.commit
    );
}
