//! Results broken down by suite opening (`--openings` with more than one opening): per
//! variant, pairing and opening, the complete pairs, White's score over them with its
//! pentanomial interval, the draw and undecided rates and the mean length. Read from the
//! same compact per-pair records as the rest of the summary: pair `p` of a block played
//! suite opening [`crate::openings::OpeningSuite::index_for_pair`]`(seed, p)`, so the
//! breakdown needs no column of `games.csv` and is the same for record and position
//! openings.

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::openings::OpeningSuite;
use crate::report::{num, rate_cells};
use crate::sample::{GameStat, PairRecord, Samples};
use crate::stats::pairs::IntervalMethod;
use crate::stats::{Interval, Pentanomial};
use crate::summary::{Rate, ALL_PAIRINGS};
use serde::Serialize;
use std::path::Path;

/// `openings.csv`: one row per variant, pairing and opening.
pub const OPENINGS_CSV: &str = "openings.csv";

/// The statistics of the games of one suite opening in one group.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OpeningSummary {
    /// Canonical rule-set name.
    pub variant: String,
    /// `A vs B`, or [`ALL_PAIRINGS`] (when there are several).
    pub pairing: String,
    /// The opening's number in the suite file, from 1.
    pub opening: usize,
    /// The opening's actions (`(start)` for none), or its position string.
    pub label: String,
    /// Finished games that started from it.
    pub games: u64,
    /// Complete colour-swapped pairs.
    pub pairs: u64,
    /// Pairs in which White scored 0, 1/2, 1, 3/2, 2 points over the two games.
    pub pentanomial: [u64; 5],
    /// White's mean score per game over the complete pairs.
    pub white_score: Option<f64>,
    /// Its 95% interval (pentanomial, as the summary's groups).
    pub interval: Option<Interval>,
    /// How the interval was computed.
    pub interval_method: Option<IntervalMethod>,
    /// Draws by the rules / games.
    pub draw_rate: Rate,
    /// Games stopped at the ply limit / games.
    pub undecided_rate: Rate,
    /// Mean plies per game (opening included).
    pub length_mean: Option<f64>,
}

impl OpeningSummary {
    /// The statistics of `pairs` (those of one opening within a group).
    fn new(variant: &str, pairing: &str, opening: (usize, &str), pairs: &[&PairRecord]) -> Self {
        let games = || pairs.iter().flat_map(|p| p.played());
        let n = games().count() as u64;
        let count = |f: fn(&GameStat) -> bool| games().filter(|g| f(g)).count() as u64;
        let mut white = Pentanomial::default();
        for k in pairs.iter().filter_map(|p| p.white_half_points()) {
            white.add_half_points(k);
        }
        let interval = white.interval(0.95);
        let plies: u64 = games().map(|g| u64::from(g.plies)).sum();
        OpeningSummary {
            variant: variant.to_string(),
            pairing: pairing.to_string(),
            opening: opening.0 + 1,
            label: opening.1.to_string(),
            games: n,
            pairs: white.pairs(),
            pentanomial: white.counts,
            white_score: white.score(),
            interval: interval.map(|(i, _)| i),
            interval_method: interval.map(|(_, m)| m),
            draw_rate: Rate::new(count(GameStat::rule_draw), n),
            undecided_rate: Rate::new(count(GameStat::undecided), n),
            length_mean: (n > 0).then(|| plies as f64 / n as f64),
        }
    }
}

