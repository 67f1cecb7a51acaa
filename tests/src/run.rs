//! Running a workspace binary as a user would: arguments, stdin, and what comes back.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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
    /// Whether a successful run of this binary writes nothing on stderr (`agon` does;
    /// `agon-selfplay` reports where its outputs went).
    quiet_on_success: bool,
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

    /// Asserts success (exit 0), and an empty stderr for a binary that is quiet on success.
    #[track_caller]
    pub fn ok(self) -> Run {
        let run = self.code(0);
        if run.quiet_on_success {
            assert_eq!(run.stderr, "", "unexpected stderr");
        }
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

/// Runs `command` feeding `input` to its stdin (from another thread, so a child that
/// writes before reading cannot deadlock) and collects everything it writes.
pub fn run(command: &mut Command, input: &str, quiet_on_success: bool) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("wait for the child");
    writer.join().expect("stdin writer");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        raw: stdout,
        quiet_on_success,
    }
}

/// `dir`, emptied (or created) for one test's files.
pub fn fresh_dir(dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    dir.to_path_buf()
}
