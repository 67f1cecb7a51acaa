//! The `agon-selfplay` binary in end-to-end tests: find (and if needed build) it, run it,
//! and read what it writes (CSV, PNG and SVG checked without extra dependencies).
//!
//! Cargo builds a package's binaries only for that package's own integration tests, and
//! these tests live in `agon-tests`. So the first use in each test binary runs
//! `cargo build -p agon-selfplay --bin agon-selfplay` in the same profile and target
//! directory (a no-op when it is up to date). Set `AGON_SELFPLAY_BIN` to test another build.

pub use crate::run::Run;
use crate::scratch::ScratchDir;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

static BINARY: OnceLock<PathBuf> = OnceLock::new();

/// The path of the `agon-selfplay` binary, built on first use.
pub fn binary() -> &'static Path {
    BINARY.get_or_init(|| {
        crate::binaries::binary("agon-selfplay", "agon-selfplay", "AGON_SELFPLAY_BIN")
    })
}

/// Runs `agon-selfplay` with arguments (and an empty stdin).
pub fn selfplay<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    crate::run::run(Command::new(binary()).args(args), "", false)
}

/// The value of a tag in each record of a `.agn` text, in game order.
pub fn tags(agn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    agn.lines()
        .filter_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
        .map(str::to_string)
        .collect()
}

/// What a watched run did.
pub struct Watched {
    /// Exit code (`None` when killed).
    pub code: Option<i32>,
    /// Standard error.
    pub stderr: String,
    /// Why it was killed: over the time or memory budget, or `""` when `until` held.
    pub killed: Option<String>,
    /// The peak resident set of the command in kB, as the kernel counted it.
    pub peak_kb: u64,
}

/// The resident set of a process in kB (Linux), if it is still running.
pub fn resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `agon-selfplay ARGS` under a watch: see [`watched_command`].
pub fn watched(args: &[&str], seconds: u64, max_kb: u64, until: impl FnMut() -> bool) -> Watched {
    let mut command = Command::new(binary());
    command.args(args);
    watched_command(command, seconds, max_kb, until)
}

/// Runs a command (stdout discarded, stderr kept), killing it after `seconds` or once its
/// resident set exceeds `max_kb` (either fails the caller's checks instead of hanging or
/// exhausting the machine), or once `until` holds (which callers count as success).
///
/// The command runs under the `watch` helper (`src/bin/watch.rs`), its only parent, which
/// reports the kernel's exact peak of its resident set: sampling from here would miss the
/// peak of a child that ends between two samples.
pub fn watched_command(
    command: Command,
    seconds: u64,
    max_kb: u64,
    mut until: impl FnMut() -> bool,
) -> Watched {
    use std::io::Read;
    use std::time::Duration;
    let mut watch = Command::new(watch_binary());
    watch
        .arg(seconds.to_string())
        .arg(max_kb.to_string())
        .arg(command.get_program())
        .args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        watch.current_dir(dir);
    }
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => watch.env(key, value),
            None => watch.env_remove(key),
        };
    }
    let mut child = watch
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the watch helper");
    // Read stderr on a thread, so that a chatty child never blocks on a full pipe.
    let mut pipe = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    // Closing the helper's stdin tells it to stop the command.
    let mut stop = child.stdin.take();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if stop.is_some() && until() {
            stop = None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stop);
    let mut report = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut report)
        .expect("read the watch helper's report");
    let field = |name: &str| {
        report
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix('='))
    };
    let stderr = reader.join().unwrap_or_default();
    let peak_kb = field("peak_kb")
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("the watch helper reported {report:?}; stderr: {stderr}"));
    Watched {
        code: field("code").and_then(|c| c.parse().ok()),
        stderr,
        killed: field("killed").map(str::to_string),
        peak_kb,
    }
}

/// The path of the `watch` helper of this package, built on first use.
fn watch_binary() -> &'static Path {
    static WATCH: OnceLock<PathBuf> = OnceLock::new();
    WATCH.get_or_init(|| crate::binaries::binary("agon-tests", "watch", "AGON_WATCH_BIN"))
}

/// A fresh, empty scratch directory for one test, removed when the test ends (see
/// [`ScratchDir`]).
pub fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("selfplay-{name}"))
}

