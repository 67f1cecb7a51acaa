//! Game records for `games.agn`: one record per game, in the project's PGN-shaped notation,
//! and the splitting of an `.agn` file back into records (for `--resume` and sorting).

use crate::row::GameRow;
use agon_core::Game;
use agon_notation::GameRecord;

/// The first tag of every record this harness writes; a record starts with this line.
const FIRST_TAG: &str = "[Event \"agon-selfplay\"]";

/// The record of a played game, written by agon-notation's canonical writer: the
/// roster tags (`Event`, `Round`, `White`, `Black`), `Result`, `Variant`, `Termination`,
/// then `Index`, `Seed`, `PlyCount` (and `TimeLimited` when an agent used the clock); the
/// movetext with every capture annotated; and a blank line that separates records.
pub fn write_record(row: &GameRow, game: &Game) -> String {
    write_record_with(row, game, &[])
}

/// [`write_record`] with more tags after the others (`Forfeit`: which side an external
/// engine's failure cost the game, and what it did).
pub fn write_record_with(row: &GameRow, game: &Game, extra: &[(&str, &str)]) -> String {
    let round = (row.index + 1).to_string();
    let index = row.index.to_string();
    let seed = row.seed.to_string();
    let plies = row.plies.to_string();
    let mut tags: Vec<(&str, &str)> = vec![
        ("Event", "agon-selfplay"),
        ("Round", &round),
        ("White", &row.white),
        ("Black", &row.black),
        ("Index", &index),
        ("Seed", &seed),
        ("PlyCount", &plies),
    ];
    if row.time_limited {
        tags.push(("TimeLimited", "yes"));
    }
    tags.extend_from_slice(extra);
    let mut text = GameRecord::from_game(game, &tags).to_string();
    text.push('\n');
    text
}

/// A record found in an `.agn` file written by this harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordSpan<'a> {
    /// The value of its `Index` tag.
    pub index: u64,
    /// The whole record text, with the blank line that follows it when there is one (every
    /// record but the last of a finished file, which ends the file with its result line).
    pub text: &'a str,
    /// The line of the file where it starts (1-based).
    pub line: u64,
}

/// A complete record that cannot be used: bytes that are not UTF-8 (a damaged disk or
/// copy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedRecord {
    /// The value of its `Index` tag, if it could be read.
    pub index: Option<u64>,
    /// The line of the file with the first bad byte (1-based).
    pub line: u64,
    /// What is wrong.
    pub reason: String,
}

/// What [`split_records`] finds in an `.agn` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitRecords<'a> {
    /// The complete, readable records, in file order.
    pub records: Vec<RecordSpan<'a>>,
    /// Complete records that cannot be read.
    pub damaged: Vec<DamagedRecord>,
    /// Bytes left out: before the first record, and records cut short by a kill.
    pub dropped: usize,
}

/// Splits an `.agn` file written by this harness into complete records. A record cut short
/// by a kill (its movetext not ended by the result of its `Result` tag and a newline, or
/// no `Index` tag) is left out and counted in `dropped`; a complete record with bytes that
/// are not UTF-8 is reported in `damaged`.
pub fn split_records(bytes: &[u8]) -> SplitRecords<'_> {
    let mut records = Vec::new();
    let scan = scan_records(bytes, |at| {
        let text = &bytes[at.offset as usize..(at.offset + at.len) as usize];
        records.push(RecordSpan {
            index: at.index,
            text: std::str::from_utf8(text).expect("scan_records checked the text"),
            line: at.line,
        });
        Ok::<(), std::convert::Infallible>(())
    });
    let scan = match scan {
        Ok(scan) => scan,
        Err(ScanError::Read(e)) => unreachable!("reading a byte slice failed: {e}"),
        Err(ScanError::Found(never)) => match never {},
    };
    SplitRecords {
        records,
        damaged: scan.damaged,
        dropped: scan.dropped as usize,
    }
}

/// Where a complete, readable record lies in an `.agn` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordAt {
    /// The value of its `Index` tag.
    pub index: u64,
    /// The byte where it starts.
    pub offset: u64,
    /// Its length in bytes, blank line included.
    pub len: u64,
    /// The line of the file where it starts (1-based).
    pub line: u64,
}

