//! The server's door into the libraries: games given as JSON are replayed through
//! agon-core, positions go through agon-notation, and what the page shows (boards, status
//! lines, legal actions, plies, evaluation terms) is built here from the same functions the
//! other commands use. The page never applies a rule itself.

use super::error::{ApiError, ApiResult};
use crate::cmd::moves::{action_kind, annotated, legal_with_captures, MoveJson};
use crate::select::read_action;
use crate::status;
use agon_core::agents::{evaluate_terms, EvalTerm};
use agon_core::{Cell, Game, GameResult, Outcome, Piece, PieceKind, Position, Rules, Setup, Side};
use agon_core::{Ply, Termination};
use agon_notation::{format_position, parse_position, Comment, GameRecord, PositionJson};
use serde::{Deserialize, Serialize};

/// The most plies a game sent to the server may have.
pub const MAX_PLIES: usize = 20_000;

/// A game as the page sends it: a rule set, an optional start position and the actions
/// played from it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// A rule-set name (`standard` when absent).
    #[serde(default)]
    pub rules: Option<String>,
    /// A position string (the rule set's start when absent).
    #[serde(default)]
    pub start: Option<String>,
    /// Actions, such as `h9-g9` (capture annotations are optional and checked).
    #[serde(default)]
    pub moves: Vec<String>,
}

/// Reads a rule-set name.
pub fn rules(text: Option<&str>) -> ApiResult<Rules> {
    match text.map(str::trim) {
        None | Some("") => Ok(Rules::STANDARD),
        Some(text) => text
            .parse::<Rules>()
            .map_err(|e| ApiError::invalid(format!("rules: {e}"))),
    }
}

/// Reads a position string under a rule set.
pub fn position(text: &str, rules: Rules) -> ApiResult<Position> {
    parse_position(text.trim(), rules)
        .map_err(|e| ApiError::invalid(format!("not a position string: {e}")))
}

impl GameSpec {
    /// Replays the game; an action that cannot be played is refused with the engine's
    /// reason, naming the action and the side to move.
    pub fn replay(&self) -> ApiResult<Game> {
        let rules = rules(self.rules.as_deref())?;
        let mut game = match self.start.as_deref().map(str::trim) {
            None | Some("") => Game::new(rules),
            Some(text) => Game::from_position(
                position(text, rules)
                    .map_err(|e| ApiError::invalid(format!("start: {}", e.message)))?,
            ),
        };
        if self.moves.len() > MAX_PLIES {
            return Err(ApiError::invalid(format!(
                "the game has {} actions; the server replays at most {MAX_PLIES}",
                self.moves.len()
            )));
        }
        for (index, token) in self.moves.iter().enumerate() {
            play(&mut game, token).map_err(|message| {
                ApiError::invalid(format!(
                    "action {} of moves ({} to move): {message}",
                    index + 1,
                    game.position().decider()
                ))
            })?;
        }
        Ok(game)
    }
}

/// Plays one typed action, or says why it cannot be played (the words of `agon play`).
pub fn play(game: &mut Game, token: &str) -> Result<Ply, String> {
    let action = read_action(game, token.trim())?;
    let captures = game.play(action).map_err(|e| e.to_string())?;
    Ok(Ply { action, captures })
}

/// A side in JSON: `white` or `black`.
fn side_name(side: Side) -> String {
    side.name().to_ascii_lowercase()
}

/// One ply of a game, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// 1-based ply.
    pub ply: usize,
    /// The move number (PGN numbering).
    pub number: u64,
    /// Whose piece acted: `white` or `black`.
    pub side: String,
    /// Who chose the action (differs from `side` only under `queen-relocated-by=opponent`).
    pub decider: String,
    /// The action, like `h9-g9`.
    pub action: String,
    /// The action with its capture annotation, like `h9-g9xf9`.
    pub token: String,
    /// `step`, `relocation`, `placement` or `pass`.
    pub kind: &'static str,
    /// The cell left, if any.
    pub from: Option<Cell>,
    /// The cell reached, if any.
    pub to: Option<Cell>,
    /// The cells captured.
    pub captures: Vec<Cell>,
    /// The record's comments right after this ply, joined by a space.
    pub comment: Option<String>,
}

