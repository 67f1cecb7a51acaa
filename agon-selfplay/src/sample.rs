//! The compact data the statistics need: per block (variant, pairing), one [`PairRecord`]
//! per colour-swapped pair, holding a few numbers for each of its two games (32 bytes a
//! game, not the whole row). Built by streaming rows in any order; every statistic of
//! [`crate::summary`] and every bootstrap resample reads these arrays only.
//!
//! With an SPRT, a block's record is cut after the pair at which the test decided: the
//! decision depends only on the prefix of pairs in index order, so the games kept do not
//! depend on threads, interruptions or shards.

use crate::experiment::{Experiment, Kind};
use crate::row::GameRow;
use crate::stats::sprt::{Hypothesis, SprtSpec};
use crate::stats::Pentanomial;
use agon_core::{GameResult, Termination};
use serde::Serialize;
use sums::*;

/// One game, as the statistics see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameStat {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// Pieces captured.
    pub captures: u32,
    /// Relocation actions.
    pub relocations: u32,
    /// Plies with more than one legal action.
    pub decision_plies: u32,
    /// Sum over plies of the number of legal actions.
    pub legal_actions: u64,
}

impl GameStat {
    /// The statistics of a row.
    pub fn of(row: &GameRow) -> GameStat {
        GameStat {
            result: row.result,
            termination: row.termination,
            plies: row.plies,
            captures: row.captures,
            relocations: row.relocations,
            decision_plies: row.decision_plies,
            legal_actions: row.legal_actions,
        }
    }

    /// White's points doubled: 2 for a win, 1 for a draw of any kind, 0 for a loss.
    pub fn white_half_points(&self) -> u8 {
        match self.result {
            GameResult::WhiteWins => 2,
            GameResult::BlackWins => 0,
            _ => 1,
        }
    }

    /// Whether a side won.
    pub fn decisive(&self) -> bool {
        matches!(self.result, GameResult::WhiteWins | GameResult::BlackWins)
    }

    /// A draw the rules made (repetition, double pass), not a stopped or adjudicated game.
    pub fn rule_draw(&self) -> bool {
        !self.decisive() && self.termination.is_rule_ending()
    }

    /// Stopped at the ply limit without a result by the rules.
    pub fn undecided(&self) -> bool {
        !self.decisive() && self.termination == Termination::MoveLimit
    }

    /// Ended by adjudication from the agents' scores (a draw or a win).
    pub fn adjudicated(&self) -> bool {
        self.termination == Termination::Adjudication
    }
}

/// The two games of a pair: game `2p` (the pairing's first agent has White) and game
/// `2p + 1` (colours swapped). A game not (yet) played is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairRecord {
    /// The games, in index order.
    pub games: [Option<GameStat>; 2],
}

impl PairRecord {
    /// Whether both games are in.
    pub fn complete(&self) -> bool {
        self.games.iter().all(Option::is_some)
    }

    /// The games that are in.
    pub fn played(&self) -> impl Iterator<Item = &GameStat> {
        self.games.iter().flatten()
    }

    /// White's points doubled over a complete pair (0..=4).
    pub fn white_half_points(&self) -> Option<u8> {
        match self.games {
            [Some(a), Some(b)] => Some(a.white_half_points() + b.white_half_points()),
            _ => None,
        }
    }

    /// The pairing's first agent's points doubled over a complete pair: White's points in
    /// the first game, Black's in the second.
    pub fn first_half_points(&self) -> Option<u8> {
        match self.games {
            [Some(a), Some(b)] => Some(a.white_half_points() + 2 - b.white_half_points()),
            _ => None,
        }
    }

    /// Sums over the pair's games, indexed by the constants of [`sums`]: games, White's
    /// points, decisive games, games without a winner, rule draws, undecided games, plies,
    /// captures, relocations, games with plies, and the per-game ratios of legal actions
    /// and of decision plies to plies.
    pub fn sums(&self) -> [f64; SUMS] {
        let mut s = [0.0; SUMS];
        for g in self.played() {
            s[GAMES] += 1.0;
            s[WHITE_POINTS] += f64::from(g.white_half_points()) / 2.0;
            s[DECISIVE] += f64::from(u8::from(g.decisive()));
            s[NO_WINNER] += f64::from(u8::from(!g.decisive()));
            s[RULE_DRAWS] += f64::from(u8::from(g.rule_draw()));
            s[UNDECIDED] += f64::from(u8::from(g.undecided()));
            s[PLIES] += f64::from(g.plies);
            s[CAPTURES] += f64::from(g.captures);
            s[RELOCATIONS] += f64::from(g.relocations);
            if g.plies > 0 {
                s[MEASURED] += 1.0;
                s[BRANCHING] += g.legal_actions as f64 / f64::from(g.plies);
                s[DECISIONS] += f64::from(g.decision_plies) / f64::from(g.plies);
            }
        }
        s
    }

