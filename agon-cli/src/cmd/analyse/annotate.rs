//! Analysis written into records: after every ply a comment with the score after it (and
//! the engine's best action when another was played) and the class's NAG; the engine in
//! an `Annotator` tag and each side's summary in a comment before the first ply.
//!
//! Analysing an analysed record gives the same record as analysing it once: the comments
//! an earlier `agon analyse` wrote (the record's `Annotator` tag names it) are recognised
//! by their form and place (the last comment of that form at each place) and replaced, and the judgement NAGs (`$6`, `$2`, `$4`) of the analysed
//! plies are the analysis's own. Everything else the record had (other comments, move
//! suffixes such as `??`, other NAGs, variations) is kept, and the analysis comes after it.

use super::game::{GameAnalysis, PlyAnalysis, SideSummary};
use super::judgement::Class;
use agon_notation::{GameRecord, Nag};
use regex::Regex;
use std::sync::LazyLock;

/// The start of the `Annotator` tag of an analysed record.
const ANNOTATOR: &str = "agon analyse";
/// The start of the summary comment before the first ply.
const SUMMARY_PREFIX: &str = "analysis: White average loss ";

/// A ply's comment as [`ply_comment`] writes it: a score, its depth, the best action.
static PLY_COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(0\.00|[+-][0-9]+\.[0-9]{2}|#[+-][0-9]+)(/[0-9]+)?( best: [^ ]+)?$")
        .expect("a valid pattern")
});

/// Writes `analysis` (of the game of `record`) by the engine `spec` into `record`,
/// replacing what an earlier analysis wrote.
pub fn annotate(record: &mut GameRecord, analysis: &GameAnalysis, spec: &str) {
    if record
        .tag("Annotator")
        .is_some_and(|a| a.starts_with(ANNOTATOR))
    {
        remove_analysis(record);
    }
    record.set_tag("Annotator", &format!("{ANNOTATOR} {spec}"));
    record
        .annotations
        .get_mut(0)
        .comments
        .push(summary_comment(analysis));
    for ply in &analysis.plies {
        let annotation = record.annotations.get_mut(ply.ply);
        annotation.nags.retain(|nag| !is_judgement(*nag));
        if let Some(nag) = ply.nag.map(Nag) {
            annotation.nags.push(nag);
        }
        annotation.comments.push(ply_comment(ply));
    }
}

/// Whether a NAG is one of the classes' (`$6`, `$2`, `$4`).
fn is_judgement(nag: Nag) -> bool {
    [Class::Inaccuracy, Class::Mistake, Class::Blunder]
        .iter()
        .any(|class| class.nag() == nag.0)
}

/// Removes the comments an earlier analysis wrote on the game's own line: its summary
/// before the first ply and the score comment after each ply. The analysis appends its
/// comment after the others, so the last comment of its form is the one removed (a user's
/// `{+0.35}` before it stays).
fn remove_analysis(record: &mut GameRecord) {
    for (index, annotation) in record.annotations.iter_mut() {
        let ours = |c: &String| {
            if index == 0 {
                c.starts_with(SUMMARY_PREFIX)
            } else {
                PLY_COMMENT.is_match(c)
            }
        };
        if let Some(last) = annotation.comments.iter().rposition(ours) {
            annotation.comments.remove(last);
        }
    }
}

/// `+0.35/6`; `-1.20/6 best: d9-d8` when the engine preferred another action; `#-0` for
/// a ply that ended the game.
pub fn ply_comment(ply: &PlyAnalysis) -> String {
    let mut text = ply.after.to_string();
    if ply.depth > 0 {
        text.push_str(&format!("/{}", ply.depth));
    }
    if !ply.is_best {
        if let Some(best) = ply.best.first().and_then(|line| line.pv.first()) {
            text.push_str(&format!(" best: {best}"));
        }
    }
    text
}

/// `White average loss 0.23 over 40 plies (2 inaccuracies, 1 mistake, 0 blunders); Black
/// ...`.
pub fn summary_text(analysis: &GameAnalysis) -> String {
    format!(
        "White {}; Black {}",
        side_text(&analysis.white),
        side_text(&analysis.black)
    )
}

/// The comment before the first ply.
fn summary_comment(analysis: &GameAnalysis) -> String {
    format!("analysis: {}", summary_text(analysis))
}

