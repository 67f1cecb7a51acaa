//! `agon serve`'s JSON API, end to end over HTTP against the real binary: every ply of the
//! records it serves matches the library and `agon show`, a whole game against
//! `alphabeta:depth=3` is played and saved as a record that `agon validate` accepts, bad
//! requests get 4xx with the CLI's messages, and analyses stream and stop when their
//! client leaves.

use agon_core::agents::evaluate;
use agon_core::{Position, Rules};
use agon_notation::{parse_action, GameRecord, PositionJson, Records};
use agon_tests::cli::{agon_path, scratch};
use agon_tests::positions::game_of;
use agon_tests::serve::{data, Server};
use serde_json::{json, Value};
use std::process::Command;

/// The positions after every ply of every game of a record file, replayed by the library.
fn library_positions(path: &std::path::Path) -> Vec<Vec<Position>> {
    let bytes = std::fs::read(path).unwrap();
    Records::new(&bytes[..])
        .map(|item| {
            let game = item.expect("a valid game").game;
            (0..=game.ply_count())
                .map(|k| *game.position_before(k).unwrap())
                .collect()
        })
        .collect()
}

fn position_json(position: &Position) -> Value {
    serde_json::to_value(PositionJson::from_position(position)).unwrap()
}

#[test]
fn every_ply_of_every_served_record_matches_the_library() {
    let folder = data("records/valid");
    let server = Server::start(&[folder.to_str().unwrap()]);
    let list = server.get("/api/games").expect(200);
    let list = list.as_array().unwrap();
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "agn"))
        .collect();
    files.sort();
    let expected: Vec<(String, Vec<Position>)> = files
        .iter()
        .flat_map(|f| {
            library_positions(f)
                .into_iter()
                .map(move |p| (f.display().to_string(), p))
        })
        .collect();
    assert_eq!(list.len(), expected.len(), "one entry per game");
    let mut plies = 0;
    for (summary, (file, positions)) in list.iter().zip(&expected) {
        assert_eq!(summary["file"].as_str().unwrap(), file);
        assert_eq!(summary["valid"], true);
        let id = summary["id"].as_u64().unwrap();
        let game = server.get(&format!("/api/games/{id}")).expect(200);
        let states = game["states"].as_array().unwrap();
        assert_eq!(
            states.len(),
            positions.len(),
            "{file} game {}",
            summary["game"]
        );
        assert_eq!(game["plies"].as_array().unwrap().len(), positions.len() - 1);
        for (k, (state, position)) in states.iter().zip(positions).enumerate() {
            assert_eq!(
                state["position"],
                position_json(position),
                "{file}, ply {k}"
            );
            assert_eq!(state["ply"], k);
        }
        plies += positions.len() - 1;
    }
    assert!(plies > 100, "{plies} plies compared");
}

