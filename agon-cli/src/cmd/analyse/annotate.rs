//! Analysis written into records: after every ply a comment with the score after it (and
//! the engine's best action when another was played) and the class's NAG; the engine in
//! an `Annotator` tag and each side's summary in a comment before the first ply. What the
//! record already had is kept; analysis adds after it.

use super::game::{GameAnalysis, PlyAnalysis, SideSummary};
use agon_notation::{GameRecord, Nag};

/// Writes `analysis` (of the game of `record`) by the engine `spec` into `record`.
pub fn annotate(record: &mut GameRecord, analysis: &GameAnalysis, spec: &str) {
    record.set_tag("Annotator", &format!("agon analyse {spec}"));
    record
        .annotations
        .get_mut(0)
        .comments
        .push(summary_comment(analysis));
    for ply in &analysis.plies {
        let annotation = record.annotations.get_mut(ply.ply);
        if let Some(nag) = ply.nag.map(Nag) {
            if !annotation.nags.contains(&nag) {
                annotation.nags.push(nag);
            }
        }
        annotation.comments.push(ply_comment(ply));
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
}
