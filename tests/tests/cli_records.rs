//! End-to-end tests of the record commands: `validate`, `convert`, `fmt`, and `--record`
//! with `--ply` in `show`/`moves`.

use agon_tests::cli::{agon, agon_with_stdin, scratch};
use std::path::Path;

/// Three games: valid; illegal at ply 3 (line 7, column 19); a wrong capture annotation at
/// ply 15.
const MIXED: &str = "[Event \"one\"]\n\
\n\
1. h9-g9 b7-c7 *\n\
\n\
[Event \"two\"]\n\
\n\
1. h9-g9 b7-c7 2. g9-g7 *\n\
\n\
[Event \"three\"]\n\
\n\
1. k1-k2 d1-e2 2. a5-a4 f11-g10 3. a4-b5 h1-i1 4. f1-f2 b7-b6 5. b5-b4 g10-g9\n\
6. b1-c1 i1-k1 7. b4-b5 a2-a1 8. c1-d2xe3 *\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn validate_reports_each_invalid_game_with_its_place() {
    let dir = scratch("validate-text");
    let file = write(&dir, "mixed.agn", MIXED);
    let run = agon(&["validate", &file]).code(1);
    let lines = run.lines();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert_eq!(
        lines[0],
        format!(
            "{file}:7:19: game 2, ply 3 (move 2, White): g9-g7 is not legal: g7 is not next to g9"
        )
    );
    assert!(
        lines[1].starts_with(&format!("{file}:12:34: game 3, ply 15 (move 8, White): ")),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("xe2"), "{}", lines[1]);
    assert_eq!(lines[2], "3 games: 1 valid, 2 invalid");
    assert_eq!(run.stderr, "");
}

#[test]
fn validate_json_schema() {
    let dir = scratch("validate-json");
    let file = write(&dir, "mixed.agn", MIXED);
    let run = agon(&["validate", "--json", &file]).code(1);
    let games = run.json_lines();
    assert_eq!(games.len(), 3);
    let valid = &games[0];
    assert_eq!(valid["file"], file.as_str());
    assert_eq!(valid["game"], 1);
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["plies"], 2);
    assert_eq!(valid["result"], "*");
    assert!(valid["termination"].is_null());
    assert!(valid.get("error_ply").is_none());
    let bad = &games[1];
    assert_eq!(bad["game"], 2);
    assert_eq!(bad["valid"], false);
    assert_eq!(bad["error_ply"], 3);
    assert_eq!(bad["plies"], 2, "legal plies before the bad one");
    assert_eq!(bad["line"], 7);
    assert_eq!(bad["column"], 19);
    assert_eq!(bad["kind"], "illegal");
    assert_eq!(bad["message"], "g9-g7 is not legal: g7 is not next to g9");
    for key in ["result", "termination"] {
        assert!(bad.get(key).is_some(), "{key} is always present");
    }
    assert_eq!(games[2]["kind"], "captures");
    assert_eq!(games[2]["error_ply"], 15);
}

#[test]
fn validate_exit_codes_and_inputs() {
    let dir = scratch("validate-codes");
    let good = write(&dir, "good.agn", "[Event \"x\"]\n\n1. h9-g9 *\n");
    let run = agon(&["validate", &good]).code(0);
    assert_eq!(run.stdout, "1 game: 1 valid, 0 invalid\n");
    // stdin, by default and as `-`.
    let text = std::fs::read_to_string(&good).unwrap();
    assert_eq!(
        agon_with_stdin(&["validate"], &text).code(0).stdout,
        "1 game: 1 valid, 0 invalid\n"
    );
    let both = agon_with_stdin(&["validate", "-", &good], &text).code(0);
    assert_eq!(both.stdout, "2 games in 2 files: 2 valid, 0 invalid\n");
    // A missing file: reported on stderr, the others still checked, exit 2.
    let missing = dir.join("missing.agn");
    let run = agon(&["validate", missing.to_str().unwrap(), &good]).code(2);
    assert!(run.stderr.contains("cannot open"), "{}", run.stderr);
    assert!(run.stderr.contains("no such file"), "{}", run.stderr);
    assert!(run.stdout.contains("1 input could not be read"));
    // A folder: every .agn file inside, in name order.
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    write(&sub, "b.agn", MIXED);
    write(&sub, "notes.txt", "not a record");
    let run = agon(&["validate", "-q", dir.to_str().unwrap()]).code(1);
    assert_eq!(run.stdout, "");
    // --quiet with only valid games.
    agon(&["validate", "-q", &good]).code(0);
    // Usage errors.
    agon(&["validate", "--json", "--quiet", &good]).code(2);
}