#[test]
fn the_served_board_matches_agon_show_at_every_ply() {
    let file = data("records/valid/standard.agn");
    let server = Server::start(&[file.to_str().unwrap()]);
    // Game 2 of the file: 51 plies with captures and relocations.
    let game = server.get("/api/games/1").expect(200);
    let states = game["states"].as_array().unwrap();
    assert_eq!(states.len(), 52);
    let kinds: Vec<&str> = game["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"relocation"), "the game has relocations");
    for (k, state) in states.iter().enumerate() {
        let output = Command::new(agon_path())
            .args(["show", "--json", "--record"])
            .arg(&file)
            .args(["--game", "2", "--ply", &k.to_string()])
            .output()
            .unwrap();
        assert!(output.status.success());
        let show: Value = serde_json::from_slice(&output.stdout).unwrap();
        for field in ["notation", "to_move", "phase", "pieces", "in_hand"] {
            assert_eq!(state["position"][field], show[field], "ply {k}, {field}");
        }
        assert_eq!(state["ply"], show["ply"]);
        assert_eq!(state["outcome"].is_null(), show["result"] == "*", "ply {k}");
    }
}

/// A small seeded generator for the test's own player.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn a_game_against_alphabeta_depth_3_is_played_to_the_end_and_saved_as_a_valid_record() {
    let dir = scratch("serve-save");
    let server = Server::start(&["--save-dir", dir.to_str().unwrap()]);
    let mut moves: Vec<String> = Vec::new();
    let mut state = server
        .post("/api/state", &json!({"game": {"moves": []}}))
        .expect(200);
    let mut rng = Lcg(42);
    let mut agent_plies = 0;
    while state["outcome"].is_null() {
        assert!(moves.len() < 2000, "the game does not end");
        let legal = state["legal"].as_array().unwrap();
        assert!(
            !legal.is_empty(),
            "a game that is not over has legal actions"
        );
        let game = json!({"rules": "standard", "moves": moves});
        let answer = if state["decider"] == "white" {
            // The person: a legal action chosen at random from the API's list.
            let action = legal[rng.below(legal.len())]["action"].as_str().unwrap();
            server
                .post("/api/play", &json!({"game": game, "action": action}))
                .expect(200)
        } else {
            agent_plies += 1;
            let answer = server
                .post(
                    "/api/agent",
                    &json!({"game": game, "agent": "alphabeta:depth=3", "seed": 7}),
                )
                .expect(200);
            assert_eq!(answer["agent"], "alphabeta:depth=3");
            answer
        };
        moves.push(answer["ply"]["action"].as_str().unwrap().to_string());
        assert_eq!(answer["state"]["ply"], moves.len());
        state = answer["state"].clone();
    }
    assert!(agent_plies > 0);
    assert_eq!(state["legal"].as_array().unwrap().len(), 0);
    let saved = server
        .post(
            "/api/save",
            &json!({
                "game": {"moves": moves},
                "tags": [["White", "test"], ["Black", "alphabeta:depth=3"]],
                "name": "vs-alphabeta",
            }),
        )
        .expect(200);
    let path = dir.join("vs-alphabeta.agn");
    assert_eq!(saved["path"].as_str().unwrap(), path.display().to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, saved["text"].as_str().unwrap());
    let validate = Command::new(agon_path())
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(validate.status.success(), "{validate:?}");
    assert_eq!(
        String::from_utf8_lossy(&validate.stdout),
        "1 game: 1 valid, 0 invalid\n"
    );
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.plies.len(), moves.len());
    assert_eq!(
        record.result.to_string(),
        state["outcome"]["result"].as_str().unwrap()
    );
    assert_eq!(record.tag("Black").as_deref(), Some("alphabeta:depth=3"));
    // Saving again under the same name is refused, unless asked to overwrite.
    let again = json!({"game": {"moves": moves}, "name": "vs-alphabeta.agn"});
    let refused = server.post("/api/save", &again);
    assert_eq!(refused.status, 409);
    assert!(refused.error().contains("exists"), "{}", refused.error());
    let mut overwrite = again.clone();
    overwrite["overwrite"] = json!(true);
    server.post("/api/save", &overwrite).expect(200);
}

