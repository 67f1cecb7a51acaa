//! A live engine process (`agon engine`, or any engine) driven line by line: a thread
//! reads its output into a channel, so a test can wait for a line with a watchdog instead
//! of hanging forever.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The longest wait for one line before a test fails (a hang, not a slow machine).
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// A running engine.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    /// Starts `program args...` with piped stdin and stdout (stderr inherited).
    pub fn start(program: &std::path::Path, args: &[&str]) -> Session {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .expect("write to the engine");
    }

    /// Sends raw bytes (for hostile input).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line of output, or `None` at the end of the output.
    #[track_caller]
    pub fn line(&self) -> Option<String> {
        match self.lines.recv_timeout(WATCHDOG) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no output for {WATCHDOG:?}"),
        }
    }

    /// The next line, which must exist.
    #[track_caller]
    pub fn expect_line(&self) -> String {
        self.line().expect("a line before the end of the output")
    }

    /// Lines up to and including the first one that starts with `prefix`.
    #[track_caller]
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.expect_line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Every remaining line, once the engine has closed its output.
    pub fn rest(&self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.line() {
            lines.push(line);
        }
        lines
    }

    /// Waits for the process and returns its exit code.
    pub fn wait(mut self) -> Option<i32> {
        self.stdin = None;
        self.child.wait().expect("wait for the engine").code()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