fn side_text(side: &SideSummary) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "average loss {:.2} over {} ({}, {}, {})",
        side.average_loss / 100.0,
        plural(side.plies, "ply", "plies"),
        plural(side.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(side.mistakes, "mistake", "mistakes"),
        plural(side.blunders, "blunder", "blunders"),
    )
}

#[cfg(test)]
mod tests {
    use super::super::game::Line;
    use super::super::judgement::{Class, Score};
    use super::*;
    use agon_core::Side;

    fn ply(after: Score, depth: u32, is_best: bool, class: Option<Class>) -> PlyAnalysis {
        PlyAnalysis {
            ply: 1,
            side: Side::White,
            decider: Side::White,
            action: "h9-g9".into(),
            before: Score::Units(35),
            after,
            depth,
            best: vec![Line {
                score: Score::Units(35),
                pv: vec!["d9-d8".into(), "b7-c7".into()],
            }],
            is_best,
            loss: 0,
            class,
            nag: class.map(Class::nag),
        }
    }

    #[test]
    fn comments_carry_the_score_depth_and_best_action() {
        assert_eq!(
            ply_comment(&ply(Score::Units(35), 6, true, None)),
            "+0.35/6"
        );
        assert_eq!(
            ply_comment(&ply(Score::Units(-120), 6, false, Some(Class::Blunder))),
            "-1.20/6 best: d9-d8"
        );
        let ended = Score::Forced {
            winner: Side::Black,
            plies: 0,
        };
        assert_eq!(ply_comment(&ply(ended, 0, false, None)), "#-0 best: d9-d8");
    }

    #[test]
    fn records_keep_what_they_had_and_get_comments_and_nags() {
        let mut record: GameRecord = "[Event \"e\"]\n\n1. h9-g9 {kept} b7-c7 $4 *\n"
            .parse()
            .unwrap();
        let mut first = ply(Score::Units(35), 6, true, None);
        first.ply = 1;
        let mut second = ply(Score::Units(400), 6, false, Some(Class::Blunder));
        second.ply = 2;
        second.decider = Side::Black;
        let analysis = GameAnalysis {
            plies: vec![first, second],
            white: SideSummary::default(),
            black: SideSummary::default(),
        };
        annotate(&mut record, &analysis, "alphabeta:depth=6");
        assert_eq!(
            record.tag("Annotator").as_deref(),
            Some("agon analyse alphabeta:depth=6")
        );
        let text = record.to_string();
        assert!(
            text.contains("1. h9-g9 {kept} {+0.35/6} 1... b7-c7 $4 {+4.00/6 best: d9-d8} *"),
            "{text}"
        );
        assert!(
            text.contains("{analysis: White average loss 0.00 over 0 plies"),
            "{text}"
        );
        let again: GameRecord = text.parse().unwrap();
        assert_eq!(again, record);
    }

    #[test]
    fn analysing_twice_replaces_the_first_analysis() {
        let text = "[Event \"e\"]\n\n{before} 1. h9-g9 {+0.35} $1 $6 b7-c7?? {a user's note} *\n";
        let analysis = |second_class| {
            let mut first = ply(Score::Units(35), 6, true, None);
            first.ply = 1;
            let mut second = ply(Score::Units(400), 6, false, second_class);
            second.ply = 2;
            second.decider = Side::Black;
            GameAnalysis {
                plies: vec![first, second],
                white: SideSummary::default(),
                black: SideSummary::default(),
            }
        };
        let once = |text: &str, class| {
            let mut record: GameRecord = text.parse().unwrap();
            annotate(&mut record, &analysis(class), "alphabeta:depth=6");
            record.to_string()
        };
        let first = once(text, Some(Class::Blunder));
        // A record never analysed keeps a comment that looks like a score; its judgement
        // NAG is the analysis's, its other NAGs and suffixes stay.
        let words = first.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains(
                "1. h9-g9 $1 {+0.35} {+0.35/6} 1... b7-c7?? $4 {a user's note} \
                 {+4.00/6 best: d9-d8} *"
            ),
            "{first}"
        );
        assert!(words.contains("{before} {analysis: White"), "{first}");
        let second = once(&first, Some(Class::Blunder));
        assert_eq!(second, first, "analyse(analyse(x)) == analyse(x)");
        // Another judgement replaces the first one's comments and NAGs, not the user's.
        let other = once(&first, Some(Class::Mistake));
        assert_eq!(other, first.replace("$4", "$2"));
        assert_eq!(other.matches("analysis: ").count(), 1, "{other}");
        assert!(other.contains("{before}") && other.contains("{a user's note}"));
    }
}