#[test]
fn bad_requests_get_4xx_with_the_clis_messages_and_the_server_carries_on() {
    let dir = scratch("serve-bad");
    let server = Server::start(&["--save-dir", dir.to_str().unwrap()]);
    let post = |path: &str, body: Value| server.post(path, &body);
    // The message must start with (or, for serde's, contain) the expected text.
    let starts = |message: String, expected: &str| {
        assert!(
            message.starts_with(expected),
            "{message:?} should start with {expected:?}"
        );
    };
    // Not JSON, not sent as JSON, unknown fields, too large.
    let plain = server.raw(
        "POST",
        "/api/state",
        Some("{}"),
        &[("Content-Type", "text/plain")],
    );
    starts(
        plain.refusal(415),
        "the request body must be JSON, sent with `Content-Type: application/json`",
    );
    let cut = server.request("POST", "/api/state", Some("{\"game\": "));
    starts(cut.refusal(400), "the request body is not JSON");
    let extra = post(
        "/api/state",
        json!({"game": {"moves": []}, "colour": "red"}),
    );
    assert!(
        extra.refusal(422).contains("unknown field `colour`"),
        "{}",
        extra.body
    );
    let huge = format!("{{\"name\":\"x\",\"text\":\"{}\"}}", "a".repeat(9 << 20));
    let big = server.request("POST", "/api/open", Some(&huge));
    starts(big.refusal(413), "the request body is too large");
    // Illegal actions: the engine's words, exactly as `agon play` prints them.
    let game = game_of(&["h9-g9"]);
    for token in ["f1-f3", "h9-h10-h11"] {
        let expected = parse_action(token, game.position())
            .unwrap_err()
            .to_string();
        let r = post(
            "/api/play",
            json!({"game": {"moves": ["h9-g9"]}, "action": token}),
        );
        assert_eq!(r.refusal(422), expected);
    }
    // A game that does not replay names the action, as `--moves` does.
    let r = post("/api/state", json!({"game": {"moves": ["h9-g9", "h9-g9"]}}));
    starts(r.refusal(422), "action 2 of moves (Black to move): ");
    // Rules, positions, agents: the library's messages.
    let r = post("/api/state", json!({"game": {"rules": "capture=diagonal"}}));
    let rules_error = "capture=diagonal".parse::<Rules>().unwrap_err();
    assert_eq!(r.refusal(422), format!("rules: {rules_error}"));
    let r = post("/api/position", json!({"notation": "1g2G1/G5g w -"}));
    starts(r.refusal(422), "not a position string: column");
    let r = post("/api/agent", json!({"game": {}, "agent": "deep-blue"}));
    let agent_error = agon_core::agents::from_spec("deep-blue", 0).err().unwrap();
    assert_eq!(r.refusal(422), format!("agent: {agent_error}"));
    // Nothing follows the end of a game.
    let over = [
        "h9-g10", "b7-a6", "g10-h9", "a6-b7", "h9-g10", "b7-a6", "g10-h9", "a6-b7",
    ];
    let r = post(
        "/api/agent",
        json!({"game": {"moves": over}, "agent": "random"}),
    );
    starts(
        r.refusal(422),
        "the game is over (1/2-1/2, repetition): no action can follow",
    );
    let r = post(
        "/api/play",
        json!({"game": {"moves": over}, "action": "h9-g10"}),
    );
    starts(r.refusal(422), "the game is over");
    // Unknown games, endpoints and methods.
    starts(
        server.get("/api/games/7").refusal(404),
        "there is no game 7",
    );
    starts(
        server.get("/api/games/seven").refusal(400),
        "`seven` is not a game number",
    );
    let r = server.get("/api/nothing");
    assert_eq!(
        r.refusal(404),
        "no API endpoint /api/nothing; docs/serve.md lists them"
    );
    starts(
        server.get("/api/play").refusal(405),
        "/api/play does not take GET requests",
    );
    // Save: file names stay in the save folder.
    let r = post("/api/save", json!({"game": {}, "name": "../escape"}));
    starts(r.refusal(422), "`../escape` cannot be a record's file name");
    assert!(!dir.parent().unwrap().join("escape.agn").exists());
    // Another host name (DNS rebinding) is refused.
    let r = server.raw("GET", "/api/meta", None, &[("Host", "evil.example:1842")]);
    starts(
        r.refusal(403),
        "the host `evil.example:1842` is not this machine",
    );
    // The server is still there.
    let meta = server.get("/api/meta").expect(200);
    assert_eq!(meta["start"], agon_notation::START_POSITION);
    assert_eq!(
        meta["switches"].as_array().unwrap().len(),
        agon_core::SWITCHES.len()
    );
}

#[test]
fn analyses_stream_deeper_iterations_and_end_when_their_client_leaves() {
    // One search at a time, and a long limit: a search that outlived its client would
    // keep the second analysis waiting for minutes.
    let server = Server::start(&["--max-searches", "1", "--think-limit", "900"]);
    let mut lines = server.stream(
        "/api/analyse",
        &json!({"game": {"moves": ["h9-g9", "b7-c7"]}}),
    );
    assert_eq!(lines.status, 200);
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let line: Value = serde_json::from_str(&lines.next_line().expect("a line")).unwrap();
        if line["type"] == "iteration" {
            depths.push(line["depth"].as_u64().unwrap());
            let pv = line["pv"].as_array().unwrap();
            assert!(!pv.is_empty());
            assert_eq!(line["side"], "white");
        }
    }
    assert_eq!(depths, [1, 2, 3]);
    drop(lines);
    // The first search ends once its client is gone; this one gets the only slot.
    let mut lines = server.stream(
        "/api/analyse",
        &json!({"game": {"moves": ["h9-g9"]}, "depth": 3}),
    );
    let mut last = Value::Null;
    while let Some(line) = lines.next_line() {
        last = serde_json::from_str(&line).unwrap();
    }
    assert_eq!(last["type"], "done", "{last}");
    assert_eq!(last["reason"], "limit");
    assert_eq!(last["last"]["depth"], 3);
    let best = last["best"].as_str().unwrap();
    let game = game_of(&["h9-g9"]);
    assert!(parse_action(best, game.position()).is_ok(), "{best}");
    // Bad limits are refused before anything streams.
    let r = server.post("/api/analyse", &json!({"game": {}, "depth": 0}));
    assert_eq!(r.status, 422);
}

