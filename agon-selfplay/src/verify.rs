//! Checking that a `games.csv` row and its `games.agn` record tell the same game of the
//! experiment, so that `merge` and `--resume` never keep a damaged or edited copy: the
//! record must be a valid game, carry the row's index, agents and seed, start with the
//! opening the experiment gives that game, and every column of the row (but the timing)
//! must be what the record's game implies.

use crate::experiment::Experiment;
use crate::play::{random_opening, PlyCounts};
use crate::row::{GameRow, COLUMNS};
use agon_notation::Records;

/// Checks one game; the error says what disagrees (for a message naming the game).
pub fn check_game(experiment: &Experiment, row: &GameRow, record: &str) -> Result<(), String> {
    let expected = row_of_record(experiment, row, record)?;
    compare(row, &expected)
}

/// The row that the record's game implies (the timing copied from `row`).
fn row_of_record(experiment: &Experiment, row: &GameRow, text: &str) -> Result<GameRow, String> {
    let mut games = Records::new(text.as_bytes());
    let valid = match (games.next(), games.next()) {
        (Some(Ok(valid)), None) => valid,
        (Some(Err(e)), _) => return Err(format!("its record is not a valid game: {e}")),
        _ => return Err("its record is not exactly one game".into()),
    };
    let record = &valid.record;
    let tag = |name: &str| record.tag(name).unwrap_or_default();
    if tag("Index") != row.index.to_string() {
        return Err(format!("its record's Index tag is `{}`", tag("Index")));
    }
    let spec = experiment.game(row.index);
    let opening = random_opening(&spec, experiment.opening_plies);
    let opening: Vec<_> = opening.plies().iter().map(|p| p.action).collect();
    let played: Vec<_> = record.plies.iter().map(|p| p.action).collect();
    if !played.starts_with(&opening) {
        return Err("its record does not start with the game's opening".into());
    }
    let counts = PlyCounts::of(&valid.game);
    let termination = record
        .termination
        .ok_or("its record has no termination: the game did not end")?;
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
        seed: tag("Seed")
            .parse()
            .map_err(|_| "its record has no Seed tag")?,
        time_limited: tag("TimeLimited") == "yes",
        duration_ms: row.duration_ms,
    })
}

/// Names the first column (timing aside) in which two rows differ.
fn compare(row: &GameRow, expected: &GameRow) -> Result<(), String> {
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
    for ((column, given), implied) in COLUMNS.iter().zip(&given).zip(&implied) {
        if *column != "duration_ms" && given != implied {
            return Err(format!(
                "its games.csv row says {column} `{given}`, its record `{implied}`"
            ));
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
            check_game(&e, &row, &game.record).unwrap_err(),
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
            "its record's Index tag is `2`"
        );
        let cut = &game.record[..game.record.len() / 2];
        assert!(check_game(&e, &game.row, cut).is_err());
    }
}
