//! `agon` under hostile input: a game far longer than any real one, an endless run of NUL
//! bytes, thousands of tags, tag names too long for a record, numbers too large for their
//! type, absurd `--threads`, and the engine protocol's failed `position` and oversized
//! `Hash`. Runs that would grow without bound are watched (killed past a memory budget),
//! which fails the test instead of exhausting the machine.

use agon_tests::cli::{agon, agon_path, agon_with_stdin, scratch};
use agon_tests::selfplay::resident_kb;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Writes a process's standard input (on its own thread).
type Feed = Box<dyn FnOnce(&mut dyn Write) + Send>;

/// What a watched `agon` did: exit code (`None` if killed), stdout, and the peak resident
/// set seen in kB (or the reason it was killed).
struct Watched {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    peak_kb: u64,
    killed: Option<String>,
}

/// Runs `agon ARGS`, feeding `stdin` (streamed from a thread) and killing it past 120 s or
/// `max_kb` of resident memory.
fn watched(args: &[&str], stdin: Option<Feed>, max_kb: u64) -> Watched {
    let mut child = Command::new(agon_path())
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start agon");
    if let (Some(feed), Some(mut pipe)) = (stdin, child.stdin.take()) {
        std::thread::spawn(move || feed(&mut pipe));
    }
    let read_all = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let reader = read_all(Box::new(child.stdout.take().expect("stdout")));
    let errors = read_all(Box::new(child.stderr.take().expect("stderr")));
    let started = Instant::now();
    let (mut peak_kb, mut killed) = (0, None);
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        peak_kb = peak_kb.max(resident_kb(child.id()).unwrap_or(0));
        if peak_kb > max_kb {
            killed = Some(format!("resident set {peak_kb} kB over {max_kb} kB"));
        } else if started.elapsed() > Duration::from_secs(120) {
            killed = Some("still running after 120 s".into());
        }
        if killed.is_some() {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Watched {
        code,
        stdout: reader.join().unwrap(),
        stderr: errors.join().unwrap(),
        peak_kb,
        killed,
    }
}

/// A file: a game of about `size` bytes (one action, a comment filling it, a result) after
/// a tag line, then a short valid game.
fn write_big_game(path: &Path, size: usize) {
    let mut text = b"[Event \"big\"]\n1. h9-g9 {".to_vec();
    text.resize(size, b'x');
    text.extend_from_slice(b"} *\n\n[Event \"small\"]\n\n1. h9-g9 *\n");
    std::fs::write(path, text).unwrap();
}

/// A game of 64 MB (the limit is 4 MiB) is reported where it passes the limit, the game
/// after it is still read, both with one and two threads, and memory stays far below the
/// game's size.
#[test]
fn a_game_longer_than_the_limit_is_reported_in_flat_memory() {
    let dir = scratch("hostile-big-game");
    let file = dir.join("big.agn");
    write_big_game(&file, 64 << 20);
    let file = file.to_str().unwrap();
    // The game starts at line 1 with its tag (14 bytes with its line break); the limit is
    // 4 MiB later, on line 2.
    let column = (4u64 << 20) - 14 + 1;
    let expected = format!(
        "{{\"file\":\"{file}\",\"game\":1,\"valid\":false,\"plies\":1,\"result\":null,\
         \"termination\":null,\"error_ply\":2,\"move_number\":1,\"side\":\"Black\",\"line\":2,\
         \"column\":{column},\"kind\":\"syntax\",\"message\":\"the game is longer than 4 MiB; \
         a game is at most 4194304 bytes from its first tag or token (the rest of it is \
         skipped)\"}}\n\
         {{\"file\":\"{file}\",\"game\":2,\"valid\":true,\"plies\":1,\"variant\":\"standard\",\
         \"captures\":0,\"result\":\"*\",\"termination\":null,\"start_line\":4}}\n"
    );
    for threads in ["1", "2"] {
        let run = watched(
            &["validate", "--json", "--threads", threads, file],
            None,
            48_000,
        );
        assert_eq!(run.killed, None, "--threads {threads}");
        assert_eq!(run.code, Some(1));
        assert_eq!(
            without_tool(&run.stdout),
            without_tool(&expected),
            "--threads {threads}"
        );
        assert!(run.peak_kb < 48_000, "peak {} kB", run.peak_kb);
    }
    // 64 MB per run of the suite is too much to leave behind in the temporary directory.
    std::fs::remove_dir_all(&dir).ok();
}

/// The JSON lines of `text` without their `tool` (the build that wrote them, checked in
/// tests/tests/provenance.rs).
fn without_tool(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(object) = value.as_object_mut() {
                object.remove("tool");
            }
            value
        })
        .collect()
}

/// 64 MB of NUL bytes through stdin (as from /dev/zero): one invalid game, in flat memory.
#[test]
fn nul_bytes_through_stdin_are_one_invalid_game_in_flat_memory() {
    let feed: Feed = Box::new(|pipe: &mut dyn Write| {
        let block = vec![0u8; 1 << 20];
        for _ in 0..64 {
            if pipe.write_all(&block).is_err() {
                return;
            }
        }
    });
    let run = watched(&["validate", "--threads", "2", "-"], Some(feed), 48_000);
    assert_eq!(run.killed, None);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stdout,
        "<stdin>:1:1: game 1, ply 1 (move 1, White): unexpected character 0x00: expected an \
         action, a move number, a comment, a NAG or a result\n1 game: 0 valid, 1 invalid\n"
    );
}