/// The breakdown of an experiment's samples by suite opening: per block, then per variant
/// over all pairings when there are several, each by opening in suite order; openings no
/// pair played are left out. Empty without a suite of at least two openings.
pub fn by_opening(experiment: &Experiment, samples: &Samples) -> Vec<OpeningSummary> {
    let Some(suite) = experiment
        .openings
        .as_ref()
        .filter(|s| s.openings.len() > 1)
    else {
        return Vec::new();
    };
    let n = suite.openings.len();
    // Per block, the pairs of each opening.
    fn split<'a>(
        e: &Experiment,
        suite: &OpeningSuite,
        pairs: &'a [PairRecord],
    ) -> Vec<Vec<&'a PairRecord>> {
        let mut by: Vec<Vec<&PairRecord>> = vec![Vec::new(); suite.openings.len()];
        for (p, pair) in pairs.iter().enumerate() {
            if pair.played().next().is_some() {
                by[suite.index_for_pair(e.seed, p as u64)].push(pair);
            }
        }
        by
    }
    let split = |pairs| split(experiment, suite, pairs);
    let mut rows = Vec::new();
    let mut push = |variant: &str, pairing: &str, by: Vec<Vec<&PairRecord>>| {
        for (k, pairs) in by.iter().enumerate() {
            if !pairs.is_empty() {
                let label = suite.openings[k].label();
                rows.push(OpeningSummary::new(variant, pairing, (k, label), pairs));
            }
        }
    };
    for (b, pairs) in samples.blocks.iter().enumerate() {
        let (variant, pairing) = experiment.block(b);
        push(variant, &pairing.label(), split(pairs));
    }
    let per_variant = experiment.pairings.len();
    if per_variant > 1 {
        for (v, variant) in experiment.variants.iter().enumerate() {
            let mut pooled: Vec<Vec<&PairRecord>> = vec![Vec::new(); n];
            for pairs in &samples.blocks[v * per_variant..(v + 1) * per_variant] {
                for (k, those) in split(pairs).into_iter().enumerate() {
                    pooled[k].extend(those);
                }
            }
            push(variant, ALL_PAIRINGS, pooled);
        }
    }
    rows
}

/// The columns of `openings.csv`.
pub const OPENING_COLUMNS: [&str; 22] = [
    "variant",
    "pairing",
    "opening",
    "label",
    "games",
    "pairs",
    "pairs_0",
    "pairs_half",
    "pairs_1",
    "pairs_1half",
    "pairs_2",
    "white_score",
    "white_score_low",
    "white_score_high",
    "interval_method",
    "draw_rate",
    "draw_rate_low",
    "draw_rate_high",
    "undecided_rate",
    "undecided_low",
    "undecided_high",
    "length_mean",
];