#[test]
fn an_agent_stops_thinking_when_its_client_leaves() {
    let server = Server::start(&["--max-searches", "1", "--think-limit", "900"]);
    // Depth 30 would take far longer than the test's patience.
    let body = json!({"game": {}, "agent": "alphabeta:depth=30"}).to_string();
    let headers = [("Content-Type", "application/json")];
    let deep = server.connect("POST", "/api/agent", Some(&body), &headers);
    std::thread::sleep(std::time::Duration::from_millis(500));
    drop(deep);
    // With one search slot, this answer needs the first search to have ended.
    let quick = server
        .post(
            "/api/agent",
            &json!({"game": {}, "agent": "random", "seed": 5}),
        )
        .expect(200);
    assert_eq!(quick["agent"], "random");
    assert_eq!(quick["state"]["ply"], 1);
}

#[test]
fn the_evaluation_terms_add_up_to_the_engines_evaluation() {
    let server = Server::start(&[]);
    let moves = ["h9-g9", "b7-c7", "g9-g8", "c7-d7"];
    let answer = server
        .post("/api/evaluate", &json!({"game": {"moves": moves}}))
        .expect(200);
    let e = &answer["evaluation"];
    let terms = e["terms"].as_array().unwrap();
    let names: Vec<&str> = terms.iter().map(|t| t["name"].as_str().unwrap()).collect();
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
    let white: i64 = terms.iter().map(|t| t["white"].as_i64().unwrap()).sum();
    let black: i64 = terms.iter().map(|t| t["black"].as_i64().unwrap()).sum();
    assert_eq!(e["score"].as_i64().unwrap(), white - black);
    let game = game_of(&moves);
    assert_eq!(
        e["score"].as_i64(),
        evaluate(game.position()).map(i64::from)
    );
}