/// The plies of a game, as the page shows them.
pub fn plies(game: &Game) -> Vec<PlyView> {
    (0..game.ply_count())
        .filter_map(|index| ply_view(game, index))
        .collect()
}

/// Puts a record's comments on the plies they follow; returns the comments before the
/// first action (those of the tag section among them), joined by a space. Comments after
/// the last ply shown (an invalid record's defect) are left out.
pub fn attach_comments(plies: &mut [PlyView], comments: &[Comment]) -> Option<String> {
    let mut before = None;
    for comment in comments.iter().filter(|c| !c.text.is_empty()) {
        let slot = match comment.ply {
            0 => &mut before,
            ply => match plies.get_mut(ply as usize - 1) {
                Some(view) => &mut view.comment,
                None => continue,
            },
        };
        match slot {
            Some(text) => {
                text.push(' ');
                text.push_str(&comment.text);
            }
            None => *slot = Some(comment.text.clone()),
        }
    }
    before
}

/// The view of ply `index` (0-based) of a game.
fn ply_view(game: &Game, index: usize) -> Option<PlyView> {
    let ply = game.plies().get(index)?;
    let before = game.position_before(index)?;
    Some(PlyView {
        ply: index + 1,
        number: agon_notation::move_number(index as u64 + 1, game.start().to_move()),
        side: side_name(before.to_move()),
        decider: side_name(before.decider()),
        action: ply.action.to_string(),
        token: annotated(ply.action, ply.captures),
        kind: action_kind(ply.action),
        from: ply.action.origin(),
        to: ply.action.destination(),
        captures: ply.captures.into_iter().collect(),
        comment: None,
    })
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination's name, like `formation`.
    pub termination: String,
    /// The ending in words, like `1-0 (White wins, formation: ...)`.
    pub text: String,
}

fn outcome_view(outcome: Outcome) -> OutcomeView {
    let winner = match outcome.result.winner() {
        Some(side) => format!("{side} wins"),
        None => "draw".to_string(),
    };
    OutcomeView {
        result: outcome.result.to_string(),
        termination: outcome.termination.to_string(),
        text: format!(
            "{} ({winner}, {})",
            outcome.result,
            status::describe_termination(outcome.termination)
        ),
    }
}

/// A game's current position and everything the page says about it.
#[derive(Serialize)]
pub struct StateView {
    /// Plies played.
    pub ply: usize,
    /// The rule set's canonical name.
    pub rules: String,
    /// The position (string, side to move, phase, pieces, pieces in hand).
    pub position: PositionJson,
    /// Who chooses the next action: `white` or `black`.
    pub decider: String,
    /// What is to be done, as `agon show` says it ("White to move: 27 legal actions").
    pub status: String,
    /// The caption `agon render` writes above this position.
    pub caption: String,
    /// The captured pieces in words, if any.
    pub captured: Option<String>,
    /// The pieces in hand in words, if any.
    pub in_hand: Option<String>,
    /// The last ply, if any.
    pub last: Option<PlyView>,
    /// How the game ended, if it did.
    pub outcome: Option<OutcomeView>,
    /// The legal actions with what each captures (left out of replays; empty once over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<MoveJson>>,
}

/// The view of a game's current position, with its legal actions if asked for.
pub fn state(game: &Game, with_legal: bool) -> StateView {
    let position = game.position();
    StateView {
        ply: game.ply_count(),
        rules: game.rules().to_string(),
        position: PositionJson::from_position(position),
        decider: side_name(position.decider()),
        status: status::turn_line(game),
        caption: crate::cmd::render::caption(game),
        captured: status::captured_line(game),
        in_hand: status::in_hand_line(game),
        last: game
            .ply_count()
            .checked_sub(1)
            .and_then(|i| ply_view(game, i)),
        outcome: game.outcome().map(outcome_view),
        legal: with_legal.then(|| {
            legal_with_captures(game)
                .into_iter()
                .map(|(action, captures)| MoveJson::new(action, captures, position))
                .collect()
        }),
    }
}

