//! Checking that a `games.csv` row and its `games.agn` record tell the same game of the
//! experiment, so that `merge` and `--resume` never keep a damaged or edited copy: the
//! record must be a valid game, carry the row's index, agents and seed, start with the
//! opening the experiment gives that game, and every column of the row (but the timing)
//! must be what the record's game implies.

use crate::experiment::Experiment;
use crate::play::{random_opening, PlyCounts};
use crate::row::{GameRow, COLUMNS};
use agon_notation::{RecordError, Records};
use std::fmt;

/// What disagrees between a `games.csv` row and its record. `Display` says it about "it"
/// (the game), for a message that names the game first.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameMismatch {
    /// The record is not a valid game.
    InvalidRecord(RecordError),
    /// The record text holds no game, or more than one.
    NotOneGame,
    /// The record's `Index` tag is not the row's index.
    Index {
        /// The tag's value (empty when the tag is missing).
        found: String,
    },
    /// The record does not start with the opening the experiment gives the game.
    Opening,
    /// The record has no termination: the game did not end.
    NoTermination,
    /// The record has no (numeric) `Seed` tag.
    NoSeed,
    /// A column of the row is not what the record's game implies.
    Column {
        /// The column's name in `games.csv`.
        column: &'static str,
        /// The row's value.
        given: String,
        /// The value the record implies.
        implied: String,
    },
}

impl fmt::Display for GameMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameMismatch::InvalidRecord(error) => {
                write!(f, "its record is not a valid game: {error}")
            }
            GameMismatch::NotOneGame => f.write_str("its record is not exactly one game"),
            GameMismatch::Index { found } => write!(f, "its record's Index tag is `{found}`"),
            GameMismatch::Opening => {
                f.write_str("its record does not start with the game's opening")
            }
            GameMismatch::NoTermination => {
                f.write_str("its record has no termination: the game did not end")
            }
            GameMismatch::NoSeed => f.write_str("its record has no Seed tag"),
            GameMismatch::Column {
                column,
                given,
                implied,
            } => write!(
                f,
                "its games.csv row says {column} `{given}`, its record `{implied}`"
            ),
        }
    }
}

impl std::error::Error for GameMismatch {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameMismatch::InvalidRecord(error) => Some(error),
            _ => None,
        }
    }
}

/// Checks one game; the error says what disagrees (for a message naming the game).
pub fn check_game(
    experiment: &Experiment,
    row: &GameRow,
    record: &str,
) -> Result<(), GameMismatch> {
    let expected = row_of_record(experiment, row, record)?;
    compare(row, &expected)
}

/// The row that the record's game implies (the timing copied from `row`).
fn row_of_record(
    experiment: &Experiment,
    row: &GameRow,
    text: &str,
) -> Result<GameRow, GameMismatch> {
    let mut games = Records::new(text.as_bytes());
    let valid = match (games.next(), games.next()) {
        (Some(Ok(valid)), None) => valid,
        (Some(Err(e)), _) => return Err(GameMismatch::InvalidRecord(e)),
        _ => return Err(GameMismatch::NotOneGame),
    };
    let record = &valid.record;
    let tag = |name: &str| record.tag(name).unwrap_or_default();
    if tag("Index") != row.index.to_string() {
        return Err(GameMismatch::Index {
            found: tag("Index"),
        });
    }
    let spec = experiment.game(row.index);
    let opening = random_opening(&spec, experiment.opening_plies);
    let opening: Vec<_> = opening.plies().iter().map(|p| p.action).collect();
    let played: Vec<_> = record.plies.iter().map(|p| p.action).collect();
    if !played.starts_with(&opening) {
        return Err(GameMismatch::Opening);
    }
    let counts = PlyCounts::of(&valid.game);
    let termination = record.termination.ok_or(GameMismatch::NoTermination)?;
    Ok(GameRow {
        index: row.index,
        variant: record.rules.to_string(),
        white: tag("White"),
        black: tag("Black"),
        pair: spec.pair,
        opening: opening
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        result: record.result,
        termination,
        plies: record.plies.len() as u32,
        captures: counts.captures,
        relocations: counts.relocations,
        passes: counts.passes,
        decision_plies: counts.decision_plies,
        legal_actions: counts.legal_actions,
        seed: tag("Seed").parse().map_err(|_| GameMismatch::NoSeed)?,
        time_limited: tag("TimeLimited") == "yes",
        duration_ms: row.duration_ms,
    })
}

/// Names the first column (timing aside) in which two rows differ.
fn compare(row: &GameRow, expected: &GameRow) -> Result<(), GameMismatch> {
    let fields = |row: &GameRow| -> Vec<String> {
        let line = row.to_csv_line();
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&line[..])
            .records()
            .next()
            .and_then(|r| r.ok())
            .map(|r| r.iter().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let (given, implied) = (fields(row), fields(expected));
    for ((&column, given), implied) in COLUMNS.iter().zip(given).zip(implied) {
        if column != "duration_ms" && given != implied {
            return Err(GameMismatch::Column {
                column,
                given,
                implied,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Kind, Pairing};
    use crate::runner::play_one;

    fn experiment() -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into()],
            pairings: vec![Pairing {
                first: "random".into(),
                second: "greedy".into(),
            }],
            games: 4,
            opening_plies: 4,
            max_plies: 80,
            seed: 9,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        }
        .validated()
        .unwrap()
    }

    #[test]
    fn a_played_game_checks_and_every_edit_is_named() {
        let e = experiment();
        let game = play_one(&e, 1).unwrap();
        check_game(&e, &game.row, &game.record).unwrap();
        let mut row = game.row.clone();
        row.plies += 1;
        assert_eq!(
            check_game(&e, &row, &game.record).unwrap_err().to_string(),
            format!(
                "its games.csv row says plies `{}`, its record `{}`",
                row.plies,
                row.plies - 1
            )
        );
        let mut row = game.row.clone();
        row.duration_ms += 5.0;
        check_game(&e, &row, &game.record).unwrap();
        let other = play_one(&e, 2).unwrap();
        assert_eq!(
            check_game(&e, &game.row, &other.record).unwrap_err(),
            GameMismatch::Index { found: "2".into() }
        );
        assert_eq!(
            check_game(&e, &game.row, &other.record)
                .unwrap_err()
                .to_string(),
            "its record's Index tag is `2`"
        );
        let cut = &game.record[..game.record.len() / 2];
        let e = check_game(&e, &game.row, cut).unwrap_err();
        assert!(matches!(e, GameMismatch::InvalidRecord(_)), "{e:?}");
        assert!(std::error::Error::source(&e).is_some());
    }
}
