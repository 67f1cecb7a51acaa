//! The `agon` binary in end-to-end tests: find (and if needed build) it, run it with
//! arguments and stdin, and read its output.
//!
//! Cargo builds a package's binaries only for that package's own integration tests, and
//! these tests live in `agon-tests`. So the first test of each test binary runs
//! `cargo build -p agon-cli --bin agon` in the same profile and target directory (a no-op
//! when it is up to date), then runs `target/<profile>/agon`. Set `AGON_BIN` to test
//! another build of the binary.

pub use crate::run::Run;
use crate::scratch::ScratchDir;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

static BINARY: OnceLock<PathBuf> = OnceLock::new();

/// The path of the `agon` binary, built on first use.
pub fn agon_path() -> &'static Path {
    BINARY.get_or_init(|| crate::binaries::binary("agon-cli", "agon", "AGON_BIN"))
}

/// Runs `agon ARGS` with no stdin.
pub fn agon(args: &[&str]) -> Run {
    agon_with_stdin(args, "")
}

/// Runs `agon ARGS` in a directory with no stdin.
pub fn agon_in(dir: &Path, args: &[&str]) -> Run {
    run(command(args).current_dir(dir), "")
}

/// Runs `agon ARGS` feeding `input` to stdin.
pub fn agon_with_stdin(args: &[&str], input: &str) -> Run {
    run(&mut command(args), input)
}

/// A `Command` for `agon ARGS` (colour and terminal checks off: pipes everywhere).
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(agon_path());
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    command
}

fn run(command: &mut Command, input: &str) -> Run {
    crate::run::run(command, input, true)
}

/// A fresh empty directory for one test's files, removed when the test ends (see
/// [`ScratchDir`]).
pub fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("cli-{name}"))
}

/// Writes `text` to the file `name` in `dir` and returns its path as a string (for
/// command lines).
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path.to_str().expect("a UTF-8 path").to_string()
}