    /// The points (doubled) an SPRT of this experiment kind scores: White's in a `run`
    /// (the first-move advantage), the first agent's in a `tournament`.
    pub fn sprt_half_points(&self, kind: Kind) -> Option<u8> {
        match kind {
            Kind::Run => self.white_half_points(),
            Kind::Tournament => self.first_half_points(),
        }
    }
}

pub mod sums {
    //! Indices of [`super::PairRecord::sums`]: sums over a pair's games, in this order.
    /// Games played.
    pub const GAMES: usize = 0;
    /// White's points.
    pub const WHITE_POINTS: usize = 1;
    /// Games won by either side.
    pub const DECISIVE: usize = 2;
    /// Games without a winner (rule draws and undecided).
    pub const NO_WINNER: usize = 3;
    /// Draws by the rules.
    pub const RULE_DRAWS: usize = 4;
    /// Games stopped at the ply limit.
    pub const UNDECIDED: usize = 5;
    /// Plies.
    pub const PLIES: usize = 6;
    /// Pieces captured.
    pub const CAPTURES: usize = 7;
    /// Relocation actions.
    pub const RELOCATIONS: usize = 8;
    /// Games with at least one ply.
    pub const MEASURED: usize = 9;
    /// Per game, legal actions per ply, summed.
    pub const BRANCHING: usize = 10;
    /// Per game, the share of plies with a choice, summed.
    pub const DECISIONS: usize = 11;
    /// How many sums.
    pub const SUMS: usize = 12;
}

/// An SPRT's state after a prefix of pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The chance of a false H1.
    pub alpha: f64,
    /// The chance of a false H0.
    pub beta: f64,
    /// The log-likelihood ratio after `pairs` pairs.
    pub llr: f64,
    /// Accept H0 at or below.
    pub lower: f64,
    /// Accept H1 at or above.
    pub upper: f64,
    /// The hypothesis accepted, or `None` while the test goes on.
    pub decision: Option<Hypothesis>,
    /// Pairs in the prefix the test has seen (all of them, up to the decision).
    pub pairs: u64,
}

/// Runs an SPRT over a prefix of pairs: `points` yields each pair's points doubled in
/// index order, `None` at the first incomplete pair (the prefix ends there). Stops at the
/// first decision.
pub fn sprt_over_prefix(spec: &SprtSpec, points: impl Iterator<Item = Option<u8>>) -> SprtResult {
    let mut counts = Pentanomial::default();
    let mut decision = None;
    let mut llr = 0.0;
    for k in points {
        let Some(k) = k else { break };
        counts.add_half_points(k);
        llr = spec.llr(counts.counts);
        decision = spec.decide(llr);
        if decision.is_some() {
            break;
        }
    }
    SprtResult {
        elo0: spec.elo0,
        elo1: spec.elo1,
        alpha: spec.alpha,
        beta: spec.beta,
        llr,
        lower: spec.lower(),
        upper: spec.upper(),
        decision,
        pairs: counts.pairs(),
    }
}

/// The pairs of every block of an experiment.
#[derive(Clone, Debug)]
pub struct Samples {
    kind: Kind,
    pairs_per_block: u64,
    games_per_block: u64,
    /// Per block, its pairs by pair number within the block.
    pub blocks: Vec<Vec<PairRecord>>,
    /// Per block, the SPRT over its prefix (when the experiment has one).
    pub sprt: Vec<Option<SprtResult>>,
    /// Games whose agents used the clock.
    pub time_limited_games: u64,
}

impl Samples {
    /// No games yet.
    pub fn new(experiment: &Experiment) -> Samples {
        Samples {
            kind: experiment.kind,
            pairs_per_block: experiment.pairs_per_block(),
            games_per_block: experiment.games,
            blocks: vec![Vec::new(); experiment.blocks()],
            sprt: vec![None; experiment.blocks()],
            time_limited_games: 0,
        }
    }