/// A file of an output directory as text.
pub fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// A file as bytes.
pub fn bytes(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// `games.csv` without its timing column (`duration_ms`, always the last, never quoted).
pub fn without_timing(csv: &str) -> String {
    csv.lines()
        .map(|line| &line[..line.rfind(',').expect("a CSV line has columns")])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every output file that must not depend on how the games were run.
pub const STABLE_FILES: [&str; 9] = [
    "experiment.json",
    "games.agn",
    "summary.json",
    "summary.csv",
    "outcomes.svg",
    "outcomes.png",
    "lengths.svg",
    "lengths.png",
    "games.csv",
];

/// Files written only when the report has them (contrasts need a baseline variant; the
/// breakdown by opening a suite of several openings).
pub const OPTIONAL_FILES: [&str; 3] = ["contrasts.svg", "contrasts.png", "openings.csv"];

/// Asserts that two output directories hold the same games, statistics and charts
/// (`games.csv` compared without its timing column).
#[track_caller]
pub fn assert_same_outputs(a: &Path, b: &Path) {
    for name in OPTIONAL_FILES {
        assert_eq!(
            a.join(name).exists(),
            b.join(name).exists(),
            "{name} is in only one of {} and {}",
            a.display(),
            b.display()
        );
    }
    let present = OPTIONAL_FILES
        .into_iter()
        .filter(|name| a.join(name).exists());
    for name in STABLE_FILES.into_iter().chain(present) {
        if name == "games.csv" {
            assert_eq!(
                without_timing(&read(a, name)),
                without_timing(&read(b, name)),
                "games.csv differs between {} and {}",
                a.display(),
                b.display()
            );
        } else {
            assert!(
                bytes(a, name) == bytes(b, name),
                "{name} differs between {} and {}",
                a.display(),
                b.display()
            );
        }
    }
}

/// The files of an exploration that depend on nothing but its spec and games.
pub const EXPLORE_REPORTS: [&str; 4] = [
    "explore-spec.json",
    "explore.json",
    "explore.csv",
    "index.html",
];

/// Asserts that two exploration directories hold the same reports ([`EXPLORE_REPORTS`])
/// and the same files `also` (relative paths).
#[track_caller]
pub fn assert_same_exploration(a: &Path, b: &Path, also: &[&str]) {
    for name in EXPLORE_REPORTS.iter().chain(also) {
        assert!(
            read(a, name) == read(b, name),
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Parses CSV text (RFC 4180 quoting) into records of fields.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// The rows of a CSV file as maps from column name to value.
pub fn csv_rows(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let records = parse_csv(text);
    let header = &records[0];
    records[1..]
        .iter()
        .map(|r| {
            assert_eq!(r.len(), header.len(), "row {r:?}");
            header.iter().cloned().zip(r.iter().cloned()).collect()
        })
        .collect()
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Checks a PNG's structure (signature, IHDR first, every chunk's CRC, IDAT present,
/// IEND last) and returns its width and height.
pub fn png_size(data: &[u8]) -> Result<(u32, u32), String> {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n'];
    if data.len() < 8 || data[..8] != SIGNATURE {
        return Err("no PNG signature".into());
    }
    let mut at = 8;
    let mut kinds = Vec::new();
    let mut size = None;
    while at + 12 <= data.len() {
        let len = u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        let end = at + 8 + len;
        if end + 4 > data.len() {
            return Err("chunk runs past the end".into());
        }
        let kind = &data[at + 4..at + 8];
        let crc = u32::from_be_bytes(data[end..end + 4].try_into().unwrap());
        if crc32(&data[at + 4..end]) != crc {
            return Err(format!("bad CRC in {}", String::from_utf8_lossy(kind)));
        }
        if kind == b"IHDR" {
            let w = u32::from_be_bytes(data[at + 8..at + 12].try_into().unwrap());
            let h = u32::from_be_bytes(data[at + 12..at + 16].try_into().unwrap());
            size = Some((w, h));
        }
        kinds.push(String::from_utf8_lossy(kind).into_owned());
        at = end + 4;
    }
    if at != data.len() {
        return Err("trailing bytes".into());
    }
    if kinds.first().map(String::as_str) != Some("IHDR")
        || kinds.last().map(String::as_str) != Some("IEND")
    {
        return Err(format!("chunk order {kinds:?}"));
    }
    if !kinds.iter().any(|k| k == "IDAT") {
        return Err("no image data".into());
    }
    size.ok_or_else(|| "no IHDR".into())
}

/// Checks that an SVG document is one well-nested `<svg>` element (every tag closed in
/// order, attributes quoted) and returns its `width` and `height` attributes.
pub fn svg_size(text: &str) -> Result<(u32, u32), String> {
    let body = text.trim();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => &rest[rest.find("?>").ok_or("unclosed XML declaration")? + 2..],
        None => body,
    }
    .trim();
    let mut stack: Vec<String> = Vec::new();
    let mut rest = body;
    let mut size = None;
    let mut top_level = 0;
    while let Some(open) = rest.find('<') {
        if stack.is_empty() && !rest[..open].trim().is_empty() {
            return Err("text outside the root element".into());
        }
        let close = rest[open..].find('>').ok_or("unclosed tag")? + open;
        let tag = &rest[open + 1..close];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(top) if top == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else if !tag.starts_with('!') && !tag.starts_with('?') {
            if tag.matches('"').count() % 2 != 0 {
                return Err(format!("unbalanced quotes in <{tag}>"));
            }
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            if stack.is_empty() {
                top_level += 1;
                if name != "svg" {
                    return Err(format!("root element is <{name}>"));
                }
                let attr = |key: &str| -> Option<u32> {
                    let at = tag.find(&format!(" {key}=\""))? + key.len() + 3;
                    tag[at..].split('"').next()?.parse().ok()
                };
                size = attr("width").zip(attr("height"));
            }
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &rest[close + 1..];
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if top_level != 1 {
        return Err(format!("{top_level} root elements"));
    }
    size.ok_or_else(|| "no width and height".into())
}