/// What [`scan_records`] found besides the records it handed over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanRecords {
    /// Complete records that cannot be read.
    pub damaged: Vec<DamagedRecord>,
    /// Bytes left out: before the first record, and records cut short by a kill.
    pub dropped: u64,
}

/// Why [`scan_records`] stopped.
#[derive(Debug)]
pub enum ScanError<E> {
    /// The input could not be read.
    Read(std::io::Error),
    /// The caller's function refused a record.
    Found(E),
}

impl<E: std::fmt::Display> std::fmt::Display for ScanError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScanError::Read(e) => write!(f, "cannot read the records: {e}"),
            ScanError::Found(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ScanError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScanError::Read(e) => Some(e),
            ScanError::Found(e) => Some(e),
        }
    }
}

/// Reads an `.agn` file written by this harness record by record, holding one record in
/// memory at a time, and calls `found` with the place of each complete, readable record in
/// file order (the rules of [`split_records`], which is this scan over a byte slice).
pub fn scan_records<E>(
    mut input: impl std::io::BufRead,
    mut found: impl FnMut(RecordAt) -> Result<(), E>,
) -> Result<ScanRecords, ScanError<E>> {
    let mut scan = ScanRecords::default();
    let mut line_text = Vec::new();
    // The record being read: its bytes, first byte and first line.
    let mut record: Vec<u8> = Vec::new();
    let mut start: Option<(u64, u64)> = None;
    let (mut offset, mut line) = (0u64, 0u64);
    loop {
        line_text.clear();
        let n = input
            .read_until(b'\n', &mut line_text)
            .map_err(ScanError::Read)?;
        let first_tag = n > 0 && line_text.trim_ascii_end() == FIRST_TAG.as_bytes();
        if n == 0 || first_tag {
            if let Some((at, at_line)) = start.take() {
                finish_record(&record, at, at_line, &mut scan, &mut found)
                    .map_err(ScanError::Found)?;
            }
            if n == 0 {
                return Ok(scan);
            }
            record.clear();
            start = Some((offset, line + 1));
        }
        if start.is_some() {
            record.extend_from_slice(&line_text);
        } else {
            scan.dropped += n as u64;
        }
        offset += n as u64;
        line += 1;
    }
}

/// Hands over one record found by [`scan_records`], or counts it dropped or damaged.
fn finish_record<E>(
    chunk: &[u8],
    offset: u64,
    line: u64,
    scan: &mut ScanRecords,
    found: &mut impl FnMut(RecordAt) -> Result<(), E>,
) -> Result<(), E> {
    let index = index_tag(chunk);
    let Some(index) = index.filter(|_| is_complete(chunk)) else {
        scan.dropped += chunk.len() as u64;
        return Ok(());
    };
    match std::str::from_utf8(chunk) {
        Ok(_) => found(RecordAt {
            index,
            offset,
            len: chunk.len() as u64,
            line,
        }),
        Err(e) => {
            let before = &chunk[..e.valid_up_to()];
            let bad_line = line + before.iter().filter(|&&b| b == b'\n').count() as u64;
            scan.damaged.push(DamagedRecord {
                index: Some(index),
                line: bad_line,
                reason: "the record is not valid UTF-8".into(),
            });
            Ok(())
        }
    }
}