#[test]
fn validation_from_the_page_reports_what_agon_validate_reports() {
    let file = data("records/invalid/illegal.agn");
    let name = file.display().to_string();
    let text = std::fs::read_to_string(&file).unwrap();
    let cli = Command::new(agon_path())
        .arg("validate")
        .arg(&file)
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    let answer = server_with_nothing()
        .post("/api/validate", &json!({"name": name, "text": text}))
        .expect(200);
    let mut lines: Vec<String> = answer["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    lines.push(answer["summary"].as_str().unwrap().to_string());
    assert_eq!(lines.join("\n") + "\n", cli);
    // Opened, an invalid game replays up to its first defect and carries the verdict.
    let server = Server::start(&[]);
    let opened = server
        .post("/api/open", &json!({"name": name, "text": text}))
        .expect(200);
    let count = opened.as_array().unwrap().len();
    assert_eq!(count, 9);
    let game = server.get("/api/games/0").expect(200);
    assert_eq!(game["verdict"]["ply"], 18);
    assert_eq!(game["verdict"]["token"], "f10-e9");
    assert_eq!(
        game["verdict"]["text"].as_str().unwrap(),
        cli.lines().next().unwrap()
    );
    assert_eq!(
        game["states"].as_array().unwrap().len(),
        18,
        "the 17 plies before the defect"
    );
    assert_eq!(game["verdict"]["report"]["kind"], "illegal");
    let last = server.get(&format!("/api/games/{}", count - 1)).expect(200);
    assert!(last["verdict"].is_null());
    assert!(last["record"].as_str().unwrap().contains("1. h9-g9 *"));
    let r = server.post("/api/open", &json!({"text": "   "}));
    assert_eq!(r.status, 422);
}

#[test]
fn a_records_comments_follow_their_plies_in_valid_and_invalid_games() {
    // A comment before a game's first tag or token belongs to no game (as in the reader).
    let text = "{between games}\n[Event \"notes\"]\n{in the tags}\n\n\
                {before} 1. h9-g9 {first} {and more} b7-c7 ; to the end of the line\n\
                2. g9-f9 *\n\n1. {opening} h9-g9 {good} f1-f3 {never reached} *\n\n\
                1. h9-g9 (1. h9-g9 {aside} b7-c7) {main} b7-c7 {second} 2. f1-f3 *\n";
    let server = Server::start(&[]);
    let opened = server
        .post("/api/open", &json!({"name": "notes.agn", "text": text}))
        .expect(200);
    assert_eq!(opened.as_array().unwrap().len(), 3);
    let comments = |game: &Value| -> Vec<Value> {
        game["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["comment"].clone())
            .collect()
    };
    let valid = server.get("/api/games/0").expect(200);
    assert_eq!(valid["comment"], "in the tags before");
    assert_eq!(
        comments(&valid),
        [
            json!("first and more"),
            json!("to the end of the line"),
            Value::Null
        ]
    );
    let invalid = server.get("/api/games/1").expect(200);
    assert_eq!(invalid["verdict"]["ply"], 2);
    assert_eq!(invalid["comment"], "opening");
    assert_eq!(comments(&invalid), [json!("good")]);
    // A variation's actions and comments are not the game's own: the failing action and
    // the comments are counted on the game's line.
    let varied = server.get("/api/games/2").expect(200);
    assert_eq!(varied["verdict"]["ply"], 3);
    assert_eq!(varied["verdict"]["token"], "f1-f3");
    assert_eq!(comments(&varied), [json!("main"), json!("second")]);
}

fn server_with_nothing() -> Server {
    Server::start(&[])
}

#[test]
fn the_editor_builds_positions_through_the_engine() {
    let server = Server::start(&[]);
    let start = server
        .post(
            "/api/position",
            &json!({"rules": "standard", "notation": agon_notation::START_POSITION}),
        )
        .expect(200);
    let pieces = start["pieces"].clone();
    let built = server
        .post("/api/setup", &json!({"to_move": "white", "pieces": pieces}))
        .expect(200);
    assert_eq!(built["valid"], true);
    assert_eq!(built["notation"], agon_notation::START_POSITION);
    // Without White's queen the engine lists the problem.
    let fewer: Vec<Value> = pieces
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !(p["side"] == "white" && p["kind"] == "queen"))
        .cloned()
        .collect();
    let built = server
        .post("/api/setup", &json!({"to_move": "black", "pieces": fewer}))
        .expect(200);
    assert_eq!(built["valid"], false);
    assert!(built["notation"].is_null());
    let mut setup = Position::start(Rules::STANDARD)
        .to_setup()
        .with_to_move(agon_core::Side::Black);
    setup.pieces.remove(&"f1".parse().unwrap());
    let problems: Vec<Value> = Position::from_setup(setup, Rules::STANDARD)
        .unwrap_err()
        .problems()
        .into_iter()
        .map(Value::from)
        .collect();
    assert_eq!(built["problems"], Value::from(problems));
}

#[test]
fn agon_serve_refuses_bad_command_lines_before_it_starts() {
    let run = |args: &[&str]| {
        let output = Command::new(agon_path())
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        String::from_utf8(output.stderr).unwrap()
    };
    assert_eq!(
        run(&["no-such-file.agn", "--port", "0"]),
        "agon: cannot open no-such-file.agn: no such file or directory\n"
    );
    assert!(run(&["--host", "example", "--port", "0"])
        .starts_with("agon: --host example: not an IP address\n  hint: "));
    assert!(run(&["--save-dir", "no-such-folder", "--port", "0"])
        .starts_with("agon: --save-dir no-such-folder: no such folder\n"));
    // A port in use.
    let server = Server::start(&[]);
    let port = server.address.rsplit(':').next().unwrap();
    assert!(
        run(&["--port", port]).starts_with(&format!(
            "agon: cannot listen on 127.0.0.1:{port}: another program listens there\n"
        )),
        "port {port}"
    );
}