/// The views after every ply of a game: entry `k` is the position after `k` plies
/// (without legal actions).
pub fn states(game: &Game) -> Vec<StateView> {
    let mut replay = Game::from_position(*game.start());
    let mut views = vec![state(&replay, false)];
    for ply in game.plies() {
        if replay.play(ply.action).is_err() {
            break;
        }
        views.push(state(&replay, false));
    }
    views
}

/// A game's record in canonical text, with the page's tags; `ended` is a result the rules
/// did not produce (a resignation).
pub fn record_text(game: &Game, tags: &[(String, String)], ended: Option<Outcome>) -> String {
    let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut record = GameRecord::from_game(game, &tags);
    if let Some(outcome) = ended {
        record.result = outcome.result;
        record.termination = Some(outcome.termination);
    }
    record.to_string()
}

/// A resignation by the side that decides now.
pub fn resignation(game: &Game) -> Outcome {
    Outcome {
        result: GameResult::win_for(!game.position().decider()),
        termination: Termination::Resignation,
    }
}

/// One term of the evaluation for both sides.
#[derive(Serialize)]
pub struct TermView {
    /// The term's name (`progress`, `formation`, ...).
    pub name: &'static str,
    /// White's points.
    pub white: i32,
    /// Black's points.
    pub black: i32,
}

/// The evaluation of a position split by term.
#[derive(Serialize)]
pub struct EvaluationView {
    /// The terms, in a fixed order.
    pub terms: Vec<TermView>,
    /// White's total.
    pub white: i32,
    /// Black's total.
    pub black: i32,
    /// White's total less Black's: the evaluation from White's point of view.
    pub score: i32,
}

/// The evaluation's terms, or `None` when the side to move has no legal action.
pub fn evaluation(position: &Position) -> Option<EvaluationView> {
    let terms = evaluate_terms(position)?;
    Some(EvaluationView {
        terms: EvalTerm::ALL
            .iter()
            .map(|&term| TermView {
                name: term.name(),
                white: terms.get(term, Side::White),
                black: terms.get(term, Side::Black),
            })
            .collect(),
        white: terms.total(Side::White),
        black: terms.total(Side::Black),
        score: terms.white(),
    })
}

/// One piece placed in the editor.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// The cell, like `f1`.
    pub cell: String,
    /// `white` or `black`.
    pub side: String,
    /// `queen` or `guard`.
    pub kind: String,
    /// Whether the piece is captured.
    #[serde(default)]
    pub captured: bool,
}

/// A position set up in the editor.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// A rule-set name (`standard` when absent).
    #[serde(default)]
    pub rules: Option<String>,
    /// `white` or `black`.
    pub to_move: String,
    /// The pieces on the board.
    pub pieces: Vec<PieceSpec>,
}

/// What the editor's position is: its string when it is a position that can arise in a
/// game, otherwise the engine's list of problems.
#[derive(Serialize)]
pub struct SetupView {
    /// Whether the position can arise in a game.
    pub valid: bool,
    /// The position string (only when valid).
    pub notation: Option<String>,
    /// What is wrong with it, in the engine's words.
    pub problems: Vec<String>,
}

fn parse_side(text: &str, what: &str) -> ApiResult<Side> {
    Side::parse(text).ok_or_else(|| {
        ApiError::invalid(format!(
            "{what}: `{text}` is not a side; use white or black"
        ))
    })
}

