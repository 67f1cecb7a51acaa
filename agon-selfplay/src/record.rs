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
    /// The whole record text, blank line included.
    pub text: &'a str,
}

/// Splits an `.agn` file written by this harness into complete records. A record cut short
/// by a kill (no closing blank line, or no `Index` tag) is left out; the number of bytes
/// left out is returned too.
pub fn split_records(text: &str) -> (Vec<RecordSpan<'_>>, usize) {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == FIRST_TAG {
            starts.push(offset);
        }
        offset += line.len();
    }
    let mut records = Vec::new();
    let mut dropped = if starts.is_empty() {
        text.len()
    } else {
        starts[0]
    };
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        match (chunk.ends_with("\n\n"), index_tag(chunk)) {
            (true, Some(index)) => records.push(RecordSpan { index, text: chunk }),
            _ => dropped += chunk.len(),
        }
    }
    (records, dropped)
}

fn index_tag(chunk: &str) -> Option<u64> {
    chunk.lines().find_map(|line| {
        line.strip_prefix("[Index \"")?
            .strip_suffix("\"]")?
            .parse()
            .ok()
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
        let (records, dropped) = split_records(&file);
        assert_eq!(records.iter().map(|r| r.index).collect::<Vec<_>>(), [7, 2]);
        assert_eq!(records[1].text, b);
        assert_eq!(dropped, cut.len());
    }
}
