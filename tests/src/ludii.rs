//! Readers for the conformance data recorded from Ludii's Agon
//! (`tests/data/ludii/`, see its README): perft counts, divides, and 200 random
//! games with the cells each ply captured.

use agon_core::{Action, Cell, GameResult};
use std::path::PathBuf;

/// The folder of the Ludii conformance data, `tests/data/ludii` in the repository.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/ludii")
}

/// The text of one data file, or an error that says where it was looked for.
pub fn read(name: &str) -> Result<String, String> {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read the Ludii conformance file {} ({e}); the data lives in \
             tests/data/ludii in the repository",
            path.display()
        )
    })
}

/// Parses `key count` lines (perft and divide files); `key` is parsed by `parse_key`.
fn counts<K>(
    name: &str,
    text: &str,
    parse_key: impl Fn(&str) -> Result<K, String>,
) -> Result<Vec<(K, u64)>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let at = || format!("{name}:{}: `{line}`", i + 1);
            let mut words = line.split_whitespace();
            let (Some(key), Some(count), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("{}: expected two words", at()));
            };
            let key = parse_key(key).map_err(|e| format!("{}: {e}", at()))?;
            let count = count
                .parse()
                .map_err(|e| format!("{}: bad count: {e}", at()))?;
            Ok((key, count))
        })
        .collect()
}

/// `perft.txt`: `(depth, leaves)` in file order.
pub fn perft_counts() -> Result<Vec<(u32, u64)>, String> {
    let name = "perft.txt";
    counts(name, &read(name)?, |k| {
        k.parse().map_err(|e| format!("bad depth: {e}"))
    })
}

/// `perft_divide{depth}.txt`: `(first action, leaves)` in file order.
pub fn divide_counts(depth: u32) -> Result<Vec<(Action, u64)>, String> {
    let name = format!("perft_divide{depth}.txt");
    counts(&name, &read(&name)?, |k| {
        k.parse::<Action>().map_err(|e| e.to_string())
    })
}

/// What one ply captured according to Ludii.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyCaptures {
    /// Newly captured cells, in file order.
    pub captured: Vec<Cell>,
    /// Already captured pieces that the ply flanked again (`(re:x)`): nothing changes.
    pub reflanked: Vec<Cell>,
}

/// One recorded game.
#[derive(Clone, Debug)]
pub struct LudiiGame {
    /// 0-based line number in the files.
    pub index: usize,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// What each action captured.
    pub captures: Vec<PlyCaptures>,
    /// The recorded result (`*`: stopped by Ludii's 2500-ply limit).
    pub result: GameResult,
}

/// Parses one token of the captures file: `-`, `e5`, `g5,f5`, `-(re:e5)`.
fn ply_captures(token: &str) -> Result<PlyCaptures, String> {
    let mut result = PlyCaptures::default();
    let mut plain = token;
    if let Some(open) = token.find("(re:") {
        plain = &token[..open];
        for group in token[open..].split_inclusive(')') {
            let cell = group
                .strip_prefix("(re:")
                .and_then(|g| g.strip_suffix(')'))
                .ok_or_else(|| format!("`{token}`: expected `(re:cell)` groups at the end"))?;
            result
                .reflanked
                .push(Cell::parse(cell).map_err(|e| format!("`{token}`: {e}"))?);
        }
    }
    if plain != "-" {
        for name in plain.split(',') {
            result
                .captured
                .push(Cell::parse(name).map_err(|e| format!("`{token}`: {e}"))?);
        }
    }
    Ok(result)
}

/// The 200 random games with their captures, checked for consistent lengths and results.
pub fn random_games() -> Result<Vec<LudiiGame>, String> {
    let (games_name, captures_name) = ("random_games_200.txt", "random_games_200_captures.txt");
    let games = read(games_name)?;
    let captures = read(captures_name)?;
    let game_lines: Vec<&str> = games.lines().filter(|l| !l.trim().is_empty()).collect();
    let capture_lines: Vec<&str> = captures.lines().filter(|l| !l.trim().is_empty()).collect();
    if game_lines.len() != capture_lines.len() {
        return Err(format!(
            "{games_name} has {} games but {captures_name} has {}",
            game_lines.len(),
            capture_lines.len()
        ));
    }
    game_lines
        .iter()
        .zip(&capture_lines)
        .enumerate()
        .map(|(index, (game_line, capture_line))| {
            let at = |file: &str| format!("{file}:{}", index + 1);
            let mut actions: Vec<&str> = game_line.split_whitespace().collect();
            let mut marks: Vec<&str> = capture_line.split_whitespace().collect();
            let (Some(result), Some(result_again)) = (actions.pop(), marks.pop()) else {
                return Err(format!("{}: empty line", at(games_name)));
            };
            let result: GameResult = result
                .parse()
                .map_err(|e| format!("{}: {e}", at(games_name)))?;
            if result_again != result.token() {
                return Err(format!(
                    "{}: result `{result_again}`, but {games_name} says `{result}`",
                    at(captures_name)
                ));
            }
            if actions.len() != marks.len() {
                return Err(format!(
                    "game {}: {} actions but {} capture tokens",
                    index + 1,
                    actions.len(),
                    marks.len()
                ));
            }
            let actions = actions
                .iter()
                .enumerate()
                .map(|(ply, a)| {
                    a.parse::<Action>()
                        .map_err(|e| format!("{} ply {}: {e}", at(games_name), ply + 1))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let captures = marks
                .iter()
                .enumerate()
                .map(|(ply, m)| {
                    ply_captures(m)
                        .map_err(|e| format!("{} ply {}: {e}", at(captures_name), ply + 1))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(LudiiGame {
                index,
                actions,
                captures,
                result,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|n| Cell::parse(n).unwrap()).collect()
    }

    #[test]
    fn capture_tokens() {
        assert_eq!(ply_captures("-").unwrap(), PlyCaptures::default());
        assert_eq!(
            ply_captures("g5,f5").unwrap().captured,
            cells(&["g5", "f5"])
        );
        let re = ply_captures("-(re:e5)").unwrap();
        assert_eq!(re.captured, vec![]);
        assert_eq!(re.reflanked, cells(&["e5"]));
        let both = ply_captures("f4(re:e5)(re:g5)").unwrap();
        assert_eq!(both.captured, cells(&["f4"]));
        assert_eq!(both.reflanked, cells(&["e5", "g5"]));
        assert!(ply_captures("x9").unwrap_err().contains("`x9`"));
        assert!(ply_captures("-(re:e5").is_err());
    }
}