    /// The samples of `rows` (any order), cut at each block's SPRT decision.
    pub fn of_rows<'a>(
        experiment: &Experiment,
        rows: impl IntoIterator<Item = &'a GameRow>,
    ) -> Samples {
        let mut samples = Samples::new(experiment);
        for row in rows {
            samples.add(row);
        }
        samples.apply_sprt(experiment.sprt.as_ref());
        samples
    }

    /// Adds one game (ignored if its index lies outside the experiment).
    pub fn add(&mut self, row: &GameRow) {
        let block = (row.index / self.games_per_block) as usize;
        let within = row.index % self.games_per_block;
        let (pair, slot) = ((within / 2) as usize, (within % 2) as usize);
        let Some(pairs) = self.blocks.get_mut(block) else {
            return;
        };
        if pair as u64 >= self.pairs_per_block {
            return;
        }
        if pairs.len() <= pair {
            pairs.resize(pair + 1, PairRecord::default());
        }
        pairs[pair].games[slot] = Some(GameStat::of(row));
        self.time_limited_games += u64::from(row.time_limited);
    }

    /// Runs each block's SPRT over its prefix of complete pairs and drops the pairs after
    /// a decision.
    pub fn apply_sprt(&mut self, spec: Option<&SprtSpec>) {
        let Some(spec) = spec else { return };
        let kind = self.kind;
        for (b, pairs) in self.blocks.iter_mut().enumerate() {
            let result = sprt_over_prefix(spec, pairs.iter().map(|p| p.sprt_half_points(kind)));
            if result.decision.is_some() {
                pairs.truncate(result.pairs as usize);
            }
            self.sprt[b] = Some(result);
        }
    }

    /// The games held, over all blocks.
    pub fn games(&self) -> u64 {
        self.blocks
            .iter()
            .flatten()
            .map(|p| p.played().count() as u64)
            .sum()
    }
}

/// Which game indices an experiment with an SPRT still needs, as the games come in: per
/// block, the pairs' points in index order and the point after which the test decided.
/// Used by the runner to stop scheduling games a decided test does not need.
#[derive(Clone, Debug)]
pub struct SprtMonitor {
    spec: SprtSpec,
    kind: Kind,
    games_per_block: u64,
    /// Per block: White's (or the first agent's) half points per game, 255 when missing.
    points: Vec<Vec<u8>>,
    /// Per block: the complete-pair prefix length already fed to the test.
    prefix: Vec<usize>,
    counts: Vec<Pentanomial>,
    /// Per block: games from this index within the block on are not needed.
    needed_below: Vec<u64>,
}

impl SprtMonitor {
    /// A monitor for `experiment` (`None` without an SPRT).
    pub fn new(experiment: &Experiment) -> Option<SprtMonitor> {
        let spec = experiment.sprt?;
        let blocks = experiment.blocks();
        Some(SprtMonitor {
            spec,
            kind: experiment.kind,
            games_per_block: experiment.games,
            points: vec![Vec::new(); blocks],
            prefix: vec![0; blocks],
            counts: vec![Pentanomial::default(); blocks],
            needed_below: vec![experiment.games; blocks],
        })
    }

    /// Records a finished game; returns whether its block's test decided just now.
    pub fn record(&mut self, row: &GameRow) -> bool {
        let block = (row.index / self.games_per_block) as usize;
        let within = (row.index % self.games_per_block) as usize;
        let Some(points) = self.points.get_mut(block) else {
            return false;
        };
        if points.len() <= within {
            points.resize(within + 1, u8::MAX);
        }
        points[within] = GameStat::of(row).white_half_points();
        if self.needed_below[block] < self.games_per_block {
            return false;
        }
        let mut decided = false;
        loop {
            let p = self.prefix[block];
            let (Some(&a), Some(&b)) = (points.get(2 * p), points.get(2 * p + 1)) else {
                break;
            };
            if a == u8::MAX || b == u8::MAX {
                break;
            }
            let k = match self.kind {
                Kind::Run => a + b,
                Kind::Tournament => a + 2 - b,
            };
            self.counts[block].add_half_points(k);
            self.prefix[block] = p + 1;
            if self
                .spec
                .decide(self.spec.llr(self.counts[block].counts))
                .is_some()
            {
                self.needed_below[block] = 2 * (p as u64 + 1);
                decided = true;
                break;
            }
        }
        decided
    }

    /// Whether game `index` is still needed (its block undecided, or it lies in the
    /// decided prefix).
    pub fn needed(&self, index: u64) -> bool {
        let block = (index / self.games_per_block) as usize;
        !matches!(self.needed_below.get(block), Some(&limit) if index % self.games_per_block >= limit)
    }

    /// Per block, the first index within the block that is no longer needed.
    pub fn limits(&self) -> &[u64] {
        &self.needed_below
    }
}

