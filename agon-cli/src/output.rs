//! Where output goes: a buffered stdout whose closed-pipe errors end the command quietly,
//! JSON lines that name the build that wrote them, and the terminal checks that decide
//! colour and progress bars.

use agon_provenance::Tool;
use serde::Serialize;
use std::io::{self, BufWriter, IsTerminal, Stdout, Write};

/// Buffered standard output. Write errors become [`crate::error::CliError`] through `?`,
/// and a closed pipe becomes a quiet, successful end.
pub struct Out {
    inner: BufWriter<Stdout>,
}

impl Out {
    /// Buffered stdout.
    pub fn new() -> Out {
        Out {
            inner: BufWriter::with_capacity(64 * 1024, io::stdout()),
        }
    }

    /// Flushes now (before waiting for input, so prompts and boards are visible).
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Default for Out {
    fn default() -> Out {
        Out::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// This build of `agon`, as every `--json` output names it.
pub fn tool() -> Tool {
    Tool::current("agon")
}

/// One JSON object and its field `tool` (after the object's own fields).
#[derive(Serialize)]
struct WithTool<'a, T: Serialize> {
    #[serde(flatten)]
    object: &'a T,
    tool: &'a Tool,
}

/// Writes `object` (a struct or a JSON object) as one line of JSON, with the build that
/// wrote it as its last field, `tool: {name, version, commit}`.
pub fn write_json_line<T: Serialize>(
    out: &mut impl Write,
    object: &T,
    tool: &Tool,
) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &WithTool { object, tool })?;
    writeln!(out)
}

/// Whether stdout is a terminal.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Whether stderr is a terminal.
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// Whether stdin is a terminal.
pub fn stdin_is_terminal() -> bool {
    io::stdin().is_terminal()
}

/// Whether coloured output is wanted on stdout: a terminal, and `NO_COLOR` unset or empty
/// (<https://no-color.org>).
pub fn colour_wanted() -> bool {
    stdout_is_terminal() && std::env::var_os("NO_COLOR").unwrap_or_default().is_empty()
}
