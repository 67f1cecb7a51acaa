//! The reader never panics, stays linear and keeps its promises on hostile input.
//!
//! A seeded mutation fuzzer over the corpus (byte flips, insertions of syntax characters
//! and invalid UTF-8, deletions, duplications, splices, long runs, truncations). Each input
//! is read to the end; every game read as valid must print and read back to the same
//! record, and every error must name its place. The suite runs a short fixed number of
//! inputs; a long run is
//!
//! ```text
//! AGON_FUZZ_SECONDS=600 cargo test -p agon-notation --release --test fuzz -- --nocapture
//! ```
//!
//! (`AGON_FUZZ_SEED` picks another seed.)

use agon_core::{random_playout, Game, Rng, Rules};
use agon_notation::{
    parse_position, AnnotatedAction, GameRecord, Reader, Records, Visitor, START_POSITION,
};
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus_files() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/records");
    let mut files = Vec::new();
    for dir in ["valid", "invalid"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("corpus dir")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        for path in paths {
            files.push(std::fs::read(path).expect("corpus file"));
        }
    }
    files
}

/// Seeds: the corpus and a few random games in several rule sets.
fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = corpus_files();
    let mut rules = Rules::single_switch_variants();
    rules.push(Rules::LUDII);
    for (i, rules) in rules.into_iter().enumerate() {
        let mut game = Game::new(rules);
        random_playout(&mut game, &mut Rng::new(i as u64), 80);
        seeds.push(
            GameRecord::from_game(&game, &[("Event", "fuzz")])
                .to_string()
                .into_bytes(),
        );
    }
    seeds
}

const INTERESTING: &[u8] =
    b"{}[]\"\\;%$!?()*.-@x/ \n\r\t0123456789abcdefghijklQGpass\x00\x80\xbf\xc3\xe2\xff";

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(8) {
        let len = data.len();
        let at = if len == 0 { 0 } else { rng.below(len + 1) };
        match rng.below(9) {
            0 if at < len => data[at] ^= 1 << rng.below(8),
            1 => data.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            2 if at < len => {
                let end = (at + 1 + rng.below(64)).min(len);
                data.drain(at..end);
            }
            3 if at < len => {
                let end = (at + 1 + rng.below(256)).min(len);
                let copy = data[at..end].to_vec();
                let to = rng.below(data.len() + 1);
                data.splice(to..to, copy);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let end = (from + 1 + rng.below(512)).min(other.len());
                    data.splice(at..at, other[from..end].iter().copied());
                }
            }
            5 => {
                let byte = INTERESTING[rng.below(INTERESTING.len())];
                let longest = if rng.below(10) == 0 { 100_000 } else { 200 };
                let run = 1 + rng.below(longest);
                data.splice(at..at, vec![byte; run]);
            }
            6 => data.truncate(at),
            7 if at < len => data[at] = INTERESTING[rng.below(INTERESTING.len())],
            _ => data.insert(at, rng.below(256) as u8),
        }
    }
    data
}

/// A source that hands out at most `chunk` bytes per read, to cross buffer boundaries.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Reads an input to the end and checks every promise; returns (valid games, errors).
fn check_input(data: &[u8], chunk: usize) -> (usize, usize) {
    let (mut valid, mut errors) = (0, 0);
    for (expected_index, item) in (1..).zip(Records::new(Chunked { data, chunk })) {
        match item {
            Ok(game) => {
                assert_eq!(game.index, expected_index);
                let text = game.record.to_string();
                let again: GameRecord = text
                    .parse()
                    .unwrap_or_else(|e| panic!("{e}\nprinted:\n{text}"));
                assert_eq!(again, game.record);
                assert_eq!(again.to_string(), text);
                valid += 1;
            }
            Err(e) => {
                assert_eq!(e.game, expected_index);
                assert!(e.line >= 1 && e.column >= 1, "{e}");
                assert!(!e.message.is_empty());
                assert_ne!(e.kind, agon_notation::ErrorKind::Io);
                errors += 1;
            }
        }
    }
    // The syntax layer alone agrees on the number of games, and a reader that retains its
    // input (releasing each game's bytes once past it, as the CLI's batches do) lends
    // exactly the input's bytes at the offsets it reports.
    #[derive(Default)]
    struct Spans(Vec<(u64, u64)>);
    impl Visitor for Spans {
        fn begin_game(&mut self, at: agon_notation::Location) {
            self.0.push((at.offset, at.offset));
        }
        fn end_game(&mut self, at: agon_notation::Location) {
            if let Some(span) = self.0.last_mut() {
                span.1 = at.offset;
            }
        }
    }
    let mut reader = Reader::new(Chunked { data, chunk });
    reader.retain_from(0, usize::MAX);
    let mut spans = Spans::default();
    let mut released = 0;
    while reader.read_game(&mut spans).expect("in-memory read") {
        let (begin, end) = *spans.0.last().expect("a game was reported");
        let lent = reader.retained(begin..end).expect("the game is retained");
        assert_eq!(lent, &data[begin as usize..end as usize]);
        assert!(reader.retained(released..reader.bytes_read()).is_some());
        reader.release(released);
        released = begin;
    }
    assert_eq!(reader.bytes_read(), data.len() as u64);
    let tail = reader.retained(released..data.len() as u64);
    assert_eq!(tail, Some(&data[released as usize..]));
    assert_eq!(spans.0.len(), valid + errors);
    (valid, errors)
}