/// Per block, the first index within the block that an SPRT no longer needs, from the
/// games held (fed in index order, so the answer depends on the games alone). `None`
/// without an SPRT.
pub fn sprt_limits<'a>(
    experiment: &Experiment,
    rows: impl IntoIterator<Item = &'a GameRow>,
) -> Option<Vec<u64>> {
    let mut monitor = SprtMonitor::new(experiment)?;
    let mut sorted: Vec<&GameRow> = rows.into_iter().collect();
    sorted.sort_by_key(|r| r.index);
    for row in sorted {
        monitor.record(row);
    }
    Some(monitor.limits().to_vec())
}

/// Whether game `index` lies within the per-block `limits`.
pub fn within_limits(experiment: &Experiment, limits: &[u64], index: u64) -> bool {
    let block = experiment.block_of(index);
    !matches!(limits.get(block), Some(&limit) if index % experiment.games >= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Pairing;

    fn row(e: &Experiment, index: u64, result: GameResult) -> GameRow {
        let termination = match result {
            GameResult::Draw => Termination::Repetition,
            _ => Termination::Formation,
        };
        crate::row::test_row(e, index, result, termination)
    }

    fn experiment(kind: Kind, games: u64, sprt: &str) -> Experiment {
        Experiment {
            kind,
            variants: vec!["standard".into()],
            pairings: vec![Pairing {
                first: "a".into(),
                second: "b".into(),
            }],
            games,
            opening_plies: 0,
            max_plies: 100,
            seed: 1,
            sprt: Some(sprt.parse().unwrap()),
            adjudication: Default::default(),
            openings: None,
        }
    }

    #[test]
    fn the_monitor_and_the_samples_agree_in_any_order() {
        // The first agent wins every game: its pairs score 2 (tournament view).
        let e = experiment(Kind::Tournament, 100, "elo0=0,elo1=50");
        let rows: Vec<GameRow> = (0..100)
            .map(|i| {
                row(
                    &e,
                    i,
                    if i % 2 == 0 {
                        GameResult::WhiteWins
                    } else {
                        GameResult::BlackWins
                    },
                )
            })
            .collect();
        let samples = Samples::of_rows(&e, &rows);
        let sprt = samples.sprt[0].clone().unwrap();
        assert_eq!(sprt.decision, Some(Hypothesis::H1));
        // 23 perfect pairs reach ln 19 (independent check: docs/selfplay.md).
        assert_eq!(sprt.pairs, 23);
        assert_eq!(samples.blocks[0].len(), 23);
        assert_eq!(samples.games(), 46);
        // Fed in reverse order, the monitor decides at the same point, once the prefix
        // is complete.
        let mut monitor = SprtMonitor::new(&e).unwrap();
        let mut decided_at = None;
        for r in rows.iter().rev() {
            if monitor.record(r) {
                decided_at = Some(r.index);
            }
        }
        assert_eq!(decided_at, Some(0));
        assert_eq!(monitor.limits(), [46]);
        assert!(monitor.needed(45) && !monitor.needed(46));
    }

    #[test]
    fn run_tests_score_white() {
        // White wins every game: in a run that is White's advantage, decided for H1; in a
        // tournament the first agent splits every pair, which points to H0.
        let run_experiment = experiment(Kind::Run, 200, "elo0=0,elo1=50");
        let rows: Vec<GameRow> = (0..200)
            .map(|i| row(&run_experiment, i, GameResult::WhiteWins))
            .collect();
        let run = Samples::of_rows(&run_experiment, &rows);
        assert_eq!(run.sprt[0].as_ref().unwrap().decision, Some(Hypothesis::H1));
        let t = Samples::of_rows(&experiment(Kind::Tournament, 200, "elo0=0,elo1=50"), &rows);
        assert_eq!(t.sprt[0].as_ref().unwrap().decision, Some(Hypothesis::H0));
    }

    #[test]
    fn a_gap_ends_the_prefix() {
        let e = experiment(Kind::Run, 200, "elo0=0,elo1=50");
        let rows: Vec<GameRow> = (0..200)
            .filter(|&i| i != 3)
            .map(|i| row(&e, i, GameResult::WhiteWins))
            .collect();
        let s = Samples::of_rows(&e, &rows);
        let sprt = s.sprt[0].as_ref().unwrap();
        assert_eq!((sprt.pairs, sprt.decision), (1, None));
        assert_eq!(s.blocks[0].len(), 100, "nothing is cut without a decision");
    }
}