/// The breakdown as CSV: a header and one row per variant, pairing and opening.
pub fn openings_csv(rows: &[OpeningSummary]) -> Result<Vec<u8>> {
    let fail = |e: csv::Error| Error::output(Path::new(OPENINGS_CSV), e.to_string());
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(OPENING_COLUMNS).map_err(fail)?;
    for o in rows {
        let mut r = vec![
            o.variant.clone(),
            o.pairing.clone(),
            o.opening.to_string(),
            o.label.clone(),
            o.games.to_string(),
            o.pairs.to_string(),
        ];
        r.extend(o.pentanomial.iter().map(u64::to_string));
        r.extend([
            num(o.white_score),
            num(o.interval.map(|i| i.low)),
            num(o.interval.map(|i| i.high)),
            o.interval_method
                .map_or(String::new(), |m| m.name().to_string()),
        ]);
        r.extend(rate_cells(&o.draw_rate));
        r.extend(rate_cells(&o.undecided_rate));
        r.push(num(o.length_mean));
        writer.write_record(r).map_err(fail)?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::output(Path::new(OPENINGS_CSV), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Kind, Pairing};
    use crate::openings::{Opening, OpeningOrder};
    use crate::row::{test_row, GameRow};
    use agon_core::{GameResult, Termination};

    fn experiment(openings: usize, pairings: usize) -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into()],
            pairings: (0..pairings)
                .map(|k| Pairing {
                    first: "random".into(),
                    second: if k == 0 { "random" } else { "greedy" }.into(),
                })
                .collect(),
            games: 8,
            opening_plies: 0,
            max_plies: 100,
            seed: 3,
            sprt: None,
            adjudication: Default::default(),
            openings: Some(OpeningSuite {
                file: "book.agn".into(),
                order: OpeningOrder::Sequential,
                start: 0,
                openings: ["h9-g9", "k1-k2", "h9-g9 b7-c7"][..openings]
                    .iter()
                    .map(|m| Opening::Moves(m.to_string()))
                    .collect(),
            }),
        }
    }

    fn row(e: &Experiment, index: u64, result: GameResult, t: Termination, plies: u32) -> GameRow {
        let mut row = test_row(e, index, result, t);
        row.plies = plies;
        row
    }

    #[test]
    fn pairs_are_split_by_the_opening_they_played() {
        use GameResult::*;
        use Termination::*;
        // Four pairs, openings 1 2 1 2 (sequential, start 0).
        let e = experiment(2, 1);
        let games = [
            (WhiteWins, Formation, 10), // pair 0, opening 1: White 2 of 2
            (WhiteWins, Formation, 20),
            (Draw, MoveLimit, 100), // pair 1, opening 2: White 1/2 + 1
            (BlackWins, Formation, 30),
            (Draw, Repetition, 40), // pair 2, opening 1: White 1/2 + 0
            (BlackWins, SixGuards, 50),
            (Draw, MoveLimit, 100), // pair 3, opening 2: only one game in
        ];
        let rows: Vec<GameRow> = games
            .iter()
            .enumerate()
            .map(|(i, &(r, t, p))| row(&e, i as u64, r, t, p))
            .collect();
        let samples = Samples::of_rows(&e, &rows);
        let by = by_opening(&e, &samples);
        assert_eq!(by.len(), 2);
        let (first, second) = (&by[0], &by[1]);
        assert_eq!((first.opening, first.label.as_str()), (1, "h9-g9"));
        assert_eq!((first.games, first.pairs), (4, 2));
        assert_eq!(first.pentanomial, [0, 1, 0, 0, 1]);
        assert_eq!(first.white_score, Some(0.625));
        assert_eq!(first.draw_rate.count, 1);
        assert_eq!(first.undecided_rate.count, 0);
        assert_eq!(first.length_mean, Some(30.0));
        assert_eq!((second.opening, second.games, second.pairs), (2, 3, 1));
        assert_eq!(second.pentanomial, [0, 1, 0, 0, 0]);
        assert_eq!(second.white_score, Some(0.25));
        assert_eq!(
            (second.undecided_rate.count, second.undecided_rate.of),
            (2, 3)
        );
        assert_eq!(second.draw_rate.rate, Some(0.0));
        assert_eq!(second.length_mean, Some(230.0 / 3.0));
        assert_eq!(second.interval_method, Some(IntervalMethod::ExactBound));
        let csv = String::from_utf8(openings_csv(&by).unwrap()).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].split(',').count(), OPENING_COLUMNS.len());
        assert!(lines[1].starts_with("standard,random vs random,1,h9-g9,4,2,0,1,0,0,1,0.625,"));
    }

    #[test]
    fn one_opening_or_none_gives_no_breakdown_and_pairings_are_pooled() {
        let e = experiment(1, 1);
        let rows = [row(&e, 0, GameResult::Draw, Termination::Repetition, 9)];
        assert!(by_opening(&e, &Samples::of_rows(&e, &rows)).is_empty());
        let mut no_suite = experiment(2, 1);
        no_suite.openings = None;
        assert!(by_opening(&no_suite, &Samples::of_rows(&no_suite, &rows)).is_empty());
        // Two pairings: each by opening, then both pooled.
        let e = experiment(3, 2);
        let rows: Vec<GameRow> = (0..16)
            .map(|i| row(&e, i, GameResult::WhiteWins, Termination::Formation, 12))
            .collect();
        let by = by_opening(&e, &Samples::of_rows(&e, &rows));
        let keys: Vec<(&str, usize, u64)> = by
            .iter()
            .map(|o| (o.pairing.as_str(), o.opening, o.pairs))
            .collect();
        assert_eq!(
            keys,
            [
                ("random vs random", 1, 2),
                ("random vs random", 2, 1),
                ("random vs random", 3, 1),
                ("random vs greedy", 1, 2),
                ("random vs greedy", 2, 1),
                ("random vs greedy", 3, 1),
                (ALL_PAIRINGS, 1, 4),
                (ALL_PAIRINGS, 2, 2),
                (ALL_PAIRINGS, 3, 2),
            ]
        );
    }
}
