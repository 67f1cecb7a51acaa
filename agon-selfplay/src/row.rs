//! One row of `games.csv`: everything the statistics need about one game, so that reports
//! and merges read the CSV alone.

use crate::error::{Error, Result};
use crate::experiment::{Experiment, GameSpec};
use crate::play::PlayedGame;
use agon_core::{GameResult, Termination};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The columns of `games.csv`, in order. `duration_ms` is the only timing column and comes
/// last.
pub const COLUMNS: [&str; 17] = [
    "index",
    "variant",
    "white",
    "black",
    "pair",
    "opening",
    "result",
    "termination",
    "plies",
    "captures",
    "relocations",
    "passes",
    "decision_plies",
    "legal_actions",
    "seed",
    "time_limited",
    "duration_ms",
];

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game index in the experiment.
    pub index: u64,
    /// Canonical rule-set name.
    pub variant: String,
    /// White's agent spec.
    pub white: String,
    /// Black's agent spec.
    pub black: String,
    /// Pair number: the two games of a pair share the opening, colours swapped.
    pub pair: u64,
    /// The random opening plies, space-separated, in canonical notation.
    pub opening: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Plies played in all (opening included).
    pub plies: u32,
    /// Pieces captured.
    pub captures: u32,
    /// Relocation actions.
    pub relocations: u32,
    /// Pass actions.
    pub passes: u32,
    /// Plies with more than one legal action.
    pub decision_plies: u32,
    /// Sum over plies of the number of legal actions.
    pub legal_actions: u64,
    /// The experiment's seed (with `index` it determines the game).
    pub seed: u64,
    /// 1 when an agent's choices depended on the clock (the game is not reproducible).
    #[serde(with = "bool_as_digit")]
    pub time_limited: bool,
    /// Wall-clock time of the game.
    pub duration_ms: f64,
}

impl GameRow {
    /// The row of a played game.
    pub fn new(experiment: &Experiment, spec: &GameSpec, played: &PlayedGame) -> GameRow {
        let outcome = played.game.outcome().expect("a played game is over");
        GameRow {
            index: spec.index,
            variant: spec.rules.to_string(),
            white: spec.white.clone(),
            black: spec.black.clone(),
            pair: spec.pair,
            opening: played
                .opening
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            result: outcome.result,
            termination: outcome.termination,
            plies: played.game.ply_count() as u32,
            captures: played.counts.captures,
            relocations: played.counts.relocations,
            passes: played.counts.passes,
            decision_plies: played.counts.decision_plies,
            legal_actions: played.counts.legal_actions,
            seed: experiment.seed,
            time_limited: played.time_limited,
            duration_ms: (played.duration_ms * 1000.0).round() / 1000.0,
        }
    }

    /// White's score: 1, 1/2 or 0.
    pub fn white_score(&self) -> f64 {
        self.result.white_score().unwrap_or(0.5)
    }

    /// The row as one CSV line (with its newline), ready to append in one write.
    pub fn to_csv_line(&self) -> Vec<u8> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        writer.serialize(self).expect("rows always serialise");
        writer.into_inner().expect("writing to memory")
    }
}

/// The header line of `games.csv`.
pub fn header_line() -> Vec<u8> {
    let mut line = COLUMNS.join(",").into_bytes();
    line.push(b'\n');
    line
}

/// Parses the rows of a `games.csv` text. A last line without its newline (a write cut
/// short by a kill) is ignored and reported in the second value.
pub fn parse_rows(path: &Path, text: &[u8]) -> Result<(Vec<GameRow>, usize)> {
    let complete = complete_length(text);
    let mut rows = Vec::new();
    scan_rows(path, &text[..complete], |row, _| {
        rows.push(row);
        Ok(())
    })?;
    Ok((rows, text.len() - complete))
}

/// The length of `text` up to its last newline: the complete lines.
pub fn complete_length(text: &[u8]) -> usize {
    text.iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |end| end + 1)
}

/// Where a row lies in `games.csv`: its first byte and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowAt {
    /// The byte where the row starts.
    pub offset: u64,
    /// Its length in bytes, newline included.
    pub len: u64,
}

