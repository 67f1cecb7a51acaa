//! Reading and validating game records: games/s, validated actions/s and peak memory.
//!
//! `cargo bench -p agon-notation --bench notation` generates 100,000 random standard games
//! (seeded, written once to the system temp directory), then reads and validates that file
//! and a file ten times larger, each in a fresh process, and prints one table row per file
//! with the peak resident memory (VmHWM from /proc, Linux) and rates per CPU second (from
//! /proc/self/schedstat). `-- quick` uses 10,000 games.
//! `-- read FILE` reads one file and prints its row; `-- syntax FILE` only tokenizes it.

use agon_core::{random_playout, Game, Rng, Rules};
use agon_notation::{AnnotatedAction, Flow, GameRecord, Location, Reader, Records, Visitor};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const SEED: u64 = 1842;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "read") {
        let path = PathBuf::from(args.get(i + 1).expect("read FILE"));
        read(&path);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "syntax") {
        let path = PathBuf::from(args.get(i + 1).expect("syntax FILE"));
        syntax(&path);
        return;
    }
    let quick = args.iter().any(|a| a == "quick");
    let games = if quick { 10_000 } else { 100_000 };
    let dir = std::env::temp_dir().join("agon-notation-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let one = dir.join(format!("standard-{games}.agn"));
    let ten = dir.join(format!("standard-{}.agn", games * 10));
    generate(&one, games);
    generate(&ten, games * 10);
    println!(
        "| file | games | actions | MB | wall s | CPU s | games/CPU s | actions/CPU s | MB/CPU s | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let exe = std::env::current_exe().expect("own path");
    for (mode, path) in [("syntax", &one), ("read", &one), ("read", &ten)] {
        let output = Command::new(&exe)
            .arg(mode)
            .arg(path)
            .output()
            .expect("run the reader");
        print!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
    }
}

/// Writes `games` random standard games (played to their end) unless the file exists.
fn generate(path: &Path, games: u64) {
    if path.exists() {
        return;
    }
    let start = Instant::now();
    let partial = path.with_extension("partial");
    let mut out = BufWriter::new(File::create(&partial).expect("create file"));
    let mut plies = 0;
    for i in 0..games {
        let mut game = Game::new(Rules::STANDARD);
        let mut rng = Rng::for_stream(SEED, i);
        plies += random_playout(&mut game, &mut rng, 100_000);
        let round = (i + 1).to_string();
        let record = GameRecord::from_game(&game, &[("Event", "bench"), ("Round", &round)]);
        record.write_to(&mut out).expect("write");
        out.write_all(b"\n").expect("write");
    }
    out.flush().expect("flush");
    drop(out);
    std::fs::rename(&partial, path).expect("rename");
    eprintln!(
        "generated {} ({games} games, {plies} plies) in {:.1} s",
        path.display(),
        start.elapsed().as_secs_f64()
    );
}

/// Reads and validates a file; prints a table row.
fn read(path: &Path) {
    let bytes = std::fs::metadata(path).expect("file").len();
    let file = File::open(path).expect("open");
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut games = 0u64;
    let mut actions = 0u64;
    let mut errors = 0u64;
    for game in Records::new(file) {
        match game {
            Ok(game) => {
                games += 1;
                actions += game.record.plies.len() as u64;
            }
            Err(error) => {
                errors += 1;
                if errors <= 3 {
                    eprintln!("{error}");
                }
            }
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    assert_eq!(errors, 0, "the generated file is valid");
    row(path, "", games, actions, bytes, wall, cpu);
}

/// Tokenizes a file without validating (the syntax layer alone); prints a table row.
fn syntax(path: &Path) {
    struct Count {
        games: u64,
        actions: u64,
    }
    impl Visitor for Count {
        fn begin_game(&mut self, _: Location) {
            self.games += 1;
        }
        fn action(&mut self, _: AnnotatedAction, _: Location) -> Flow {
            self.actions += 1;
            Flow::Continue
        }
    }
    let bytes = std::fs::metadata(path).expect("file").len();
    let mut reader = Reader::new(File::open(path).expect("open"));
    let mut count = Count {
        games: 0,
        actions: 0,
    };
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    while reader.read_game(&mut count).expect("read") {}
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    let (games, actions) = (count.games, count.actions);
    row(path, " (syntax only)", games, actions, bytes, wall, cpu);
}

/// Prints one table row; rates are per second of CPU time (one core), which the other
/// processes of a busy machine disturb less than wall time.
fn row(path: &Path, what: &str, games: u64, actions: u64, bytes: u64, wall: f64, cpu: f64) {
    println!(
        "| {}{what} | {games} | {actions} | {:.0} | {wall:.2} | {cpu:.2} | {:.0} | {:.2} M | {:.0} | {} |",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
        bytes as f64 / 1e6,
        games as f64 / cpu,
        actions as f64 / cpu / 1e6,
        bytes as f64 / cpu / 1e6,
        peak_rss()
    );
}

/// CPU time of this process so far, from /proc/self/schedstat (Linux; nanoseconds on the
/// CPU), or wall time since the first call where that is not available.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(|ns| ns as f64 / 1e9)
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed().as_secs_f64())
}

/// Peak resident memory of this process (VmHWM), as reported by Linux.
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "n/a".to_string())
}
