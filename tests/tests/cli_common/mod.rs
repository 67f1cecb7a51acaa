//! Shared helpers of the `cli_*` tests: find (and if needed build) the real `agon` binary,
//! run it with arguments and stdin, and read its output.
//!
//! Cargo builds a package's binaries only for that package's own integration tests, and
//! these tests live in `agon-tests`. So the first test of each test binary runs
//! `cargo build -p agon-cli --bin agon` in the same profile and target directory (a no-op
//! when it is up to date), then runs `target/<profile>/agon`. Set `AGON_BIN` to test
//! another build of the binary.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

static BINARY: OnceLock<PathBuf> = OnceLock::new();

/// The path of the `agon` binary, built on first use.
pub fn agon_path() -> &'static Path {
    BINARY.get_or_init(|| agon_tests::binaries::binary("agon-cli", "agon", "AGON_BIN"))
}

/// The result of one run.
pub struct Run {
    /// Exit code (None if killed by a signal).
    pub code: Option<i32>,
    /// Standard output as text.
    pub stdout: String,
    /// Standard error as text.
    pub stderr: String,
    /// Standard output as bytes.
    pub raw: Vec<u8>,
}

impl Run {
    /// Asserts the exit code and returns self.
    #[track_caller]
    pub fn code(self, expected: i32) -> Run {
        assert_eq!(
            self.code,
            Some(expected),
            "exit code; stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts success (exit 0) and an empty stderr.
    #[track_caller]
    pub fn ok(self) -> Run {
        let run = self.code(0);
        assert_eq!(run.stderr, "", "unexpected stderr");
        run
    }

    /// The non-empty lines of stdout.
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().filter(|l| !l.is_empty()).collect()
    }

    /// Stdout parsed as one JSON value per line.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.lines()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}")))
            .collect()
    }
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
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn agon");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("wait for agon");
    writer.join().expect("stdin writer");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        raw: stdout,
    }
}

/// A fresh empty directory under the target dir for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agon-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