fn check_position_text(rng: &mut Rng) {
    let mut text = START_POSITION.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(text.len() + 1);
        match rng.below(3) {
            0 if at < text.len() => {
                text.remove(at);
            }
            1 => {
                let set = b"QGqg*/ 0123456789wb-x\xc3";
                text.insert(at, set[rng.below(set.len())]);
            }
            _ => text.insert(at, rng.below(128) as u8),
        }
    }
    let text = String::from_utf8_lossy(&text);
    for rules in [Rules::STANDARD, Rules::LUDII] {
        match parse_position(&text, rules) {
            Ok(position) => {
                assert_eq!(agon_notation::format_position(&position), text);
            }
            Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}"),
        }
    }
    let token: String = text.chars().take(12).collect();
    let _ = AnnotatedAction::parse(&token);
}

fn run(iterations: Option<u64>, budget: Duration, seed: u64) -> (u64, usize, usize) {
    let seeds = seeds();
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let (mut inputs, mut valid, mut errors) = (0, 0, 0);
    while iterations.map_or(start.elapsed() < budget, |n| inputs < n) {
        let data = mutate(&mut rng, &seeds);
        let chunk = [1, 7, 4096, usize::MAX][rng.below(4)];
        let (v, e) = check_input(&data, chunk);
        valid += v;
        errors += e;
        check_position_text(&mut rng);
        inputs += 1;
    }
    (inputs, valid, errors)
}

#[test]
fn mutated_records_never_break_the_reader() {
    let seed = std::env::var("AGON_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1842);
    let seconds: Option<u64> = std::env::var("AGON_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let (inputs, valid, errors) = match seconds {
        Some(s) => run(None, Duration::from_secs(s), seed),
        None => run(Some(300), Duration::ZERO, seed),
    };
    println!("fuzz: seed {seed}, {inputs} inputs, {valid} valid games, {errors} errors");
    assert!(valid > 0 && errors > 0);
}

#[test]
fn chunked_reads_give_the_same_results() {
    for file in corpus_files() {
        let whole = check_input(&file, usize::MAX);
        for chunk in [1, 2, 3, 5, 64] {
            assert_eq!(check_input(&file, chunk), whole);
        }
    }
}

#[test]
fn hostile_inputs_are_errors_not_hangs() {
    let big = 2_000_000;
    let mut cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![b'a'; big], "a token longer than 64 characters"),
        (vec![b'['; big], "expected a tag name"),
        (vec![b'{'; big], "the comment opened here is not closed"),
        (vec![0xff; big], "byte 0xFF is not valid UTF-8"),
        (vec![b'1'; big], "a token longer than 64 characters"),
        (vec![b'!'; big], "a move suffix is one of"),
    ];
    let mut tag = b"[Event \"".to_vec();
    tag.extend(vec![b'x'; big]);
    cases.push((tag, "a tag value is at most 8192 bytes"));
    for (mut data, message) in cases {
        data.extend_from_slice(b"\n*\n\n[Event \"next\"]\n1. h9-g9 *\n");
        let items: Vec<_> = Records::new(&data[..]).collect();
        let first = items[0].as_ref().expect_err("hostile input is an error");
        assert!(first.message.starts_with(message), "{first}");
        let last = items.last().unwrap().as_ref();
        assert_eq!(
            last.map(|g| g.record.plies.len()).ok(),
            Some(1),
            "the game after the hostile input is read"
        );
    }
}

/// What `agon fmt` writes for an input whose every game is valid: each game's canonical
/// text, one blank line between games. `None` when some game is invalid (fmt leaves such
/// a file unchanged) or there is no game.
fn formatted(data: &[u8]) -> Option<(String, Vec<GameRecord>)> {
    let mut records = Vec::new();
    for item in Records::new(data) {
        records.push(item.ok()?.record);
    }
    let texts: Vec<String> = records.iter().map(|r| r.to_string()).collect();
    (!records.is_empty()).then(|| (texts.join("\n"), records))
}

/// The property behind `agon fmt`: the canonical form of any accepted input (every game
/// valid) is accepted, holds the same games, and is its own canonical form. Checked on
/// the corpus, on random games, and on mutations of both (those that stay valid: blank
/// lines, comments, NAGs, annotations and move numbers dropped or added).
#[test]
fn formatting_accepted_input_is_accepted_and_idempotent() {
    let seeds = seeds();
    let mut rng = Rng::new(20_261_130);
    let mut inputs: Vec<Vec<u8>> = seeds.clone();
    inputs.extend((0..3000).map(|_| mutate(&mut rng, &seeds)));
    let mut accepted = 0;
    for data in &inputs {
        let Some((text, records)) = formatted(data) else {
            continue;
        };
        accepted += 1;
        let (again, reread) = formatted(text.as_bytes())
            .unwrap_or_else(|| panic!("the canonical form is refused:\n{text}"));
        assert_eq!(reread, records, "the canonical form holds other games");
        assert_eq!(again, text, "formatting twice changes the text");
    }
    // Enough accepted inputs to mean something, beyond the seeds themselves.
    assert!(accepted > seeds.len() / 2, "{accepted} accepted inputs");
}
