//! Throughput of `agon validate` on a generated file of random games, run as the real
//! binary: one thread against every core. Prints MB/s and games/s.
//!
//! `cargo bench -p agon-cli --bench validate` (set AGON_BENCH_GAMES to change the size).

use agon_core::{random_playout, Game, Rng, Rules};
use agon_notation::GameRecord;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let games: usize = std::env::var("AGON_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let path = std::env::temp_dir().join(format!("agon-validate-bench-{}.agn", std::process::id()));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
    let mut rng = Rng::new(2024);
    for i in 0..games {
        let mut game = Game::new(Rules::STANDARD);
        random_playout(&mut game, &mut rng, 300);
        let round = (i + 1).to_string();
        let record = GameRecord::from_game(&game, &[("Event", "bench"), ("Round", &round)]);
        writeln!(file, "{record}").expect("write");
    }
    drop(file);
    let bytes = std::fs::metadata(&path).expect("size").len();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "validate: {games} random games, {:.1} MB, {cores} cores",
        bytes as f64 / 1e6
    );
    for threads in [1, cores] {
        let start = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_agon"))
            .args(["validate", "--quiet", "--threads", &threads.to_string()])
            .arg(&path)
            .stdout(Stdio::null())
            .status()
            .expect("run agon");
        let seconds = start.elapsed().as_secs_f64();
        assert!(status.success(), "every generated game is valid");
        println!(
            "  --threads {threads}: {seconds:.2} s, {:.1} MB/s, {:.0} games/s",
            bytes as f64 / 1e6 / seconds,
            games as f64 / seconds
        );
    }
    let _ = std::fs::remove_file(&path);
}