/// Builds the editor's position and checks it with the engine.
pub fn setup(spec: &SetupSpec) -> ApiResult<SetupView> {
    let rules = rules(spec.rules.as_deref())?;
    let mut setup = Setup::empty().with_to_move(parse_side(&spec.to_move, "to_move")?);
    if spec.pieces.len() > 91 {
        return Err(ApiError::invalid("more pieces than the board has cells"));
    }
    for (index, piece) in spec.pieces.iter().enumerate() {
        let what = format!("pieces[{index}]");
        let cell: Cell = piece
            .cell
            .parse()
            .map_err(|e| ApiError::invalid(format!("{what}: {e}")))?;
        let side = parse_side(&piece.side, &what)?;
        let kind = match piece.kind.to_ascii_lowercase().as_str() {
            "queen" => PieceKind::Queen,
            "guard" => PieceKind::Guard,
            other => {
                return Err(ApiError::invalid(format!(
                    "{what}: `{other}` is not a piece kind; use queen or guard"
                )))
            }
        };
        if setup.pieces.contains_key(&cell) {
            return Err(ApiError::invalid(format!(
                "{what}: {cell} holds two pieces"
            )));
        }
        setup = setup.with_piece(
            cell,
            Piece {
                side,
                kind,
                captured: piece.captured,
            },
        );
    }
    Ok(match Position::from_setup(setup, rules) {
        Ok(position) => SetupView {
            valid: true,
            notation: Some(format_position(&position)),
            problems: Vec::new(),
        },
        Err(error) => SetupView {
            valid: false,
            notation: None,
            problems: error.problems(),
        },
    })
}

/// A piece's JSON form in a position (for the editor's import).
pub fn position_view(position: &Position) -> PositionJson {
    PositionJson::from_position(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(moves: &[&str]) -> GameSpec {
        GameSpec {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            ..GameSpec::default()
        }
    }

    #[test]
    fn games_replay_and_refusals_name_the_action() {
        let game = spec(&["h9-g9", "b7-c7"]).replay().unwrap();
        assert_eq!(game.ply_count(), 2);
        let error = spec(&["h9-g9", "b7-c7", "f1-f3"]).replay().unwrap_err();
        assert_eq!(error.status, 422);
        assert_eq!(
            error.message,
            "action 3 of moves (White to move): f1-f3 is not legal: f3 is not next to f1"
        );
        let error = GameSpec {
            rules: Some("capture=diagonal".into()),
            ..GameSpec::default()
        }
        .replay()
        .unwrap_err();
        assert!(
            error
                .message
                .starts_with("rules: `capture=diagonal` is not a rule set"),
            "{}",
            error.message
        );
    }

    #[test]
    fn plies_say_who_did_what() {
        let game = spec(&["h9-g9", "b7-c7"]).replay().unwrap();
        let views = plies(&game);
        assert_eq!(views[1].number, 1);
        assert_eq!(views[1].side, "black");
        assert_eq!(views[1].kind, "step");
        assert_eq!(views[1].from.map(|c| c.to_string()).as_deref(), Some("b7"));
        let tail = state(&game, false).last.unwrap();
        assert_eq!(tail.token, views[1].token);
        assert_eq!(tail.ply, 2);
    }

    #[test]
    fn the_editor_reports_the_engines_problems() {
        let bad = setup(&SetupSpec {
            rules: None,
            to_move: "white".into(),
            pieces: vec![PieceSpec {
                cell: "f6".into(),
                side: "white".into(),
                kind: "guard".into(),
                captured: false,
            }],
        })
        .unwrap();
        assert!(!bad.valid);
        assert!(!bad.problems.is_empty());
        let start = Position::start(Rules::STANDARD);
        let pieces = start
            .occupied()
            .map(|cell| {
                let p = start.piece_at(cell).unwrap();
                PieceSpec {
                    cell: cell.to_string(),
                    side: p.side.name().to_ascii_lowercase(),
                    kind: p.kind.name().into(),
                    captured: false,
                }
            })
            .collect();
        let good = setup(&SetupSpec {
            rules: None,
            to_move: "white".into(),
            pieces,
        })
        .unwrap();
        assert_eq!(
            good.notation.as_deref(),
            Some(agon_notation::START_POSITION)
        );
    }
}
