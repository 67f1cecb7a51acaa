//! `agon-selfplay` under hostile conditions: two processes on one output directory, a
//! full disk, an absurd `--games` or `--threads`, a config file that never ends, a
//! non-empty `--out`, a damaged `games.agn`, and `--resume` with the run's own options.
//!
//! Runs that would misbehave without the fixes (grow without bound, never end) are watched:
//! killed past a time or memory budget, which fails the test instead of hanging it.

use agon_tests::selfplay::{binary, csv_rows, read, scratch, selfplay, watched};
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Rows in `DIR/games.csv` so far (0 if it does not exist yet).
fn rows_so_far(dir: &Path) -> usize {
    fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// A child process killed when dropped, so that a failed assertion never leaves an endless
/// run filling the disk behind the test.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

/// Starts a run that goes on until killed, and waits until it has played a game.
fn endless_run(out: &Path) -> KillOnDrop {
    let child = Command::new(binary())
        .args([
            "run",
            "--agent",
            "random",
            "--games",
            "100000000",
            "--threads",
            "1",
        ])
        .args(["--max-plies", "50", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start agon-selfplay");
    let child = KillOnDrop(child);
    let started = Instant::now();
    while rows_so_far(out) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no game played"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn a_second_run_on_a_locked_out_exits_2_naming_the_holder() {
    let dir = scratch("hostile-lock");
    let out = dir.join("out");
    let first = endless_run(&out);
    let holder = format!("(pid {})", first.0.id());
    let out_arg = out.to_str().unwrap();
    for extra in [&[][..], &["--resume"][..]] {
        let mut args = vec!["run", "--agent", "random", "--games", "100000000"];
        args.extend_from_slice(&["--threads", "1", "--max-plies", "50", "--out", out_arg]);
        args.extend_from_slice(extra);
        let second = watched(&args, 30, 500_000, || false);
        assert_eq!(second.killed, None, "the second run did not stop");
        assert_eq!(second.code, Some(2), "{}", second.stderr);
        assert_eq!(
            second.stderr,
            format!(
                "agon-selfplay: {out_arg}: in use by another process {holder}; wait for it to \
                 end, or choose another --out\n"
            )
        );
    }
    drop(first);
    // Killed, the first run's lock is gone: the run resumes (and stops at our signal).
    let resumed = watched(&["run", "--resume", "--out", out_arg], 60, 500_000, || {
        rows_so_far(&out) > 50
    });
    assert_eq!(resumed.killed.as_deref(), Some(""), "{}", resumed.stderr);
}

#[test]
fn resume_accepts_the_stored_options_and_names_a_differing_one() {
    let dir = scratch("hostile-resume-options");
    let out = dir.join("out");
    let out_arg = out.to_str().unwrap();
    let common = ["--agent", "random", "--max-plies", "60", "--out", out_arg];
    let mut first = vec!["run", "--games", "4", "--seed", "11"];
    first.extend_from_slice(&common);
    selfplay(&first).ok();
    selfplay(&["run", "--resume", "--seed", "11", "--out", out_arg]).ok();
    let mut same = vec!["run", "--resume", "--games", "4", "--seed", "11"];
    same.extend_from_slice(&common);
    selfplay(&same).ok();
    let run = selfplay(&[
        "run", "--resume", "--seed", "12", "--games", "5", "--out", out_arg,
    ])
    .code(2);
    assert_eq!(
        run.stderr,
        format!(
            "agon-selfplay: {out_arg} holds another experiment: --games 5 (the run has 4), \
             --seed 12 (the run has 11); continue it with `agon-selfplay run --resume --out \
             {out_arg}` and no experiment options\n"
        )
    );
    assert_eq!(csv_rows(&read(&out, "games.csv")).len(), 4);
}

#[test]
fn a_huge_games_count_plays_in_bounded_memory() {
    let dir = scratch("hostile-huge");
    let out = dir.join("out");
    let run = watched(
        &[
            "run",
            "--agent",
            "random",
            "--games",
            "1000000000000",
            "--threads",
            "2",
            "--max-plies",
            "50",
            "--out",
            out.to_str().unwrap(),
        ],
        60,
        100_000,
        || rows_so_far(&out) >= 200,
    );
    assert_eq!(
        run.killed.as_deref(),
        Some(""),
        "peak {} kB; {}",
        run.peak_kb,
        run.stderr
    );
}

#[test]
fn threads_have_an_upper_bound() {
    let dir = scratch("hostile-threads");
    let out = dir.join("out");
    let run = watched(
        &[
            "run",
            "--threads",
            "2000",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        30,
        2_000_000,
        || false,
    );
    assert_eq!(run.killed, None);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "agon-selfplay: --threads takes a number from 1 to 1024, not 2000\n"
    );
    assert!(!out.exists());
}

#[test]
fn a_config_file_that_never_ends_is_refused() {
    let dir = scratch("hostile-config");
    let out = dir.join("out");
    let run = watched(
        &[
            "run",
            "--config",
            "/dev/zero",
            "--out",
            out.to_str().unwrap(),
        ],
        30,
        100_000,
        || false,
    );
    assert_eq!(run.killed, None, "peak {} kB", run.peak_kb);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "agon-selfplay: /dev/zero: a config file is at most 1 MiB\n"
    );
}

/// A fresh run writes only into a new or empty directory (`--out /` would scatter the
/// run's files among the system's).
#[test]
fn a_fresh_run_refuses_a_directory_with_other_files() {
    let dir = scratch("hostile-nonempty");
    fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = dir.to_str().unwrap();
    let run = selfplay(&["run", "--games", "2", "--out", out]).code(2);
    assert_eq!(
        run.stderr,
        format!(
            "agon-selfplay: {out}: a new run needs a new or empty directory, and this one holds \
             other files (notes.txt); choose another --out\n"
        )
    );
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["notes.txt"]);
}

/// One byte of `games.agn` that is not UTF-8: `--resume` names its place, plays that game
/// again, and ends with the same files as an undamaged run.
#[test]
fn a_damaged_record_is_played_again_on_resume() {
    let dir = scratch("hostile-utf8");
    let args = |out: &Path| -> Vec<String> {
        [
            "run",
            "--agent",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--max-plies",
            "80",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(["--out".to_string(), out.to_str().unwrap().to_string()])
        .collect()
    };
    let clean = dir.join("clean");
    selfplay(&args(&clean)).ok();
    let damaged = dir.join("damaged");
    selfplay(&args(&damaged)).ok();
    let agn = damaged.join("games.agn");
    let mut bytes = fs::read(&agn).unwrap();
    let third = find_nth(&bytes, b"[Event \"agon-selfplay\"]", 3);
    let movetext = third + find_nth(&bytes[third..], b"\n\n1. ", 1) + 3;
    bytes[movetext] = 0xFF;
    let line = bytes[..movetext].iter().filter(|&&b| b == b'\n').count() + 1;
    fs::write(&agn, &bytes).unwrap();
    let run = selfplay(&["run", "--resume", "--out", damaged.to_str().unwrap()]).ok();
    assert!(
        run.stderr.contains(&format!(
            "{}:{line}: game 2: the record is not valid UTF-8; the game is played again",
            agn.display()
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("played 1 game(s)"), "{}", run.stderr);
    agon_tests::selfplay::assert_same_outputs(&clean, &damaged);
}

/// The offset of the `n`-th (1-based) occurrence of `needle`.
fn find_nth(haystack: &[u8], needle: &[u8], n: usize) -> usize {
    haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .nth(n - 1)
        .map(|(i, _)| i)
        .expect("occurrence")
}

/// Merging: a copy of a game that differs from another copy, or a `games.csv` row that
/// does not match its record, is refused with the game named.
#[test]
fn merge_compares_duplicates_and_rows_with_records() {
    let dir = scratch("hostile-merge");
    let a = dir.join("a");
    selfplay(&[
        "run",
        "--agent",
        "random",
        "--games",
        "4",
        "--seed",
        "2",
        "--max-plies",
        "60",
        "--out",
        a.to_str().unwrap(),
    ])
    .ok();
    // b: a copy whose record of game 1 has another (legal) result and termination.
    let b = dir.join("b");
    copy_dir(&a, &b);
    let agn = read(&b, "games.agn");
    let second = agn.find("[Round \"2\"]").unwrap();
    let (head, tail) = agn.split_at(second);
    let original = tail.to_string();
    let tail = tail.replacen("[Result \"1/2-1/2\"]", "[Result \"1-0\"]", 1);
    let tail = tail.replacen(
        "[Termination \"move-limit\"]",
        "[Termination \"resignation\"]",
        1,
    );
    let tail = tail.replacen(" 1/2-1/2\n", " 1-0\n", 1);
    assert_ne!(
        tail, original,
        "game 1 was expected to be a move-limit draw"
    );
    fs::write(b.join("games.agn"), format!("{head}{tail}")).unwrap();
    for (order, first) in [([&b, &a], &b), ([&a, &b], &a)] {
        let run = selfplay(&[
            "merge",
            order[0].to_str().unwrap(),
            order[1].to_str().unwrap(),
            "--out",
            dir.join(format!(
                "m-{}",
                first.file_name().unwrap().to_str().unwrap()
            ))
            .to_str()
            .unwrap(),
        ])
        .code(2);
        assert!(run.stderr.contains("game 1"), "{}", run.stderr);
    }
    // c: a copy whose games.csv says game 2 had one ply more than its record.
    let c = dir.join("c");
    copy_dir(&a, &c);
    let csv = read(&c, "games.csv");
    let rows = csv_rows(&csv);
    let plies = &rows[2]["plies"];
    let lines: Vec<&str> = csv.lines().collect();
    let bad = lines[3].replacen(
        &format!(",{plies},"),
        &format!(",{},", plies.parse::<u32>().unwrap() + 1),
        1,
    );
    let mut text = lines.clone();
    text[3] = &bad;
    fs::write(c.join("games.csv"), text.join("\n") + "\n").unwrap();
    let run = selfplay(&[
        "merge",
        c.to_str().unwrap(),
        "--out",
        dir.join("m-c").to_str().unwrap(),
    ])
    .code(2);
    assert!(
        run.stderr.contains("game 2") && run.stderr.contains("plies"),
        "{}",
        run.stderr
    );
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// A full disk (a small tmpfs, mounted when we may): the run fails with the system's
/// error, exit 2, and leaves no temporary file. Skipped without the right to mount.
#[test]
fn a_full_disk_fails_cleanly_and_leaves_no_temporary_file() {
    let dir = scratch("hostile-full");
    let mount = dir.join("mnt");
    fs::create_dir_all(&mount).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=96k", "tmpfs"])
        .arg(&mount)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a small tmpfs (needs root)");
        return;
    }
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&mount);
    let out = mount.join("out");
    let run = selfplay(&[
        "run",
        "--agent",
        "random",
        "--games",
        "4",
        "--max-plies",
        "60",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ])
    .code(2);
    assert!(
        run.stderr.contains("No space left on device"),
        "{}",
        run.stderr
    );
    let left: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}
