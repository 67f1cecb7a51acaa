//! Game records for `games.agn`: one record per game, in the project's PGN-shaped notation,
//! and the splitting of an `.agn` file back into records (for `--resume` and sorting).

use crate::row::GameRow;
use agon_core::Game;

/// The first tag of every record this harness writes; a record starts with this line.
const FIRST_TAG: &str = "[Event \"agon-selfplay\"]";

/// The record of a played game: tags (`Variant`, `Result`, `Termination`, the agents, the
/// game index and seed) and the movetext with capture annotations, ending with a blank line.
pub fn write_record(row: &GameRow, game: &Game) -> String {
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", "agon-selfplay");
    tag("Round", &(row.index + 1).to_string());
    tag("White", &row.white);
    tag("Black", &row.black);
    tag("Result", row.result.token());
    tag("Variant", &row.variant);
    tag("Termination", row.termination.name());
    tag("Index", &row.index.to_string());
    tag("Seed", &row.seed.to_string());
    tag("PlyCount", &row.plies.to_string());
    if row.time_limited {
        tag("TimeLimited", "yes");
    }
    text.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for (k, ply) in game.plies().iter().enumerate() {
        let mut token = String::new();
        if k % 2 == 0 {
            token.push_str(&format!("{}. ", k / 2 + 1));
        }
        token.push_str(&ply.action.to_string());
        for cell in ply.captures {
            token.push('x');
            token.push_str(&cell.to_string());
        }
        tokens.push(token);
    }
    tokens.push(row.result.token().to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
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
