//! Finding (and if needed building) the workspace's real binaries for end-to-end tests.
//!
//! Cargo builds a package's binaries only for that package's own integration tests, and
//! these tests live in `agon-tests`. So the first use in each test binary runs
//! `cargo build -p PACKAGE --bin NAME` in the same profile and target directory as the
//! test itself (a no-op when it is up to date), then returns `target/<profile>/NAME`.
//! An environment variable can point a test at another build instead.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of binary `bin` of workspace package `package`, built on first use; the
/// environment variable `override_var`, when set, names the binary to use instead.
pub fn binary(package: &str, bin: &str, override_var: &str) -> PathBuf {
    if let Some(path) = std::env::var_os(override_var) {
        return PathBuf::from(path);
    }
    // The test executable is target/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().expect("current exe");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("test executable under target/<profile>/deps");
    let target_dir = profile_dir.parent().expect("target dir");
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(name) => name.to_string(),
    };
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", package, "--bin", bin, "--profile"])
        .arg(&profile)
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap_or_else(|e| panic!("run cargo build for {bin}: {e}"));
    assert!(
        status.success(),
        "cargo build -p {package} --bin {bin} failed"
    );
    let path = profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "no binary at {}", path.display());
    path
}
