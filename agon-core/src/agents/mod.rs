//! Computer players. Every agent implements [`Agent`]; [`from_spec`] turns a spec string
//! such as `random`, `greedy`, `alphabeta:depth=4` or `mcts:playouts=2000` into a
//! configured agent.
//!
//! An agent is asked for the action of the side that *decides* the current turn
//! ([`crate::Position::decider`]), which under `queen-relocated-by=opponent` is not always
//! the side to move: agents maximise for the decider.
//!
//! Layout: [`features`](self) (bitboard facts about a position) feed the evaluation
//! (`eval`), which the greedy, alpha-beta and MCTS agents share; `history` and `terminal`
//! are the search's view of repetition and game ends; `spec` parses spec strings.

mod alphabeta;
mod eval;
mod features;
mod greedy;
mod history;
mod mcts;
mod paired;
mod random;
mod spec;
mod terminal;

pub use alphabeta::{AlphaBetaAgent, AlphaBetaConfig, ScoredLine, SearchReport};
pub use eval::{EvalTerm, EvalTerms, WeightOverrides, WeightsError};
pub use greedy::{GreedyAgent, GreedyConfig};
pub use mcts::{MctsAgent, MctsConfig, MctsReport};
pub use random::RandomAgent;
pub use spec::{from_spec, AgentSpec, AgentSpecError, AGENTS};

use crate::{Action, Game, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The static evaluation the agents share, from White's point of view (100 is about one
/// guard stepping from the outer ring to ring 1), or `None` when the side to move has no
/// legal action (it loses, unless the rules make it pass).
pub fn evaluate(position: &Position) -> Option<i32> {
    match eval::Evaluator::new(0, 0).white(position) {
        eval::Verdict::NoMoves => None,
        eval::Verdict::Score(s) => Some(s),
    }
}

/// The static evaluation split into its named terms for each side ([`EvalTerms`]), or
/// `None` when the side to move has no legal action. White's total less Black's equals
/// [`evaluate`].
///
/// ```
/// use agon_core::agents::{evaluate, evaluate_terms, EvalTerm};
/// use agon_core::{Position, Rules, Side};
/// let start = Position::start(Rules::STANDARD);
/// let terms = evaluate_terms(&start).unwrap();
/// assert_eq!(terms.white(), evaluate(&start).unwrap());
/// assert_eq!(terms.get(EvalTerm::Progress, Side::White), terms.get(EvalTerm::Progress, Side::Black));
/// ```
pub fn evaluate_terms(position: &Position) -> Option<EvalTerms> {
    eval::Evaluator::new(0, 0).terms(position)
}

/// The smallest size of a [`Agent::last_score`] that means a forced win (positive) or
/// loss (negative).
pub const FORCED_SCORE: i32 = alphabeta::FORCED_SCORE;

/// A computer player.
pub trait Agent: Send {
    /// The canonical spec string of this agent (`random`, `alphabeta:depth=4`, ...).
    fn spec(&self) -> String;

    /// Chooses an action for the deciding side of a game that is not over. The action must
    /// be legal in `game.position()`.
    fn choose(&mut self, game: &Game) -> Action;

    /// Forgets anything learned from the previous game (trees, tables).
    fn new_game(&mut self) {}

    /// Whether this agent's choices depend on wall-clock time (and so are not reproducible
    /// from the seed alone).
    fn is_time_limited(&self) -> bool {
        false
    }

    /// The agent's own judgement of the position of its last choice, from the deciding
    /// side's point of view, in the evaluation's units (100 is about one guard stepping
    /// from the outer ring to ring 1; at least [`FORCED_SCORE`] in size for a result the
    /// search saw as forced), or `None` when the agent does not score positions (random,
    /// greedy) or did not search (a single legal action). Harnesses adjudicate games from
    /// these scores (`agon-selfplay --draw-adjudication`); an agent without scores is
    /// never adjudicated.
    fn last_score(&self) -> Option<i32> {
        None
    }

    /// Chooses like [`Agent::choose`], steered from outside (the engine protocol's `go` and
    /// `stop`): see [`SearchControl`]. Agents without an iterative search ignore what they
    /// cannot honour and choose as `choose` does.
    fn choose_with(&mut self, game: &Game, control: &mut SearchControl<'_>) -> Action {
        let _ = control;
        self.choose(game)
    }
}

/// Limits for one search that replace an agent's configured ones; a limit left `None` does
/// not apply, and none at all means "until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget.
    pub time: Option<Duration>,
}

