//! End-to-end tests of `agon play` driven through stdin, as a script would.

use agon_tests::cli::{agon, agon_with_stdin, scratch};

#[test]
fn scripted_game_with_undo_and_resignation_is_saved() {
    let dir = scratch("play-save");
    let path = dir.join("game.agn");
    let path_text = path.to_str().unwrap();
    // White resigns after Black's second try.
    let script = "h9-g9\nb7-c7\nundo\n# a comment line\n\nb7-b6\nresign\n";
    let run = agon_with_stdin(&["play", "--save", path_text], script).ok();
    assert_eq!(
        run.lines(),
        [
            "1. White h9-g9",
            "1... Black b7-c7",
            "undone: b7-c7",
            "1... Black b7-b6",
            "Result: 0-1 (Black wins, resignation)"
        ]
    );
    let record = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        record,
        "[Event \"agon play\"]\n[White \"human\"]\n[Black \"human\"]\n[Result \"0-1\"]\n\
         [Variant \"standard\"]\n[Termination \"resignation\"]\n\n1. h9-g9 b7-b6 0-1\n"
    );
    // The saved record is valid and replays to the position after b7-b6.
    agon(&["validate", path_text]).code(0);
    let shown = agon(&["moves", "--record", path_text]).ok();
    let direct = agon(&["moves", "--moves", "h9-g9 b7-b6"]).ok();
    assert_eq!(shown.stdout, direct.stdout);
}

#[test]
fn end_of_input_leaves_the_game_unfinished() {
    let dir = scratch("play-eof");
    let path = dir.join("open.agn");
    let run = agon_with_stdin(&["play", "--save", path.to_str().unwrap()], "h9-g9\n").ok();
    assert_eq!(run.lines().last(), Some(&"Result: * (unfinished)"));
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(record.ends_with("\n1. h9-g9 *\n"), "{record}");
    assert!(record.contains("[Result \"*\"]"));
}

#[test]
fn an_illegal_line_stops_with_its_line_number() {
    let run = agon_with_stdin(&["play"], "h9-g9\nb7-c7\nh9-g8\n").code(2);
    assert_eq!(run.lines(), ["1. White h9-g9", "1... Black b7-c7"]);
    assert!(
        run.stderr
            .starts_with("agon: line 3: h9-g8 is not legal: there is no piece on h9"),
        "{}",
        run.stderr
    );
    let run = agon_with_stdin(&["play"], "frobnicate\n").code(2);
    assert!(
        run.stderr.contains("line 1: `frobnicate` is not an action"),
        "{}",
        run.stderr
    );
}

#[test]
fn queries_answer_without_playing() {
    let script = "h9\nf6\nb7\nmoves\nhint\nquit\n";
    let run = agon_with_stdin(&["play", "--seed", "1"], script).ok();
    let lines = run.lines();
    assert_eq!(lines[0], "actions of h9: h9-g9 h9-g10 h9-h8 h9-i8");
    assert_eq!(lines[1], "f6 is empty");
    assert_eq!(lines[2], "the piece on b7 is Black's");
    assert!(lines[3].starts_with("a5-a4 a5-a6 a5-b5"), "{}", lines[3]);
    let hint = lines
        .iter()
        .find(|l| l.starts_with("hint: "))
        .expect("a hint line");
    let legal = agon(&["moves"]).ok();
    assert!(legal.lines().contains(&&hint["hint: ".len()..]), "{hint}");
    assert_eq!(lines.last(), Some(&"Result: * (unfinished)"));
}

#[test]
fn agents_play_reproducibly_from_a_seed() {
    let dir = scratch("play-agents");
    let a = dir.join("a.agn");
    let b = dir.join("b.agn");
    for path in [&a, &b] {
        agon(&[
            "play",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "42",
            "--max-plies",
            "60",
            "--save",
            path.to_str().unwrap(),
        ])
        .ok();
    }
    let first = std::fs::read_to_string(&a).unwrap();
    assert_eq!(first, std::fs::read_to_string(&b).unwrap());
    assert!(first.contains("[White \"random\"]"));
    assert!(first.contains("[Seed \"42\"]"));
    let check = agon(&["validate", "--json", a.to_str().unwrap()]).code(0);
    let json = &check.json_lines()[0];
    assert_eq!(json["valid"], true);
    let plies = json["plies"].as_u64().unwrap();
    assert!(plies <= 60);
    if plies == 60 {
        assert_eq!(json["termination"], "move-limit");
    }
}

#[test]
fn a_human_against_an_agent_takes_back_both_plies_on_undo() {
    let run = agon_with_stdin(
        &["play", "--black", "random", "--seed", "3"],
        "h9-g9\nundo\nquit\n",
    )
    .ok();
    let lines = run.lines();
    assert_eq!(lines[0], "1. White h9-g9");
    assert!(lines[1].starts_with("1... Black "));
    assert!(lines[2].starts_with("undone: "), "{}", lines[2]);
    assert!(lines[2].ends_with(", h9-g9"), "{}", lines[2]);
}

#[test]
fn a_bad_agent_name_is_a_usage_error() {
    let run = agon(&["play", "--black", "grandmaster"]).code(2);
    assert!(run.stderr.contains("--black"), "{}", run.stderr);
    assert!(run.stderr.contains("grandmaster"));
}

#[test]
fn every_spelling_of_an_action_is_echoed_in_the_record_form() {
    // H9-G9, h9g9 and "h9 g9" are the same step; the echo and the record say h9-g9.
    let script = "H9-G9\nb7 c7\nG9G8\nB6-B5\n";
    let run = agon_with_stdin(&["play"], script).code(2);
    assert_eq!(
        run.lines(),
        ["1. White h9-g9", "1... Black b7-c7", "2. White g9-g8"],
    );
    // The fourth line is checked as b6-b5 (Black has no piece on b6), with its number.
    assert!(
        run.stderr.starts_with("agon: line 4: b6-b5 is not legal"),
        "{}",
        run.stderr
    );
}

#[test]
fn moves_are_numbered_as_in_records_when_black_starts() {
    // After one ply Black is to move: the first ply of this game is move 1 for Black.
    let position = agon(&["show", "--json", "--moves", "h9-g9"]).ok().stdout;
    let value: serde_json::Value = serde_json::from_str(&position).unwrap();
    let notation = value["notation"].as_str().unwrap();
    let run = agon_with_stdin(&["play", "--position", notation], "b7-c7\ng9-g8\n").ok();
    assert_eq!(
        run.lines(),
        [
            "1... Black b7-c7",
            "2. White g9-g8",
            "Result: * (unfinished)"
        ]
    );
}

/// `relocation=start-cell`: a relocation with one legal destination is still an action the
/// player types (docs/rules.md section 8, R8); the board offers it, and leaving it out is
/// refused.
#[test]
fn a_forced_relocation_is_offered_and_typed() {
    let opening = "a5-b6\nb7-c7\nd9-d8\n";
    let args = [
        "play",
        "--variant",
        "relocation=start-cell",
        "--show-board",
        "--ascii",
    ];
    let run = agon_with_stdin(&args, &format!("{opening}c7@b7\n")).ok();
    assert!(
        run.stdout
            .contains("Black must relocate its captured guard (c7@CELL): 1 legal action, c7@b7"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("2... Black c7@b7"), "{}", run.stdout);
    let skipped = agon_with_stdin(&args, &format!("{opening}k7-i8\n")).code(2);
    assert!(
        skipped.stderr.contains(
            "line 4: k7-i8 is not legal: a relocation is due: Black's captured guard on c7 \
             must be relocated first"
        ),
        "{}",
        skipped.stderr
    );
}