#[test]
fn parallel_batches_report_exactly_what_one_thread_reports() {
    // Many games, some invalid in different ways, a byte-order mark, CRLF, two games on one
    // line and a comment that is never closed: cut into batches of 1, 2 and 5 games, the
    // output must be the same as reading the file in one go.
    let dir = scratch("validate-parallel");
    let mut text = String::from("\u{feff}");
    for i in 0..23 {
        let game = match i % 6 {
            0 => "[Event \"ok\"]\n\n1. h9-g9 b7-c7 *\n".to_string(),
            1 => "[Event \"crlf\"]\r\n\r\n1. h9-g9 b7-c7 2. g9-g7 *\r\n".to_string(),
            2 => "1. h9-g9 * 1. f1-f3 *\n".to_string(),
            3 => "[Event \"comment\"]\n\n1. h9-g9 { never closed\nb7-c7 *\n".to_string(),
            4 => "[Event \"result\"]\n[Result \"1-0\"]\n\n1. h9-g9 *\n".to_string(),
            _ => format!("[Event \"n{i}\"]\n[Round \"{i}\"]\n\n1. h9-g9 b7-c7 2. g9-f9 *\n"),
        };
        text.push_str(&game);
        text.push('\n');
    }
    let file = write(&dir, "tricky.agn", &text);
    let one = agon(&["validate", "--json", "--threads", "1", &file]).code(1);
    assert!(one.json_lines().len() >= 23);
    for batch in ["1", "2", "5"] {
        let many = agon(&[
            "validate",
            "--json",
            "--threads",
            "3",
            "--batch-games",
            batch,
            &file,
        ])
        .code(1);
        assert_eq!(many.stdout, one.stdout, "batches of {batch}");
        let text_many =
            agon(&["validate", "--threads", "2", "--batch-games", batch, &file]).code(1);
        let text_one = agon(&["validate", "--threads", "1", &file]).code(1);
        assert_eq!(text_many.stdout, text_one.stdout, "batches of {batch}");
    }
}

#[test]
fn closed_pipe_stops_validation_quietly() {
    let dir = scratch("validate-pipe");
    let text: String = (0..3000)
        .map(|_| "[Event \"x\"]\n\n1. h9-g9 *\n\n")
        .collect();
    let file = write(&dir, "many.agn", &text);
    let mut child = agon_tests::cli::command(&["validate", "--json", &file])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn convert_round_trips_records_and_json() {
    let dir = scratch("convert");
    let capture_game = "[Event \"three\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n\
        1. k1-k2 d1-e2 2. a5-a4 f11-g10 3. a4-b5 h1-i1 4. f1-f2 b7-b6 5. b5-b4 g10-g9\n\
        6. b1-c1 i1-k1 7. b4-b5 a2-a1 8. c1-d2xe2 e2@l6 *\n";
    let file = write(&dir, "game.agn", capture_game);
    let json = agon(&["convert", &file]).ok();
    let games = json.json_lines();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["tags"]["Event"], "three");
    assert_eq!(games[0]["variant"], "standard");
    assert_eq!(games[0]["moves"].as_array().unwrap().len(), 16);
    assert_eq!(games[0]["moves"][14]["action"], "c1-d2");
    assert_eq!(games[0]["moves"][14]["captures"], serde_json::json!(["e2"]));
    assert_eq!(games[0]["result"], "*");
    let json_file = write(&dir, "game.jsonl", &json.stdout);
    let back = agon(&["convert", &json_file]).ok();
    assert_eq!(back.stdout, capture_game);
    // Through pipes: the format is sniffed from the first byte.
    let again = agon_with_stdin(&["convert"], &json.stdout).ok();
    assert_eq!(again.stdout, capture_game);
    // An illegal JSON game is refused with its line, and skipped (exit 1).
    let bad = json.stdout.replace("\"k1-k2\"", "\"k1-k5\"");
    let run = agon_with_stdin(
        &["convert", "--to", "agn"],
        &format!("{}{bad}", json.stdout),
    )
    .code(1);
    assert_eq!(run.stdout, capture_game);
    assert!(run.stderr.contains("<stdin>:2: game 2"), "{}", run.stderr);
    // -o writes the file.
    let out = dir.join("out.agn");
    agon(&[
        "convert",
        "--to",
        "agn",
        "-o",
        out.to_str().unwrap(),
        &json_file,
    ])
    .ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), capture_game);
}