/// 20,000 tags: the first one past 256 is the error (linear time; without a cap the
/// duplicate check was quadratic), and the game after it is read.
#[test]
fn a_game_with_too_many_tags_is_refused_at_the_first_one_past_the_cap() {
    let dir = scratch("hostile-tags");
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!("[T{i} \"v\"]\n"));
    }
    text.push_str("\n*\n\n1. h9-g9 *\n");
    let file = dir.join("tags.agn");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();
    let run = agon(&["validate", file]).code(1);
    assert_eq!(
        run.stdout,
        format!(
            "{file}:257:1: game 1: a game has at most 256 tags besides Result, Variant, \
             Position and Termination\n2 games: 1 valid, 1 invalid\n"
        )
    );
    // The same cap for JSON.
    let tags: Vec<String> = (0..20_000).map(|i| format!("\"T{i}\":\"v\"")).collect();
    let json = format!("{{\"tags\":{{{}}},\"moves\":[]}}\n", tags.join(","));
    let run = agon_with_stdin(&["convert", "--to", "agn"], &json).code(1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("agon: <stdin>:1: game 1: a game has at most 256 tags"),
        "{}",
        run.stderr
    );
}

/// A JSON tag name longer than a record allows is refused, not written into a record that
/// `validate` then rejects.
#[test]
fn json_tag_names_longer_than_a_record_allows_are_refused() {
    let name = "N".repeat(65);
    let json = format!("{{\"tags\":{{\"{name}\":\"x\"}},\"moves\":[]}}\n");
    let run = agon_with_stdin(&["convert", "--to", "agn"], &json).code(1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        format!(
            "agon: <stdin>:1: game 1: the tag `{name}` is not valid in a record (names are at \
             most 64 letters, digits and `_`; values are one line of at most 8192 bytes)\n"
        )
    );
    // 64 characters are fine, and the record validates.
    let name = "N".repeat(64);
    let json = format!("{{\"tags\":{{\"{name}\":\"x\"}},\"moves\":[]}}\n");
    let record = agon_with_stdin(&["convert", "--to", "agn"], &json).ok();
    agon_with_stdin(&["validate", "-"], &record.stdout).ok();
}

/// A multi-line JSON game is read in linear time (it used to be parsed again after every
/// line): 200,000 lines of tags, one per line, are refused at the cap at once.
#[test]
fn a_long_multi_line_json_game_is_read_in_linear_time() {
    let mut json = String::from("{\"tags\": {\n");
    for i in 0..200_000 {
        json.push_str(&format!("  \"T{i}\": \"v\",\n"));
    }
    json.push_str("  \"last\": \"v\"\n},\n\"moves\": []}\n{\"moves\": []}\n");
    let feed: Feed = Box::new(move |pipe: &mut dyn Write| drop(pipe.write_all(json.as_bytes())));
    let run = watched(&["convert", "--to", "agn"], Some(feed), 500_000);
    assert_eq!(run.killed, None);
    assert_eq!(run.code, Some(1));
    // One error, for the first game (not one per line of the rest of it).
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(": game 1: a game has at most 256 tags"),
        "{}",
        run.stderr
    );
    // The game after it is still converted.
    assert_eq!(run.stdout, "[Result \"*\"]\n[Variant \"standard\"]\n\n*\n");
}

/// Messages quote numbers as written, never a saturated 18446744073709551615.
#[test]
fn messages_quote_numbers_as_written() {
    let record = "1. h9-g9 99999999999999999999999. b7-c7 *\n\n\
                  [Position \"99999999999999999999999/x w -\"]\n*\n";
    let run = agon_with_stdin(&["validate", "-"], record).code(1);
    assert_eq!(
        run.stdout,
        "<stdin>:1:10: game 1, ply 2 (move 1, Black): `99999999999999999999999.` is too \
         large for a move number\n\
         <stdin>:3:12: game 2: the Position tag is not a position: file a has 6 cells (a1 to \
         a6); 99999999999999999999999 empty cells after 0 go past its end\n\
         2 games: 0 valid, 2 invalid\n"
    );
    assert!(!run.stdout.contains("18446744073709551615"));
}

#[test]
fn threads_have_an_upper_bound() {
    for command in ["validate", "fmt", "convert"] {
        let run = agon_with_stdin(&[command, "--threads", "2000", "-"], "*\n").code(2);
        assert_eq!(
            run.stderr, "agon: --threads takes a number from 1 to 1024, not 2000\n",
            "{command}"
        );
    }
}

/// After a `position` that does not parse (or is refused), `go` has no position to search.
#[test]
fn a_failed_position_leaves_no_position() {
    let run = agon_with_stdin(
        &["engine"],
        // No `quit`: the end of the input lets the last search answer.
        "position startpos moves zz\ngo depth 1\nposition startpos\ngo depth 1\n",
    );
    let lines = run.lines();
    assert!(
        lines[0].starts_with("error position: move 1: `zz` is not an action"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "error go: no position (the last `position` command failed); send one first"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

/// `Hash 4096` under a memory limit (`ulimit -v`) is answered with `error`, and the engine
/// goes on with its table; it used to abort. Skipped where `sh` cannot set the limit.
#[test]
fn a_hash_too_large_for_the_memory_limit_is_an_error_not_an_abort() {
    let script = format!(
        "ulimit -v 1000000 2>/dev/null || exit 99; exec '{}' engine",
        agon_path().display()
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run sh");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"setoption name Hash value 4096\nisready\ngo depth 1\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    if output.status.code() == Some(99) {
        eprintln!("skipped: sh cannot set a memory limit here");
        return;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert_eq!(
        lines[0],
        "error setoption: `Hash` 4096: the system will not give that much memory"
    );
    assert_eq!(lines[1], "readyok");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{text}");
}
