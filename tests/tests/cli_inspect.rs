//! End-to-end tests of `agon moves`, `agon perft` and `agon show`: exact output, exit
//! codes, JSON schemas, error messages and pipes.

use agon_tests::cli::{agon, agon_with_stdin, command};
use std::io::Read;
use std::process::Stdio;

#[test]
fn moves_lists_the_27_start_actions_sorted() {
    let run = agon(&["moves"]).ok();
    let lines = run.lines();
    assert_eq!(lines.len(), 27);
    assert_eq!(lines[0], "a5-a4");
    assert!(lines.contains(&"h9-g9"));
    // Steps in (from, to) cell order: every start action is a step.
    assert!(lines.iter().all(|l| l.contains('-')));
}

#[test]
fn moves_output_feeds_back_into_moves() {
    let first = agon(&["moves"]).ok();
    let action = first.lines()[5].to_string();
    let second = agon(&["moves", "--moves", &action]).ok();
    let reply = second.lines()[0].to_string();
    let both = format!("{action} {reply}");
    let third = agon(&["moves", "--moves", &both]).ok();
    assert!(!third.lines().is_empty());
    // The same actions given with commas and move numbers select the same position.
    let numbered = format!("1. {action} 1... {reply}");
    let fourth = agon(&["moves", "--moves", &numbered]).ok();
    assert_eq!(third.stdout, fourth.stdout);
}

#[test]
fn moves_json_has_one_typed_object_per_action() {
    let run = agon(&["moves", "--json"]).ok();
    let objects = run.json_lines();
    assert_eq!(objects.len(), 27);
    let first = &objects[0];
    assert_eq!(first["action"], "a5-a4");
    assert_eq!(first["kind"], "step");
    assert_eq!(first["from"], "a5");
    assert_eq!(first["to"], "a4");
    assert_eq!(first["captures"], serde_json::json!([]));
    assert_eq!(first["side"], "White");
    assert_eq!(first["decider"], "White");
}

#[test]
fn moves_of_a_placement_opening_are_queen_placements() {
    let run = agon(&["moves", "--variant", "opening=placement"]).ok();
    let lines = run.lines();
    assert_eq!(
        lines.len(),
        30,
        "the queen may go on any of the 30 outer cells"
    );
    assert!(lines.iter().all(|l| l.starts_with("Q@")));
}

#[test]
fn moves_annotates_captures_and_accepts_annotations_back() {
    // A line that captures: White c1-d2 takes the Black guard on e2 (found by self-play).
    let moves =
        "k1-k2 d1-e2 a5-a4 f11-g10 a4-b5 h1-i1 f1-f2 b7-b6 b5-b4 g10-g9 b1-c1 i1-k1 b4-b5 a2-a1";
    let run = agon(&["moves", "--moves", moves]).ok();
    assert!(run.lines().contains(&"c1-d2xe2"), "{}", run.stdout);
    let bare = agon(&["moves", "--bare", "--moves", moves]).ok();
    assert!(bare.lines().contains(&"c1-d2"));
    let with_capture = format!("{moves} c1-d2xe2");
    let after = agon(&["moves", "--moves", &with_capture]).ok();
    // Black must relocate its captured guard: relocations from e2 to the outer ring.
    assert!(
        after.lines().iter().all(|l| l.starts_with("e2@")),
        "{}",
        after.stdout
    );
    // A wrong annotation is refused.
    let wrong = format!("{moves} c1-d2xe3");
    let run = agon(&["moves", "--moves", &wrong]).code(2);
    assert!(run.stderr.contains("capture"), "{}", run.stderr);
}

