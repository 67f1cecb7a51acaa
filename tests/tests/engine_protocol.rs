//! `agon engine` over real pipes: the handshake, a scripted game, malformed input, `stop`
//! during `go infinite`, who decides under `queen-relocated-by=opponent`, and the same
//! search as the in-process agent.

use agon_core::agents::{AlphaBetaAgent, AlphaBetaConfig};
use agon_core::{Action, Game, Position, Rules, Side};
use agon_notation::protocol::{EngineMessage, Info, Score};
use agon_notation::{format_position, parse_action, AnnotatedAction};
use agon_tests::cli::agon_path;
use agon_tests::engine::Session;
use agon_tests::positions::{game_of, position};

fn engine() -> Session {
    Session::start(agon_path(), &["engine"])
}

/// The action of a `bestmove` line, checked in `position`.
#[track_caller]
fn bestmove(line: &str, position: &Position) -> Action {
    let token = line
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove line: {line}"));
    parse_action(token, position)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .0
}

#[track_caller]
fn info(line: &str) -> Info {
    match EngineMessage::parse(line) {
        Ok(EngineMessage::Info(info)) => info,
        other => panic!("not an info line: {line} ({other:?})"),
    }
}

/// Sends `line` and `isready`; returns what came back before `readyok`.
#[track_caller]
fn answer_to(session: &mut Session, line: &str) -> Vec<String> {
    session.send(line);
    session.send("isready");
    let mut lines = session.until("readyok");
    lines.pop();
    lines
}

#[test]
fn a_scripted_session_plays_legal_actions_and_says_what_it_thinks() {
    let mut e = engine();
    e.send("agon");
    assert_eq!(
        e.until("agonok"),
        [
            format!("id name agon {}", env!("CARGO_PKG_VERSION")),
            "id author the agon authors".to_string(),
            "option name Agent type string default alphabeta".to_string(),
            "option name Hash type spin default 16 min 1 max 4096".to_string(),
            "option name Seed type spin default 0 min 0 max 18446744073709551615".to_string(),
            "option name MultiPV type spin default 1 min 1 max 256".to_string(),
            "agonok".to_string(),
        ]
    );
    e.send("isready");
    assert_eq!(e.expect_line(), "readyok");
    e.send("newgame");
    e.send("variant standard");
    e.send("position startpos moves h9-g9 b7-c7");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let game = game_of(&["h9-g9", "b7-c7"]);
    let action = bestmove(lines.last().unwrap(), game.position());

    // One info line per completed iteration, then the answer.
    let infos: Vec<Info> = lines[..lines.len() - 1].iter().map(|l| info(l)).collect();
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(3)]
    );
    for i in &infos {
        // Every principal variation replays legally from the position.
        let mut replay = game.clone();
        for token in &i.pv {
            let parsed = AnnotatedAction::parse(token).unwrap();
            parsed.check(replay.position()).unwrap();
            replay.play(parsed.action).unwrap();
        }
        assert!(i.pv.len() <= i.depth.unwrap() as usize, "{i}");
    }

    // The same search in process: same action, score, node count and line.
    let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(3, 0));
    let report = agent.search(&game);
    assert_eq!(action, report.action);
    let last = infos.last().unwrap();
    assert_eq!(last.score, Some(Score::Units(i64::from(report.score))));
    assert_eq!(last.nodes, Some(report.nodes));
    let pv: Vec<Action> = last
        .pv
        .iter()
        .map(|t| AnnotatedAction::parse(t).unwrap().action)
        .collect();
    assert_eq!(pv, report.pv);
    assert_eq!(pv[0], action);

    e.send("quit");
    assert_eq!(e.rest(), Vec::<String>::new());
    assert_eq!(e.wait(), Some(0));
}

