//! The answer to `eval`: agon-core's static evaluation split into its named terms
//! (`agon_core::agents::evaluate_terms`), one `eval term` line per term and an `eval total`.

use agon_core::agents::{evaluate_terms, EvalTerm};
use agon_core::{Position, Side};
use agon_notation::protocol::{EvalLine, Score};

/// The `eval` lines of a position of a game that is not over.
pub fn lines(position: &Position) -> Vec<EvalLine> {
    let decider = position.decider();
    let Some(terms) = evaluate_terms(position) else {
        // The side to move has no legal action (a game that is not over never gets here:
        // the rules end it), which the evaluation scores as a loss for it.
        let score = if decider == position.to_move() {
            Score::Loss(0)
        } else {
            Score::Win(0)
        };
        return vec![EvalLine::Total {
            white: 0,
            black: 0,
            score,
        }];
    };
    let mut lines: Vec<EvalLine> = EvalTerm::ALL
        .iter()
        .map(|&term| EvalLine::Term {
            name: term.name().to_string(),
            white: i64::from(terms.get(term, Side::White)),
            black: i64::from(terms.get(term, Side::Black)),
        })
        .collect();
    let white = i64::from(terms.total(Side::White));
    let black = i64::from(terms.total(Side::Black));
    lines.push(EvalLine::Total {
        white,
        black,
        score: Score::Units(if decider == Side::White {
            white - black
        } else {
            black - white
        }),
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::agents::evaluate;
    use agon_core::{Game, Rules};

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        let mut game = Game::new(Rules::STANDARD);
        for action in ["h9-g9", "b7-c7", "g9-g8", "c7-d7"] {
            let lines = lines(game.position());
            assert_eq!(lines.len(), 7);
            let (mut white, mut black) = (0, 0);
            for line in &lines[..6] {
                let EvalLine::Term {
                    white: w, black: b, ..
                } = line
                else {
                    panic!("{line}")
                };
                white += w;
                black += b;
            }
            let EvalLine::Total {
                white: tw,
                black: tb,
                score,
            } = lines[6].clone()
            else {
                panic!("{}", lines[6])
            };
            assert_eq!((tw, tb), (white, black));
            let evaluation = i64::from(evaluate(game.position()).unwrap());
            let want = match game.position().decider() {
                Side::White => evaluation,
                Side::Black => -evaluation,
            };
            assert_eq!(score, Score::Units(want));
            game.play(action.parse().unwrap()).unwrap();
        }
        assert_eq!(
            lines(&Position::start(Rules::STANDARD))[5].to_string(),
            "eval term tempo white 8 black 0"
        );
    }
}