/// Each defect of a JSON input is reported at its line of the file: a syntax error at its
/// own line inside a game written over several lines, a refused game (alone or in a list)
/// where serde_json stopped, and serde_json's location is not repeated after the message.
#[test]
fn convert_names_the_line_of_each_json_defect() {
    let input = "{\"moves\":[]}\n\
        {\"moves\":\n  [{\"action\": \"h9-g9\"},\n  {\"action\": \"f1-f3\"}]}\n\
        {\"moves\": [,]}\n\
        [{\"moves\":[]},\n {\"moves\":[{\"action\":\"f1-f3\"}]}\n]\n\
        {\"moves\":[],\n \"result\": \"1-0\"}\n\
        {\"moves\":[], \"colour\": 3}\n";
    let run = agon_with_stdin(&["convert", "--to", "agn"], input).code(1);
    assert_eq!(run.stdout, "[Result \"*\"]\n[Variant \"standard\"]\n\n*\n");
    assert_eq!(
        run.stderr,
        "agon: <stdin>:2: game 2: moves[1] (ply 2): f1-f3 is not legal: the piece on f1 \
         belongs to the opponent\n\
         agon: <stdin>:5: game 3: expected value\n\
         agon: <stdin>:8: game 4: moves[0] (ply 1): f1-f3 is not legal: f3 is not next to f1\n\
         agon: <stdin>:9: game 5: the rules have not ended the game after ply 0, so the \
         result 1-0 needs [Termination \"resignation\"] or [Termination \"time-forfeit\"] (or \
         the result `*`)\n\
         agon: <stdin>:11: game 6: unknown field `colour`, expected one of `tags`, `variant`, \
         `start`, `nags`, `comments`, `moves`, `result`, `termination`\n"
    );
}

#[test]
fn convert_lists_every_position_of_a_game() {
    let dir = scratch("positions");
    let file = write(&dir, "g.agn", "[Event \"p\"]\n\n1. h9-g9 b7-c7 *\n");
    let run = agon(&["convert", "--to", "positions", &file]).ok();
    let lines = run.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["ply"], 0);
    assert!(lines[0]["action"].is_null());
    assert_eq!(lines[2]["ply"], 2);
    assert_eq!(lines[2]["action"], "b7-c7");
    assert_eq!(lines[2]["game"], 1);
    // Each position string selects the same position as the actions.
    let position = lines[2]["position"].as_str().unwrap();
    let from_string = agon(&["moves", "--position", position]).ok();
    let from_moves = agon(&["moves", "--moves", "h9-g9 b7-c7"]).ok();
    assert_eq!(from_string.stdout, from_moves.stdout);
}

#[test]
fn fmt_prints_checks_and_rewrites_in_place() {
    let dir = scratch("fmt");
    let messy =
        "[Event   \"m\"]\n[Result \"*\"]\n\n1.h9-g9   b7-c7\n2. g9-f9 *\n[Event \"n\"]\n1. f1-f2 *";
    let canonical =
        "[Event \"m\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n1. h9-g9 b7-c7 2. g9-f9 *\n\n\
                     [Event \"n\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n1. f1-f2 *\n";
    let file = write(&dir, "messy.agn", messy);
    assert_eq!(agon(&["fmt", &file]).ok().stdout, canonical);
    let run = agon(&["fmt", "--check", &file]).code(1);
    assert_eq!(run.stdout, format!("{file}: not canonical\n"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        messy,
        "--check writes nothing"
    );
    agon(&["fmt", "--in-place", &file]).ok();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), canonical);
    agon(&["fmt", "--check", &file]).ok();
    // An invalid game: the file is left as it is, and no temporary file remains.
    let bad_text = "[Event \"b\"]\n\n1. h9-g7 *\n";
    let bad = write(&dir, "bad.agn", bad_text);
    let run = agon(&["fmt", "-i", &bad]).code(1);
    assert!(run.stderr.contains("not legal"), "{}", run.stderr);
    assert!(run.stderr.contains("left unchanged"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), bad_text);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("tmp"))
        .collect();
    assert!(leftovers.is_empty());
    // stdin to stdout; --in-place needs files.
    assert_eq!(agon_with_stdin(&["fmt"], messy).ok().stdout, canonical);
    agon_with_stdin(&["fmt", "-i"], messy).code(2);
}