#[test]
fn malformed_lines_get_one_error_line_each_and_the_engine_goes_on() {
    let mut e = engine();
    let cases: [(&str, &str); 6] = [
        (
            "uci",
            "error unknown command `uci`; expected one of agon, setoption, newgame, variant, \
             position, go, stop, eval, isready, quit",
        ),
        (
            "go deep 3",
            "error go: unknown limit `deep`; expected depth N, nodes N, movetime MS or infinite",
        ),
        (
            "go depth 0",
            "error go: `depth` needs a whole number from 1 to 255, found `0`",
        ),
        (
            "setoption name Hash value 0",
            "error setoption: option `Hash` takes a whole number from 1 to 4096, not `0`",
        ),
        (
            "setoption name Threads value 2",
            "error setoption: unknown option `Threads`; options: Agent, Hash, Seed, MultiPV",
        ),
        (
            "isready now",
            "error isready: takes no arguments, found `now`",
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(answer_to(&mut e, line), [expected], "after `{line}`");
    }
    let starts: [(&str, &str); 4] = [
        (
            "variant capture=square",
            "error variant: `capture=square` is not a rule set: ",
        ),
        (
            "position startpos moves h9-g9 j1-j2",
            "error position: move 2: `j1-j2` is not an action: ",
        ),
        (
            "setoption name Agent value minimax",
            "error setoption: `minimax` is not an agent: unknown agent `minimax`",
        ),
        (
            "position startpos moves h9-g9 h9-g9",
            "error position: move 2: h9-g9 is not legal: ",
        ),
    ];
    for (line, start) in starts {
        let answer = answer_to(&mut e, line);
        assert_eq!(answer.len(), 1, "after `{line}`: {answer:?}");
        assert!(
            answer[0].starts_with(start),
            "after `{line}`: {}",
            answer[0]
        );
    }
    // The failed `position` left no position to search.
    assert_eq!(
        answer_to(&mut e, "go depth 1"),
        ["error go: no position (the last `position` command failed); send one first"]
    );
    // Blank lines are ignored; bytes that are not UTF-8 and an endless line are answered.
    e.send_bytes(b"\n   \t\n\xff\xfe zz\n");
    e.send("isready");
    let answer = e.until("readyok");
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert!(answer[0].starts_with("error unknown command `\u{fffd}\u{fffd}`"));
    let mut long = vec![b'x'; 2 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    assert_eq!(
        answer_to(&mut e, ""),
        ["error a line of 2097152 bytes is longer than the limit of 1048576; ignored"]
    );
    // A finished game has no action to choose.
    let won = formation_in_one();
    e.send(&format!(
        "position {} moves d6-e6",
        format_position(won.position())
    ));
    assert_eq!(
        answer_to(&mut e, "go depth 1"),
        ["error go: the game is over (1-0 by formation); there is no action to choose"]
    );
    // And it still plays.
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    bestmove(lines.last().unwrap(), &Position::start(Rules::STANDARD));
    e.send("quit");
    assert_eq!(e.rest(), Vec::<String>::new());
    assert_eq!(e.wait(), Some(0));
}

#[test]
fn stop_ends_go_infinite_and_the_engine_reads_while_it_thinks() {
    let mut e = engine();
    e.send("position startpos");
    e.send("go infinite");
    // It is thinking: the first iteration is reported.
    let first = e.expect_line();
    assert_eq!(info(&first).depth, Some(1), "{first}");
    // isready is answered while it thinks, and nothing else may be asked.
    e.send("isready");
    let mut before = e.until("readyok");
    before.pop();
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    e.send("position startpos moves h9-g9");
    let busy = e.until("error");
    assert_eq!(
        busy.last().unwrap(),
        "error position: busy thinking; send `stop` or wait for `bestmove` first"
    );
    assert!(busy.iter().all(|l| !l.starts_with("bestmove")));
    // `stop` makes it answer (an infinite search never would on its own).
    e.send("stop");
    let lines = e.until("bestmove");
    bestmove(lines.last().unwrap(), &Position::start(Rules::STANDARD));
    // The search thread is done: the engine takes commands again.
    assert_eq!(
        answer_to(&mut e, "position startpos moves h9-g9"),
        Vec::<String>::new()
    );
    // `quit` during `go infinite` ends the engine without an answer.
    e.send("go infinite");
    let first = e.expect_line();
    assert!(first.starts_with("info depth 1 "), "{first}");
    e.send("quit");
    let rest = e.rest();
    assert!(rest.iter().all(|l| l.starts_with("info ")), "{rest:?}");
    assert_eq!(e.wait(), Some(0));
}

#[test]
fn the_end_of_input_lets_a_search_answer() {
    let mut e = engine();
    e.send("position startpos");
    e.send("go depth 2");
    e.close();
    let lines = e.rest();
    bestmove(lines.last().unwrap(), &Position::start(Rules::STANDARD));
    assert_eq!(e.wait(), Some(0));
}

/// White to move; d6-e6 completes the formation.
fn formation_in_one() -> Game {
    Game::from_position(position(
        Rules::STANDARD,
        Side::White,
        "Qf6 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6",
        "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
    ))
}

#[test]
fn the_engine_answers_for_the_side_that_decides() {
    // Black's queen on a6 is captured and must be relocated: Black moves. Under the
    // standard rules Black decides and takes the empty throne; under
    // `queen-relocated-by=opponent` White decides for Black, never giving her the throne.
    let white = "Qf1 Gd1 Ge1 Gg1 Gh1 Gk1 Gl1";
    let black = "Qa6x Gb7 Gc8 Gd9 Gi8 Gk7 Gl6";
    let mut e = engine();
    for (variant, owner_decides) in [("standard", true), ("queen-relocated-by=opponent", false)] {
        let rules: Rules = variant.parse().unwrap();
        let start = position(rules, Side::Black, white, black);
        assert_eq!(start.to_move(), Side::Black);
        e.send(&format!("variant {variant}"));
        e.send(&format!("position {}", format_position(&start)));
        e.send("go depth 3");
        let lines = e.until("bestmove");
        let action = bestmove(lines.last().unwrap(), &start);
        let throne: Action = "a6@f6".parse().unwrap();
        if owner_decides {
            assert_eq!(action, throne, "{variant}");
        } else {
            assert_eq!(start.decider(), Side::White);
            let to = action.destination().unwrap();
            assert!(to.ring() >= 2, "{variant}: White gave Black {action}");
        }
    }
    e.send("quit");
    assert_eq!(e.wait(), Some(0));
}

/// The score of an `info` line as a number that orders scores for the side searched.
fn value(score: Score) -> i64 {
    match score {
        Score::Units(n) => n,
        Score::Win(plies) => 1_000_000 - i64::from(plies),
        Score::Loss(plies) => i64::from(plies) - 1_000_000,
    }
}

#[test]
fn multipv_reports_the_best_lines_in_order() {
    let mut e = engine();
    let game = game_of(&["h9-g9", "b7-c7", "g9-g8"]);
    e.send("position startpos moves h9-g9 b7-c7 g9-g8");
    e.send("go depth 3");
    let single = e.until("bestmove");
    let single_info = info(&single[single.len() - 2]);
    assert_eq!(single_info.multipv, None, "one line: no multipv field");

    e.send("setoption name MultiPV value 4");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let action = bestmove(lines.last().unwrap(), game.position());
    let infos: Vec<Info> = lines[..lines.len() - 1].iter().map(|l| info(l)).collect();
    // Four lines per iteration, numbered 1 to 4, for depths 1, 2 and 3.
    assert_eq!(infos.len(), 12);
    for (k, i) in infos.iter().enumerate() {
        assert_eq!(i.depth, Some(k as u32 / 4 + 1));
        assert_eq!(i.multipv, Some(k as u32 % 4 + 1));
    }
    let last: Vec<&Info> = infos[8..].iter().collect();
    let values: Vec<i64> = last.iter().map(|i| value(i.score.unwrap())).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    let firsts: Vec<Action> = last
        .iter()
        .map(|i| AnnotatedAction::parse(&i.pv[0]).unwrap().action)
        .collect();
    assert_eq!(firsts[0], action, "the first line is the answer");
    let mut distinct = firsts.clone();
    distinct.sort_by_key(|a| a.to_string());
    distinct.dedup();
    assert_eq!(distinct.len(), 4);
    // The best line's score is the single-line search's.
    assert_eq!(last[0].score, single_info.score);
    // In process, the same lines.
    let config = AlphaBetaConfig {
        multipv: 4,
        ..AlphaBetaConfig::with_depth(3, 0)
    };
    let report = AlphaBetaAgent::new(config).search(&game);
    let scores: Vec<Option<Score>> = report
        .lines
        .iter()
        .map(|l| Some(Score::Units(i64::from(l.score))))
        .collect();
    assert_eq!(last.iter().map(|i| i.score).collect::<Vec<_>>(), scores);
}

#[test]
fn eval_prints_the_terms_that_make_the_evaluation() {
    let mut e = engine();
    let game = game_of(&["h9-g9", "b7-c7", "g9-g8"]);
    let lines = answer_to(&mut e, "position startpos moves h9-g9 b7-c7 g9-g8");
    assert!(lines.is_empty(), "{lines:?}");
    let lines = answer_to(&mut e, "eval");
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("eval term "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "progress",
            "formation",
            "relocations",
            "threats",
            "mobility",
            "tempo"
        ]
    );
    let (mut white, mut black) = (0, 0);
    for line in &lines[..6] {
        let words: Vec<&str> = line.split(' ').collect();
        white += words[4].parse::<i64>().unwrap();
        black += words[6].parse::<i64>().unwrap();
    }
    // Black decides; the evaluation is White's total less Black's, seen from Black.
    let evaluation = i64::from(agon_core::agents::evaluate(game.position()).unwrap());
    assert_eq!(white - black, evaluation);
    assert_eq!(
        lines[6],
        format!(
            "eval total white {white} black {black} score units {}",
            -evaluation
        )
    );
    assert_eq!(lines.len(), 7);

    // No position, and a finished game, are refused.
    let lines = answer_to(&mut e, "position startpos moves h9-g7");
    assert_eq!(lines.len(), 1);
    assert_eq!(
        answer_to(&mut e, "eval"),
        ["error eval: no position (the last `position` command failed); send one first"]
    );
    let won = "1g4/6g/8/g8/4GG4/4GQ1G2q/4GG4/g8/8/6g/1g4 w -";
    let lines = answer_to(&mut e, &format!("position {won} moves f8-f7"));
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(
        answer_to(&mut e, "eval"),
        ["error eval: the game is over (1-0 by formation); there is nothing to evaluate"]
    );
}