#[test]
fn moves_reports_an_illegal_action_with_its_index_and_reason() {
    let run = agon(&["moves", "--moves", "h9-g9 h9-g8"]).code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with(
            "agon: action 2 of --moves (Black to move): h9-g8 is not legal: there is no piece on h9"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.lines().count() <= 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"));
}

#[test]
fn unknown_variant_is_a_usage_error() {
    let run = agon(&["moves", "--variant", "capture=diagonal"]).code(2);
    assert!(
        run.stderr
            .contains("`diagonal` is not a value of `capture`"),
        "{}",
        run.stderr
    );
}

#[test]
fn closed_pipe_ends_quietly_with_success() {
    let mut child = command(&["perft", "--divide", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then close our end, like `| head -c1`.
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn perft_prints_the_bare_count_last() {
    assert_eq!(agon(&["perft", "1"]).ok().stdout, "27\n");
    assert_eq!(agon(&["perft", "2"]).ok().stdout, "713\n");
    assert_eq!(agon(&["perft", "3"]).ok().lines().last(), Some(&"18417"));
    assert_eq!(agon(&["perft", "0"]).ok().stdout, "1\n");
}

#[test]
fn perft_divide_sums_to_the_total() {
    let run = agon(&["perft", "--divide", "2"]).ok();
    let lines = run.lines();
    assert_eq!(lines.len(), 28);
    let sum: u64 = lines[..27]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 713);
    assert_eq!(lines[27], "713");
    assert_eq!(lines[0], "a5-a4: 27");
}

#[test]
fn perft_full_agrees_with_bulk_counting() {
    assert_eq!(agon(&["perft", "--full", "3"]).ok().stdout, "18417\n");
}

#[test]
fn perft_json_has_nodes_time_and_speed() {
    let run = agon(&["perft", "--json", "--divide", "2"]).ok();
    let objects = run.json_lines();
    assert_eq!(objects.len(), 1);
    let json = &objects[0];
    assert_eq!(json["variant"], "standard");
    assert_eq!(json["depth"], 2);
    assert_eq!(json["nodes"], 713);
    assert!(json["seconds"].as_f64().unwrap() >= 0.0);
    assert!(json["nodes_per_second"].as_f64().unwrap() >= 0.0);
    assert!(json["cpu_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(json["divide"].as_array().unwrap().len(), 27);
    assert_eq!(json["divide"][0]["action"], "a5-a4");
}

#[test]
fn perft_after_moves_and_under_variants() {
    // After h9-g9 it is Black's turn: perft 1 is the number of Black's actions.
    let black = agon(&["moves", "--moves", "h9-g9"]).ok().lines().len();
    let perft = agon(&["perft", "--moves", "h9-g9", "1"]).ok();
    assert_eq!(perft.stdout, format!("{black}\n"));
    let ludii = agon(&["perft", "--variant", "ludii", "2"]).ok();
    assert_eq!(ludii.stdout, "713\n");
}

#[test]
fn show_draws_the_start_like_the_rule_book() {
    let run = agon(&["show"]).ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    // 21 rows of cells, the top one holding Black's queen on f11, the bottom White's on f1.
    assert_eq!(lines[0].trim(), "qf11");
    assert_eq!(lines[20].trim(), "Qf1");
    assert_eq!(
        lines[7].split_whitespace().collect::<Vec<_>>(),
        ["Ga5", "c6", "e7", "g7", "i6", "Gl5"]
    );
    assert_eq!(
        lines[10].split_whitespace().collect::<Vec<_>>(),
        ["b4", "d5", "^f6", "h5", "k4"]
    );
    assert!(run.stdout.contains("White to move: 27 legal actions"));
    assert!(!run.stdout.contains('\x1b'), "no colour into a pipe");
}

#[test]
fn show_marks_captured_pieces_and_the_last_action() {
    let moves = "k1-k2 d1-e2 a5-a4 f11-g10 a4-b5 h1-i1 f1-f2 b7-b6 b5-b4 g10-g9 b1-c1 i1-k1 b4-b5 a2-a1 c1-d2";
    let run = agon(&["show", "--ascii", "--moves", moves]).ok();
    assert!(run.stdout.contains("(g)e2"), "{}", run.stdout);
    assert!(run
        .stdout
        .contains("Last action: ply 15, White c1-d2, capturing e2"));
    assert!(run.stdout.contains("Captured: Black (g)e2"));
    assert!(run
        .stdout
        .contains("Black must relocate its captured guard (e2@CELL): 23 legal actions"));
}

#[test]
fn show_reports_the_end_of_a_game() {
    // Replaying an unfinished line is fine; ask for a finished game through stdin play.
    let run = agon_with_stdin(&["play"], "h9-g9\nresign\n").ok();
    assert!(
        run.stdout.contains("Result: 1-0 (White wins, resignation)"),
        "{}",
        run.stdout
    );
}

#[test]
fn help_teaches_by_example() {
    for command in ["moves", "perft", "show", "render", "play"] {
        let run = agon(&[command, "--help"]).ok();
        assert!(
            run.stdout.contains("Examples:"),
            "{command} --help has no examples"
        );
        assert!(run.stdout.contains(&format!("agon {command}")));
    }
    let run = agon(&["--help"]).ok();
    assert!(run.stdout.contains("Examples:"));
}

#[test]
fn usage_errors_exit_2_without_backtraces() {
    let run = agon(&["perft"]).code(2);
    assert!(run.stderr.contains("DEPTH"));
    let run = agon(&["frobnicate"]).code(2);
    assert!(run.stderr.contains("frobnicate"));
    let run = agon(&["moves", "--ply", "3"]).code(2);
    assert!(run.stderr.contains("--record"));
}

#[test]
fn show_json_describes_the_position() {
    let run = agon(&["show", "--json", "--moves", "h9-g9"]).ok();
    let objects = run.json_lines();
    assert_eq!(objects.len(), 1);
    let json = &objects[0];
    assert_eq!(json["to_move"], "black");
    assert_eq!(json["phase"], "normal");
    assert_eq!(json["rules"], "standard");
    assert_eq!(json["ply"], 1);
    assert_eq!(json["legal_actions"], 27);
    assert_eq!(json["result"], "*");
    assert!(json["termination"].is_null());
    let pieces = json["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 14);
    assert!(pieces
        .iter()
        .any(|p| p["cell"] == "g9" && p["side"] == "white" && p["kind"] == "guard"));
    // The notation selects the same position again.
    let notation = json["notation"].as_str().unwrap();
    let again = agon(&["show", "--json", "--position", notation]).ok();
    assert_eq!(again.json_lines()[0]["notation"], notation);
}

/// A position string that parses but cannot arise in a game (one White guard on the
/// throne and nothing else) is refused with every reason, not played as a finished game.
#[test]
fn impossible_positions_are_refused_with_every_reason() {
    for command in ["show", "moves", "perft"] {
        let mut args = vec![command, "--position", "6/7/8/9/10/5G5/10/9/8/7/6 w -"];
        if command == "perft" {
            args.push("1");
        }
        let run = agon(&args).code(2);
        assert_eq!(run.stdout, "", "{command}");
        for reason in [
            "column 13: White has 0 queens on the board and 0 in hand; expected 1 in all",
            "Black has 0 guards on the board and 0 in hand; expected 6 in all",
            "a guard on the throne f6: only a queen may stand there",
        ] {
            assert!(run.stderr.contains(reason), "{command}: {}", run.stderr);
        }
    }
}

/// The `relocation` switch on the command line: perft of each value (docs/rules.md
/// section 8), refused combinations as usage errors with the reason, and `show` under
/// `removed`, where captured pieces leave the board and are counted instead.
#[test]
fn the_relocation_switch_from_the_command_line() {
    for (variant, nodes) in [
        ("relocation=next-ring", "466199"),
        ("relocation=start-cell", "463511"),
        ("relocation=removed", "467265"),
    ] {
        let run = agon(&["perft", "--variant", variant, "4"]).ok();
        assert_eq!(run.lines().last(), Some(&nodes), "{variant}");
    }
    let refused = agon(&[
        "perft",
        "--variant",
        "relocation=removed,queen-relocated-by=opponent",
        "1",
    ])
    .code(2);
    assert!(
        refused.stderr.contains(
            "`relocation=removed` cannot be combined with `queen-relocated-by=opponent`: \
             captured pieces leave the board there"
        ),
        "{}",
        refused.stderr
    );
    assert_eq!(refused.stdout, "");

    let moves = "a5-b6 b7-c7 d9-d8";
    let run = agon(&[
        "show",
        "--ascii",
        "--variant",
        "relocation=removed",
        "--moves",
        moves,
    ])
    .ok();
    assert!(run
        .stdout
        .contains("Last action: ply 3, White d9-d8, capturing c7"));
    assert!(
        run.stdout.contains("Removed from play: White 0; Black 1"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("Captured:"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("(g)"),
        "no captured piece stays on the board"
    );
    let json = &agon(&[
        "show",
        "--json",
        "--variant",
        "relocation=removed",
        "--moves",
        moves,
    ])
    .ok()
    .json_lines()[0];
    assert_eq!(json["removed"]["black"], 1);
    assert_eq!(json["removed"]["white"], 0);
    assert_eq!(json["pieces"].as_array().unwrap().len(), 13);
    assert_eq!(json["phase"], "normal");
    // Other rules count nothing removed.
    let standard = &agon(&["show", "--json", "--moves", moves])
        .ok()
        .json_lines()[0];
    assert_eq!(standard["removed"]["black"], 0);
    assert_eq!(standard["phase"], "relocation");
}
