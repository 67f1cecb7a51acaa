//! The hand-written corpus in tests/data/records: every valid record reads, replays and
//! prints canonically; every invalid record fails with exactly the expected error (kind,
//! file, line, column, game, ply and message), and the reader goes on to the next game.

use agon_notation::{GameRecord, Records};
use std::path::PathBuf;

fn corpus(part: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/records")
        .join(part)
}

/// Reads a corpus file; one line per game: `ok` or `kind error`.
fn outcomes(part: &str) -> Vec<String> {
    let file = std::fs::File::open(corpus(part)).expect("corpus file");
    let name = part.rsplit('/').next().unwrap_or(part);
    Records::new(std::io::BufReader::new(file))
        .with_file_name(name)
        .map(|game| match game {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{} {e}", e.kind),
        })
        .collect()
}

fn records(part: &str) -> Vec<GameRecord> {
    let file = std::fs::File::open(corpus(part)).expect("corpus file");
    Records::new(file)
        .map(|game| game.unwrap_or_else(|e| panic!("{e}")).record)
        .collect()
}

fn canonical(records: &[GameRecord]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

#[test]
fn valid_records_read_replay_and_round_trip() {
    let mut games = 0;
    for entry in std::fs::read_dir(corpus("valid")).expect("valid dir") {
        let path = entry.expect("entry").path();
        let part = format!("valid/{}", path.file_name().unwrap().to_string_lossy());
        for record in records(&part) {
            let game = record.to_game().unwrap_or_else(|e| panic!("{part}: {e}"));
            assert_eq!(game.ply_count(), record.plies.len());
            let text = record.to_string();
            assert_eq!(text.parse::<GameRecord>().unwrap(), record, "{part}");
            let json = record.to_json();
            assert_eq!(GameRecord::from_json(&json).unwrap(), record, "{part}");
            games += 1;
        }
    }
    assert_eq!(games, 4 + 1 + 11 + 5 + 2 + 6);
}

#[test]
fn canonical_files_are_what_the_writer_writes() {
    for part in ["valid/standard.agn", "valid/variants.agn"] {
        let text = std::fs::read_to_string(corpus(part)).unwrap();
        assert_eq!(canonical(&records(part)), text, "{part}");
    }
}

#[test]
fn hand_written_records_mean_the_canonical_games() {
    let standard = records("valid/standard.agn");
    let hand = records("valid/hand-written.agn");
    assert_eq!(hand.len(), 4);
    for (hand, index) in hand.iter().zip([0, 2, 3, 4]) {
        let mut bare = hand.clone();
        bare.annotations = Default::default();
        assert_eq!(&bare, &standard[index], "game {}", index + 1);
    }
    // What was written besides the actions is kept, in the canonical form.
    let comments: Vec<String> = hand[0].comments().into_iter().map(|c| c.text).collect();
    assert_eq!(
        comments,
        [
            "The opening",
            "White's guard on b1 stands\nbetween d1 and c1...",
            "the capture, written without annotation",
            "relocated"
        ]
    );
    assert!(hand[0]
        .to_string()
        .contains("2. f1-g1! a2-a1?! 3. g9-f10 $1 l2-l3"));
    let crlf = records("valid/crlf-bom.agn");
    assert_eq!(crlf, &standard[1..2]);
}

#[test]
fn invalid_records_fail_with_the_expected_errors() {
    let expected: &[(&str, &[&str])] = &[
        (
            "annotations.agn",
            &[
                "captures annotations.agn:4:70: game 1, ply 29 (move 15, White): the capture xh2 is missing from the annotation; g1-g2 captures 2 pieces (written g1-g2xf3xh2)",
                "captures annotations.agn:7:10: game 2, ply 2 (move 1, Black): xg9 is annotated but h1-g2 does not capture it; h1-g2 captures nothing (written h1-g2)",
                "captures annotations.agn:11:27: game 3, ply 14 (move 7, Black): the capture xb1 is annotated twice; d1-c1 captures 1 piece (written d1-c1xb1)",
                "captures annotations.agn:15:27: game 4, ply 14 (move 7, Black): xc2 is annotated but d1-c1 does not capture it; d1-c1 captures 1 piece (written d1-c1xb1)",
                "action annotations.agn:18:10: game 5, ply 2 (move 1, Black): `h1-g2xj2` is not an action: `xj2` is not a capture annotation: `j2` is not a cell: files are a b c d e f g h i k l (there is no j); expected `x` and a cell, like `xd1`",
            ],
        ),
        (
            "encoding.agn",
            &[
                "encoding encoding.agn:2:14: game 1, ply 2 (move 1, Black): byte 0xE9 is not valid UTF-8 (records are UTF-8 text)",
                "encoding encoding.agn:4:27: game 2: byte 0xFF is not valid UTF-8 (records are UTF-8 text)",
                "ok",
                "encoding encoding.agn:12:10: game 4, ply 2 (move 1, Black): byte 0x80 is not valid UTF-8 (records are UTF-8 text)",
                "syntax encoding.agn:15:10: game 5, ply 2 (move 1, Black): unexpected `é`: outside comments and tag values a record is ASCII",
                "encoding encoding.agn:18:11: game 6, ply 2 (move 1, Black): byte 0xE2 is not valid UTF-8 (records are UTF-8 text)",
                "syntax encoding.agn:21:10: game 7, ply 2 (move 1, Black): unexpected character 0x00: expected an action, a move number, a comment, a NAG or a result",
                "ok",
            ],
        ),
        (
            "illegal.agn",
            &[
                "illegal illegal.agn:3:60: game 1, ply 18 (move 9, Black): f10-e9 is not legal: e9 lies between two White pieces",
                "illegal illegal.agn:6:19: game 2, ply 3 (move 2, White): g9-h9 is not legal: pieces never step outward (g9 is on ring 4, h9 on ring 5)",
                "illegal illegal.agn:10:39: game 3, ply 15 (move 8, White): g9-f9 is not legal: a relocation is due: White's captured guard on b1 must be relocated first",
                "illegal illegal.agn:13:4: game 4, ply 1 (move 1, White): h1-g2 is not legal: the piece on h1 belongs to the opponent",
                "after-end illegal.agn:16:68: game 5, ply 9 (move 5, White): h9-g10 comes after the end of the game: the rules ended it after ply 8 by repetition (1/2-1/2)",
                "illegal illegal.agn:21:23: game 6, ply 4 (move 2, Black): b7-b6 is not legal: the placement opening is not finished: Black must place its guard (like `G@a1`)",
                "illegal illegal.agn:24:4: game 7, ply 1 (move 1, White): pass is not legal: passing is only allowed with touch-move=on, on a turn with no relocation due",
                "illegal illegal.agn:28:28: game 8, ply 4 (move 2, Black): k7-i8 is not legal: a relocation is due: Black's captured guard on c7 must be relocated first",
                "ok",
            ],
        ),
        (
            "results.agn",
            &[
                "result results.agn:4:10: game 1: the rules ended the game after ply 1 by formation (White wins), so the result must be 1-0, not *",
                "result results.agn:10:10: game 2: the result token 1-0 does not match the Result tag \"0-1\"",
                "result results.agn:13:10: game 3: the rules have not ended the game after ply 1, so the result 0-1 needs [Termination \"resignation\"] or [Termination \"time-forfeit\"] (or the result `*`)",
                "result results.agn:18:10: game 4: a game stopped by resignation ends 1-0 or 0-1, not 1/2-1/2",
                "termination results.agn:21:15: game 5: the Termination tag: `checkmate` is not a termination; expected one of formation, six-guards, queen-captured, no-moves, repetition, double-pass, move-limit, resignation, time-forfeit, agreement, illegal-move, crash, timeout, adjudication",
                "termination results.agn:26:15: game 6: the Termination tag says `formation`, but the rules have not ended the game after ply 1",
                "result results.agn:31:10: game 7: the Result tag: `1-1` is not a result; expected 1-0, 0-1, 1/2-1/2 or *",
                "termination results.agn:36:15: game 8: the rules ended the game after ply 8 by repetition (drawn), but the Termination tag says `agreement`",
                "termination results.agn:41:15: game 9: the Termination tag says `agreement`, but the result is `*` (unfinished)",
                "result results.agn:49:13: game 10: the rules ended the game after ply 1 by queen-captured (White wins), so the result must be 1-0, not *",
            ],
        ),
        (
            "syntax.agn",
            &[
                "syntax syntax.agn:2:10: game 1, ply 2 (move 1, Black): unexpected `#`: expected an action, a move number, a comment, a NAG or a result",
                "syntax syntax.agn:5:10: game 2, ply 3 (move 2, White): the variation opened here is not closed with `)` before the result (in a variation)",
                "move-number syntax.agn:8:16: game 3, ply 3 (move 2, White): move number `3.` does not fit: ply 3 is move 2 (White to move)",
                "move-number syntax.agn:11:16: game 4, ply 3 (move 2, White): `2...` marks a Black action, but White is to move at ply 3 (write `2.`)",
                "syntax syntax.agn:14:1: game 5, ply 1 (move 1, White): a move number is followed by `.` (White) or `...` (Black), not 2 dots",
                "action syntax.agn:17:4: game 6, ply 1 (move 1, White): `h9-g9+` is not an action: `g9+` is not a cell: a rank is a number from 1 to 11",
                "syntax syntax.agn:20:10: game 7, ply 2 (move 1, Black): a move suffix is one of !, ?, !!, ??, !?, ?!",
                "syntax syntax.agn:23:10: game 8, ply 2 (move 1, Black): `$` starts a NAG like `$1`; expected digits",
                "syntax syntax.agn:26:10: game 9, ply 2 (move 1, Black): `2-0` is neither a move number (`12.`, `12...`) nor a result (1-0, 0-1, 1/2-1/2, *)",
                "syntax syntax.agn:29:10: game 10, ply 2 (move 1, Black): the comment opened here is not closed with `}` before the tag 2 lines below",
                "syntax syntax.agn:32:10: game 11, ply 2 (move 1, Black): a token longer than 64 characters",
                "syntax syntax.agn:35:10: game 12, ply 2 (move 1, Black): unexpected `}`: expected an action, a move number, a comment, a NAG or a result",
                "action syntax.agn:38:10: game 13, ply 2 (move 1, Black): `resign` is not an action: expected a step `b1-c1`, a relocation `d9@a5`, a placement `Q@f1`/`G@b1` or `pass`",
                "ok",
            ],
        ),
        (
            "tags.agn",
            &[
                "variant tags.agn:2:11: game 1: `intervention=maybe` is not a rule set: `maybe` is not a value of `intervention`; valid: forbidden, suicide, safe",
                "position tags.agn:7:57: game 2: the Position tag is not a position: White has 2 queens on the board and 0 in hand; expected 1 in all",
                "position tags.agn:12:32: game 3: the Position tag is not a position: White has 7 guards on the board and 0 in hand; expected 6 in all; a guard on the throne f6: only a queen may stand there",
                "position tags.agn:17:54: game 4: the Position tag is not a position: unknown side `x`: expected `w` or `b`",
                "position tags.agn:22:15: game 5: the Position tag is not a position: file a has 6 cells (a1 to a6); this piece would be off the board",
                "position tags.agn:27:55: game 6: the Position tag is not a position: White has 0 queens on the board and 0 in hand; expected 1 in all",
                "position tags.agn:33:56: game 7: the Position tag is not a position: Black has 6 guards on the board and 1 in hand; expected 6 in all; pieces in hand need a placement opening, but the rules are `standard`",
                "tag tags.agn:38:1: game 8: the tag `Event` is given twice",
                "tag tags.agn:42:19: game 9: expected `]` to close the tag, found `n`",
                "tag tags.agn:46:18: game 10: the tag value is not closed with `\"` on its line",
                "ok",
            ],
        ),
    ];
    let mut files = 0;
    for (part, games) in expected {
        assert_eq!(outcomes(&format!("invalid/{part}")), *games, "{part}");
        files += 1;
    }
    assert_eq!(files, std::fs::read_dir(corpus("invalid")).unwrap().count());
}