/// Reads the rows of a `games.csv` stream of complete lines one at a time (the header
/// first, checked) and calls `found` with each row and its place, in file order. Memory
/// does not grow with the file.
pub fn scan_rows(
    path: &Path,
    input: impl std::io::Read,
    mut found: impl FnMut(GameRow, RowAt) -> Result<()>,
) -> Result<()> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(input);
    let headers = reader
        .headers()
        .map_err(|e| Error::output(path, format!("unreadable header: {e}")))?
        .clone();
    if !headers.is_empty() && headers.iter().ne(COLUMNS.iter().copied()) {
        return Err(Error::output(
            path,
            format!("unexpected columns; expected {}", COLUMNS.join(",")),
        ));
    }
    let mut record = csv::StringRecord::new();
    let mut held: Option<(GameRow, u64)> = None;
    for line in 1.. {
        let more = reader
            .read_record(&mut record)
            .map_err(|e| Error::output(path, format!("row {line}: {e}")))?;
        let start = match (more, record.position()) {
            (true, Some(position)) => position.byte(),
            _ => reader.position().byte(),
        };
        if let Some((row, offset)) = held.take() {
            found(
                row,
                RowAt {
                    offset,
                    len: start - offset,
                },
            )?;
        }
        if !more {
            break;
        }
        let row: GameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| Error::output(path, format!("row {line}: {e}")))?;
        held = Some((row, start));
    }
    Ok(())
}

/// A row for game `index` of `experiment` with the given ending and 10 plies (unit
/// tests of the statistics build their games with it).
#[cfg(test)]
pub(crate) fn test_row(
    experiment: &Experiment,
    index: u64,
    result: GameResult,
    termination: Termination,
) -> GameRow {
    let spec = experiment.game(index);
    GameRow {
        index,
        variant: experiment.block(spec.block).0.to_string(),
        white: spec.white,
        black: spec.black,
        pair: spec.pair,
        opening: String::new(),
        result,
        termination,
        plies: 10,
        captures: 0,
        relocations: 0,
        passes: 0,
        decision_plies: 0,
        legal_actions: 0,
        seed: experiment.seed,
        time_limited: false,
        duration_ms: 0.0,
    }
}

mod bool_as_digit {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &bool, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(u8::from(*value))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
        match u8::deserialize(deserializer)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(serde::de::Error::custom(format!(
                "time_limited is 0 or 1, not {n}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> GameRow {
        GameRow {
            index: 3,
            variant: "intervention=suicide,touch-move=on".into(),
            white: "alphabeta:depth=2".into(),
            black: "random".into(),
            pair: 1,
            opening: "h9-g9 b7-c7".into(),
            result: GameResult::Draw,
            termination: Termination::MoveLimit,
            plies: 40,
            captures: 2,
            relocations: 2,
            passes: 0,
            decision_plies: 39,
            legal_actions: 1000,
            seed: 1,
            time_limited: false,
            duration_ms: 1.5,
        }
    }

    #[test]
    fn rows_round_trip_and_commas_are_quoted() {
        let line = row().to_csv_line();
        let text = String::from_utf8(line.clone()).unwrap();
        assert!(text.starts_with("3,\"intervention=suicide,touch-move=on\",alphabeta:depth=2,"));
        assert!(text.ends_with(",1,0,1.5\n"));
        let mut file = header_line();
        file.extend(&line);
        let (rows, dropped) = parse_rows(Path::new("x"), &file).unwrap();
        assert_eq!(rows, [row()]);
        assert_eq!(dropped, 0);
    }

    #[test]
    fn scanned_rows_know_their_bytes() {
        let mut file = header_line();
        let mut lines = Vec::new();
        for index in [7, 2, 30] {
            let line = GameRow { index, ..row() }.to_csv_line();
            file.extend(&line);
            lines.push((index, line));
        }
        let mut found = Vec::new();
        scan_rows(Path::new("x"), &file[..], |row, at| {
            let bytes = file[at.offset as usize..(at.offset + at.len) as usize].to_vec();
            found.push((row.index, bytes));
            Ok(())
        })
        .unwrap();
        assert_eq!(found, lines);
    }

    #[test]
    fn a_cut_last_line_is_dropped() {
        let mut file = header_line();
        file.extend(row().to_csv_line());
        file.extend(b"4,standard,ran");
        let (rows, dropped) = parse_rows(Path::new("x"), &file).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(dropped, 14);
    }

    #[test]
    fn a_malformed_row_is_an_error_with_its_number() {
        let mut file = header_line();
        file.extend(b"x,standard\n");
        let err = parse_rows(Path::new("g.csv"), &file)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("g.csv: row 1"), "{err}");
    }
}
