//! `--resume` continues an interrupted run without repeating or losing a game: after a
//! kill, or with files cut short mid-write, the final output equals an uninterrupted run.

use agon_tests::selfplay::{assert_same_outputs, binary, csv_rows, read, scratch, selfplay};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn args(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "run",
        "--variant",
        "standard",
        "--variant",
        "opening=placement",
        "--agent",
        "random",
        "--games",
        "12",
        "--max-plies",
        "500",
        "--seed",
        "11",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.push(out.to_str().unwrap().into());
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn resume_repairs_cut_files_and_plays_exactly_the_missing_games() {
    let dir = scratch("resume-cut");
    let reference = dir.join("reference");
    selfplay(&args(&reference, &["--threads", "2"])).ok();

    // An interrupted copy: some rows gone, rows and records disagreeing, the last line and
    // the last record cut mid-write, no reports.
    let cut = dir.join("cut");
    copy_dir(&reference, &cut);
    for name in [
        "summary.json",
        "summary.csv",
        "outcomes.svg",
        "outcomes.png",
        "lengths.svg",
        "lengths.png",
    ] {
        std::fs::remove_file(cut.join(name)).unwrap();
    }
    let csv = read(&reference, "games.csv");
    let lines: Vec<&str> = csv.lines().collect();
    // Keep the header and games 0..=9 except 3 and 7, then half of game 10's line.
    let mut text = String::from(lines[0]);
    text.push('\n');
    for (i, line) in lines[1..].iter().enumerate() {
        if i <= 9 && i != 3 && i != 7 {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str(&lines[11][..lines[11].len() / 2]);
    std::fs::write(cut.join("games.csv"), text).unwrap();
    // Records: drop game 5's record (its row stays: it must be played again), keep game
    // 12's record (no row: it must be dropped and replayed), cut the record after it.
    let agn = read(&reference, "games.agn");
    // Each record begins with its Event tag.
    let starts: Vec<usize> = agn.match_indices("[Event ").map(|(at, _)| at).collect();
    assert_eq!(starts.len(), 24);
    let record = |i: usize| -> String {
        let end = starts.get(i + 1).copied().unwrap_or(agn.len());
        agn[starts[i]..end].to_string()
    };
    let mut text = String::new();
    for i in (0..=12).filter(|&i| i != 5) {
        text.push_str(&record(i));
    }
    let next = record(13);
    text.push_str(&next[..next.len() / 3]);
    std::fs::write(cut.join("games.agn"), text).unwrap();

    let run = selfplay(&args(&cut, &["--resume", "--threads", "1"])).ok();
    // Kept: games 0, 1, 2, 4, 6, 8, 9 (a row and a whole record each); replayed: the 17
    // others.
    assert!(run.stderr.contains("played 17 game(s)"), "{}", run.stderr);
    assert_same_outputs(&reference, &cut);

    // Resuming a finished run plays nothing and changes nothing.
    let again = selfplay(&["run", "--resume", "--out", cut.to_str().unwrap()]).ok();
    assert!(
        again.stderr.contains("played 0 game(s)"),
        "{}",
        again.stderr
    );
    assert_same_outputs(&reference, &cut);
}

#[test]
fn resume_refuses_another_experiment_and_run_refuses_a_used_directory() {
    let dir = scratch("resume-refuse");
    let out = dir.join("out");
    selfplay(&args(&out, &[])).ok();
    let other = selfplay(&[
        "run",
        "--variant",
        "capture=ring",
        "--games",
        "12",
        "--resume",
        "--out",
        out.to_str().unwrap(),
    ])
    .code(2);
    // Only the setting that differs is named (`--games 12` is the run's own).
    assert_eq!(
        other.stderr,
        format!(
            "agon-selfplay: {out} holds another experiment: --variant capture=ring (the run \
             has --variant standard --variant opening=placement); continue it with `agon-selfplay run \
             --resume --out {out}` and no experiment options\n",
            out = out.display()
        )
    );
    let fresh = selfplay(&args(&out, &[])).code(2);
    assert!(fresh.stderr.contains("--resume"), "{}", fresh.stderr);
}

fn rows_in(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn a_killed_run_resumes_to_the_same_games() {
    let dir = scratch("resume-kill");
    let common = [
        "run",
        "--variant",
        "standard",
        "--agent",
        "random",
        "--games",
        "3000",
        "--max-plies",
        "1000",
        "--seed",
        "3",
    ];
    let killed = dir.join("killed");
    let mut child = Command::new(binary())
        .args(common)
        .args(["--threads", "1", "--out", killed.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while rows_in(&killed.join("games.csv")) < 10 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = rows_in(&killed.join("games.csv"));
    assert!(
        (10..3000).contains(&at_kill),
        "the run was killed mid-way ({at_kill} games written)"
    );
    assert!(!killed.join("summary.json").exists());

    selfplay(&[
        "run",
        "--resume",
        "--threads",
        "2",
        "--out",
        killed.to_str().unwrap(),
    ])
    .ok();
    let whole = dir.join("whole");
    selfplay(
        &common
            .iter()
            .copied()
            .chain(["--threads", "2", "--out", whole.to_str().unwrap()])
            .collect::<Vec<_>>(),
    )
    .ok();
    assert_same_outputs(&whole, &killed);
    assert_eq!(csv_rows(&read(&killed, "games.csv")).len(), 3000);
}