/// How a caller steers one search ([`Agent::choose_with`]).
#[derive(Default)]
pub struct SearchControl<'a> {
    /// Limits for this action instead of the agent's own (`None`: the agent's own).
    pub limits: Option<SearchLimits>,
    /// Set (from any thread) to end the search soon with the best action found so far.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told the result so far after every completed iteration.
    pub on_iteration: Option<&'a mut dyn FnMut(&SearchReport)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ActionList, Rng, Rules, Side};

    /// Every rule set the agents must handle.
    fn all_rules() -> Vec<Rules> {
        let mut rules = Rules::single_switch_variants();
        rules.push(Rules::LUDII);
        rules.push(
            "queen-relocated-by=opponent,opening=placement,touch-move=on"
                .parse()
                .unwrap(),
        );
        rules.push("intervention=suicide,capture=ring".parse().unwrap());
        rules
    }

    // `random_games(rules, count, seed, max_plies)`, shared with the integration tests.
    include!("../../tests/common/random_games.rs");

    const SPECS: [&str; 5] = [
        "random",
        "greedy:noise=5",
        "alphabeta:depth=2",
        "alphabeta:nodes=300,noise=4",
        "mcts:playouts=40,cutoff=4",
    ];

    #[test]
    fn every_agent_plays_legal_actions_in_every_variant() {
        for rules in all_rules() {
            for spec in SPECS {
                let mut agent = from_spec(spec, 11).unwrap();
                for game in random_games(rules, 8, 3, 120) {
                    let action = agent.choose(&game);
                    assert!(
                        game.position().legal().contains(action),
                        "{spec} chose illegal {action} under {rules}\n{}",
                        game.position()
                    );
                }
            }
        }
    }

    /// Plays a whole game between two agents (with a ply limit) and returns its actions.
    fn play_game(
        white: &str,
        black: &str,
        seed: u64,
        rules: Rules,
        max_plies: usize,
    ) -> Vec<Action> {
        let mut agents = [
            from_spec(white, seed).unwrap(),
            from_spec(black, seed + 1).unwrap(),
        ];
        let mut game = Game::new(rules);
        while !game.is_over() && game.ply_count() < max_plies {
            let side = game.position().decider();
            let action = agents[side.index()].choose(&game);
            game.play(action)
                .unwrap_or_else(|e| panic!("{action}: {e}"));
        }
        game.plies().iter().map(|p| p.action).collect()
    }

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        let mut positions = 0;
        let mut seen = [false; EvalTerm::ALL.len()];
        for rules in all_rules() {
            for game in random_games(rules, 30, 9, 120) {
                let position = game.position();
                let Some(terms) = evaluate_terms(position) else {
                    assert_eq!(evaluate(position), None);
                    continue;
                };
                positions += 1;
                assert_eq!(Some(terms.white()), evaluate(position), "{position}");
                assert_eq!(
                    terms.total(Side::White),
                    EvalTerm::ALL
                        .iter()
                        .map(|&t| terms.get(t, Side::White))
                        .sum::<i32>()
                );
                for (k, &term) in EvalTerm::ALL.iter().enumerate() {
                    seen[k] |= Side::BOTH.iter().any(|&s| terms.get(term, s) != 0);
                }
                // Only the side to move gets the tempo.
                assert_eq!(terms.get(EvalTerm::Tempo, !position.to_move()), 0);
            }
        }
        assert!(positions > 100, "{positions} positions");
        assert_eq!(seen, [true; 6], "every term shows up somewhere");
    }

    #[test]
    fn same_seed_same_game() {
        for (white, black) in [
            ("greedy", "random"),
            ("alphabeta:depth=2,noise=10", "mcts:playouts=30,cutoff=4"),
        ] {
            let rules: Rules = "queen-relocated-by=opponent".parse().unwrap();
            let a = play_game(white, black, 5, rules, 80);
            let b = play_game(white, black, 5, rules, 80);
            assert_eq!(a, b, "{white} vs {black}");
            let c = play_game(white, black, 6, rules, 80);
            assert_ne!(a, c, "{white} vs {black}: another seed plays another game");
        }
    }

    #[test]
    fn whole_games_are_legal_in_every_variant() {
        // `play_game` checks every action with `Game::play`.
        for rules in all_rules() {
            let actions = play_game(
                "alphabeta:depth=1",
                "mcts:playouts=20,cutoff=2",
                2,
                rules,
                400,
            );
            assert!(actions.len() > 10, "{rules}");
        }
    }

    #[test]
    fn searching_agents_report_their_scores_and_the_others_none() {
        let games = random_games(Rules::STANDARD, 6, 21, 120);
        let game = games.last().expect("a game in progress");
        for spec in ["random", "greedy"] {
            let mut agent = from_spec(spec, 1).unwrap();
            agent.choose(game);
            assert_eq!(agent.last_score(), None, "{spec}");
        }
        let mut alphabeta = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(2, 1));
        assert_eq!(alphabeta.last_score(), None, "no search yet");
        let report = alphabeta.search(game);
        assert_eq!(alphabeta.last_score(), Some(report.score));
        let mut mcts = MctsAgent::new(MctsConfig::with_playouts(64, 1));
        let report = mcts.search(game);
        assert!(report.playouts > 0);
        assert_eq!(mcts.last_score(), Some(mcts::units(report.value)));
    }
}