#[test]
fn record_and_ply_select_positions_even_before_a_defect() {
    let dir = scratch("record-ply");
    let file = write(&dir, "mixed.agn", MIXED);
    // Game 1 at its end and at ply 1.
    let end = agon(&["moves", "--record", &file]).ok();
    assert_eq!(
        end.stdout,
        agon(&["moves", "--moves", "h9-g9 b7-c7"]).ok().stdout
    );
    let one = agon(&["show", "--record", &file, "--ply", "1"]).ok();
    assert!(one.stdout.contains("Last action: ply 1, White h9-g9"));
    // Game 2 is invalid at ply 3: the position before it can be shown, not the end.
    let before = agon(&["moves", "--record", &file, "--game", "2", "--ply", "2"]).ok();
    assert_eq!(before.stdout, end.stdout);
    let run = agon(&["show", "--record", &file, "--game", "2"]).code(2);
    assert!(run.stderr.contains("game 2, ply 3"), "{}", run.stderr);
    assert!(run.stderr.contains("--ply 2"), "{}", run.stderr);
    // Out of range.
    let run = agon(&["show", "--record", &file, "--ply", "9"]).code(2);
    assert!(run.stderr.contains("has 2 plies"), "{}", run.stderr);
    let run = agon(&["show", "--record", &file, "--game", "7"]).code(2);
    assert!(run.stderr.contains("holds 3 game"), "{}", run.stderr);
}

#[test]
fn position_strings_are_checked_and_printed() {
    let run = agon(&["show", "--moves", "h9-g9"]).ok();
    let line = run
        .lines()
        .into_iter()
        .find(|l| l.starts_with("Position: "))
        .unwrap();
    let position = &line["Position: ".len()..];
    let again = agon(&["show", "--position", position]).ok();
    assert!(again.stdout.contains(line));
    let run = agon(&["moves", "--position", "not a position"]).code(2);
    assert!(
        run.stderr.contains("--position is not a position string"),
        "{}",
        run.stderr
    );
}

/// A transcribed game with comments, NAGs, suffixes and a nested variation, as people
/// write them.
const ANNOTATED: &str = "[Event \"annotated\"]\n{Notes before the game}\n\
    1. h9-g9!? $14 {the usual start} (1. f1-g1 {quieter} b7-c7 (1... a2-a1 $2))\n\
    1... b7-c7 ; a line comment with } inside\n\
    2. g9-f9?? {a blunder} ({better:} 2. g9-h8!) c7-d7 *\n";

#[test]
fn annotations_survive_fmt_and_json_round_trips() {
    let dir = scratch("annotated");
    let file = write(&dir, "annotated.agn", ANNOTATED);
    let canonical = agon(&["fmt", &file]).ok().stdout;
    assert_eq!(
        canonical,
        "[Event \"annotated\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n\
         {Notes before the game} 1. h9-g9!? $14 {the usual start} (1. f1-g1 {quieter}\n\
         1... b7-c7 (1... a2-a1 $2)) 1... b7-c7 ; a line comment with } inside\n\
         2. g9-f9?? {a blunder} ({better:} 2. g9-h8!) 2... c7-d7 *\n"
    );
    agon(&["fmt", "--in-place", &file]).ok();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), canonical);
    agon(&["fmt", "--check", &file]).ok();
    agon(&["validate", &file]).ok();
    // To JSON and back, byte for byte.
    let json = agon(&["convert", &file]).ok().stdout;
    let game: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(
        game["comments"],
        serde_json::json!(["Notes before the game"])
    );
    assert_eq!(game["moves"][0]["suffix"], "!?");
    assert_eq!(game["moves"][0]["nags"], serde_json::json!([14]));
    assert_eq!(
        game["moves"][0]["variations"][0]["moves"][1]["variations"][0]["moves"][0]["nags"],
        serde_json::json!([2])
    );
    let json_file = write(&dir, "annotated.jsonl", &json);
    assert_eq!(agon(&["convert", &json_file]).ok().stdout, canonical);
    assert_eq!(
        agon_with_stdin(&["convert", "--to", "json"], &canonical)
            .ok()
            .stdout,
        json
    );
    // An illegal action inside a variation is found and named with its ply.
    let bad = write(
        &dir,
        "bad.agn",
        &canonical.replace("2. g9-h8!", "2. g9-h6!"),
    );
    let run = agon(&["validate", &bad]).code(1);
    assert!(
        run.stdout
            .contains("7:38: game 1, ply 3 (move 2, White): g9-h6 is not legal")
            && run.stdout.contains("(in a variation)"),
        "{}",
        run.stdout
    );
}

#[test]
fn ply_selection_before_a_defect_skips_variations() {
    let dir = scratch("variation-ply");
    let text = "1. h9-g9 (1. f1-g1 b7-c7 2. g1-g2) b7-c7 2. g9-g7 *\n";
    let file = write(&dir, "bad.agn", text);
    let at_two = agon(&["show", "--record", &file, "--ply", "2"]).ok();
    assert_eq!(
        at_two.stdout,
        agon(&["show", "--moves", "h9-g9 b7-c7"]).ok().stdout
    );
    let run = agon(&["show", "--record", &file, "--ply", "3"]).code(2);
    assert!(run.stderr.contains("--ply 2"), "{}", run.stderr);
}