/// Whether a chunk holds a whole record: it ends with a newline, and its last line ends
/// with the result its `Result` tag announces (the movetext's last token; no action or
/// move number looks like a result). A record is written in one piece, so a kill leaves a
/// prefix of it, which fails this test unless only the closing blank line is missing.
fn is_complete(chunk: &[u8]) -> bool {
    let Some(result) = tag(chunk, "Result") else {
        return false;
    };
    let last_line = chunk
        .trim_ascii_end()
        .rsplit(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    chunk.ends_with(b"\n")
        && last_line
            .split(|b| b.is_ascii_whitespace())
            .rfind(|token| !token.is_empty())
            == Some(result.as_bytes())
}

/// The `Index` tag of a record.
fn index_tag(chunk: &[u8]) -> Option<u64> {
    tag(chunk, "Index")?.parse().ok()
}

/// The value of a tag of a record (values this harness writes hold no escapes; its tag
/// lines are ASCII even when the movetext is not).
fn tag<'a>(chunk: &'a [u8], name: &str) -> Option<&'a str> {
    chunk.split(|&b| b == b'\n').find_map(|line| {
        std::str::from_utf8(line)
            .ok()?
            .strip_prefix('[')?
            .strip_prefix(name)?
            .strip_prefix(" \"")?
            .strip_suffix("\"]")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::{GameResult, Rules, Termination};

    fn row(index: u64, game: &Game) -> GameRow {
        let outcome = game.outcome().unwrap();
        GameRow {
            index,
            variant: "standard".into(),
            white: "random".into(),
            black: "random".into(),
            pair: index / 2,
            opening: String::new(),
            result: outcome.result,
            termination: outcome.termination,
            plies: game.ply_count() as u32,
            captures: 0,
            relocations: 0,
            passes: 0,
            decision_plies: 0,
            legal_actions: 0,
            seed: 9,
            time_limited: false,
            duration_ms: 0.0,
        }
    }

    fn short_game() -> Game {
        let mut game = Game::new(Rules::STANDARD);
        for action in ["h9-g9", "b7-c7", "g9-g8"] {
            game.play(action.parse().unwrap()).unwrap();
        }
        game.adjudicate_move_limit();
        game
    }

    #[test]
    fn records_carry_tags_movetext_and_result() {
        let game = short_game();
        let text = write_record(&row(4, &game), &game);
        assert!(text.starts_with("[Event \"agon-selfplay\"]\n[Round \"5\"]\n"));
        assert!(text.contains("[Termination \"move-limit\"]\n"));
        assert!(
            text.ends_with("\n\n1. h9-g9 b7-c7 2. g9-g8 1/2-1/2\n\n"),
            "{text}"
        );
        assert_eq!(GameResult::Draw, game.result());
        assert_eq!(game.outcome().unwrap().termination, Termination::MoveLimit);
    }

    #[test]
    fn files_split_into_complete_records() {
        let game = short_game();
        let a = write_record(&row(7, &game), &game);
        let b = write_record(&row(2, &game), &game);
        let cut = &b[..b.len() - 5];
        let file = format!("{a}{b}{cut}");
        let split = split_records(file.as_bytes());
        let records = &split.records;
        assert_eq!(records.iter().map(|r| r.index).collect::<Vec<_>>(), [7, 2]);
        assert_eq!(records[1].text, b);
        assert_eq!(records[1].line, a.lines().count() as u64 + 1);
        assert_eq!(split.dropped, cut.len());
        assert!(split.damaged.is_empty());
    }

    #[test]
    fn a_record_that_is_not_utf8_is_reported_with_its_line() {
        let game = short_game();
        let a = write_record(&row(7, &game), &game);
        let b = write_record(&row(2, &game), &game);
        let mut file = format!("{a}{b}{a}").into_bytes();
        let movetext = a.len() + b.find("1. h9-g9").unwrap();
        file[movetext + 3] = 0xFF;
        let split = split_records(&file);
        assert_eq!(
            split.records.iter().map(|r| r.index).collect::<Vec<_>>(),
            [7, 7]
        );
        let line =
            a.lines().count() as u64 + b[..b.find("1. h9").unwrap()].lines().count() as u64 + 1;
        assert_eq!(
            split.damaged,
            [DamagedRecord {
                index: Some(2),
                line,
                reason: "the record is not valid UTF-8".into()
            }]
        );
    }

    #[test]
    fn the_last_record_of_a_finished_file_needs_no_blank_line() {
        let game = short_game();
        let a = write_record(&row(7, &game), &game);
        let b = write_record(&row(2, &game), &game);
        // A finished file ends with the last record's result line.
        let finished = format!("{a}{}", &b[..b.len() - 1]);
        let split = split_records(finished.as_bytes());
        let records = &split.records;
        assert_eq!(records.iter().map(|r| r.index).collect::<Vec<_>>(), [7, 2]);
        assert_eq!((records[1].text, split.dropped), (&b[..b.len() - 1], 0));
        // Cut anywhere before the result's newline, a record is incomplete: inside the
        // result, after the last action, or right after the blank line of the tags.
        for cut in [
            b.len() - 3,
            b.find(" 1/2-1/2").unwrap(),
            b.find("\n\n").unwrap() + 2,
        ] {
            let file = format!("{a}{}", &b[..cut]);
            let split = split_records(file.as_bytes());
            assert_eq!(split.records.len(), 1, "cut at {cut}");
            assert_eq!(split.dropped, cut);
        }
    }
}
