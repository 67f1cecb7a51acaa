//! Lossless records: comments, NAGs, suffixes and variations are read, validated, kept,
//! written canonically and carried by JSON.

use agon_notation::{
    ErrorKind, GameRecord, Nag, Records, Suffix, Variation, MAX_ANNOTATIONS, MAX_VARIATION_DEPTH,
};

/// A transcribed game with everything a record may say besides the actions.
const ANNOTATED: &str = "[Event \"annotated\"]\n\
    {Notes before the game}\n\
    1. h9-g9!? $14 {the usual start} (1. f1-g1 {quieter} b7-c7 (1... a2-a1 $2)) \
    1... b7-c7 ; a line comment with } inside\n\
    2. g9-f9?? $4 {a blunder} ({better:} 2. g9-h8!) 2... c7-d7 *\n";

/// The canonical text of [`ANNOTATED`].
const CANONICAL: &str = "[Event \"annotated\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n\
    {Notes before the game} 1. h9-g9!? $14 {the usual start} (1. f1-g1 {quieter}\n\
    1... b7-c7 (1... a2-a1 $2)) 1... b7-c7 ; a line comment with } inside\n\
    2. g9-f9?? $4 {a blunder} ({better:} 2. g9-h8!) 2... c7-d7 *\n";

#[test]
fn annotations_are_read_into_the_record() {
    let record: GameRecord = ANNOTATED.parse().unwrap();
    assert_eq!(record.plies.len(), 4);
    let before = record.annotations.get(0);
    assert_eq!(before.comments, ["Notes before the game"]);
    let first = record.annotations.get(1);
    assert_eq!(first.suffix, Some(Suffix::Speculative));
    assert_eq!(first.nags, [Nag(14)]);
    assert_eq!(first.comments, ["the usual start"]);
    assert_eq!(first.variations.len(), 1);
    let alternative: &Variation = &first.variations[0];
    assert_eq!(alternative.plies.len(), 2);
    assert_eq!(alternative.plies[0].action.to_string(), "f1-g1");
    assert_eq!(alternative.annotations.get(1).comments, ["quieter"]);
    let nested = &alternative.annotations.get(2).variations[0];
    assert_eq!(nested.plies[0].action.to_string(), "a2-a1");
    assert_eq!(nested.annotations.get(1).nags, [Nag(2)]);
    assert_eq!(
        record.annotations.get(2).comments,
        ["a line comment with } inside"]
    );
    let third = record.annotations.get(3);
    assert_eq!(third.suffix, Some(Suffix::Blunder));
    assert_eq!(third.variations[0].annotations.get(0).comments, ["better:"]);
    assert_eq!(
        third.variations[0].annotations.get(1).suffix,
        Some(Suffix::Good)
    );
    assert_eq!(record.annotations.depth(), 2);
}

#[test]
fn the_canonical_form_keeps_everything_and_is_a_fixed_point() {
    let record: GameRecord = ANNOTATED.parse().unwrap();
    assert_eq!(record.to_string(), CANONICAL);
    let again: GameRecord = CANONICAL.parse().unwrap();
    assert_eq!(again, record);
    assert_eq!(again.to_string(), CANONICAL);
    // It still validates as a game, variations included.
    assert_eq!(again.to_game().unwrap().ply_count(), 4);
}

#[test]
fn json_carries_annotations_both_ways() {
    let record: GameRecord = ANNOTATED.parse().unwrap();
    let json = record.to_json();
    assert!(
        json.contains(r#""comments":["Notes before the game"]"#),
        "{json}"
    );
    assert!(json.contains(r#""suffix":"!?","nags":[14],"comments":["the usual start"]"#));
    assert!(json.contains(r#""variations":[{"comments":["better:"],"moves":[{"action":"g9-h8","captures":[],"suffix":"!"}]}]"#), "{json}");
    let back = GameRecord::from_json(&json).unwrap();
    assert_eq!(back, record);
    assert_eq!(back.to_json(), json);
    assert_eq!(back.to_string(), CANONICAL);
}

#[test]
fn a_record_without_annotations_prints_as_before() {
    let text = "[Result \"*\"]\n[Variant \"standard\"]\n\n1. h9-g9 b7-c7 2. g9-f9 *\n";
    let record: GameRecord = text.parse().unwrap();
    assert!(record.annotations.is_empty());
    assert_eq!(record.to_string(), text);
    assert!(!record.to_json().contains("comments"));
}

#[test]
fn annotations_added_through_the_api_round_trip() {
    let mut record: GameRecord = "1. h9-g9 b7-c7 *".parse().unwrap();
    let second = record.annotations.get_mut(2);
    second.comments.push("+0.35/6 best: d9-d8".into());
    second.nags.push(Suffix::Mistake.nag());
    // Texts the syntax cannot hold as written are printed so that they read back.
    record
        .annotations
        .get_mut(1)
        .comments
        .push("  a } brace\r ".into());
    let text = record.to_string();
    assert!(
        text.ends_with("1. h9-g9 ; a } brace\n1... b7-c7 $2 {+0.35/6 best: d9-d8} *\n"),
        "{text}"
    );
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back.annotations.get(1).comments, ["a } brace"]);
    assert_eq!(back.to_string(), text);
}

/// The first error of the only game of `text`.
fn error(text: &str) -> agon_notation::RecordError {
    Records::new(text.as_bytes())
        .next()
        .unwrap()
        .expect_err("an invalid game")
}

#[test]
fn an_illegal_action_in_a_variation_names_its_ply() {
    let e = error("1. h9-g9 b7-c7 (1... b7-c7 2. h9-h7) *");
    assert_eq!(e.kind, ErrorKind::Illegal);
    assert_eq!((e.line, e.column, e.ply), (1, 31, 3));
    assert_eq!(
        e.to_string(),
        "1:31: game 1, ply 3 (move 2, White): h9-h7 is not legal: there is no piece on h9 \
         (in a variation)"
    );
    // The variation starts from the position before the ply it replaces.
    let e = error("1. h9-g9 (1. h9-g9 b7-c7) (1... b7-c7) *");
    assert_eq!((e.kind, e.column, e.ply), (ErrorKind::MoveNumber, 28, 1));
}

#[test]
fn variation_syntax_errors_have_exact_places() {
    let e = error("(1. h9-g9) *");
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::Syntax, 1, 1));
    assert!(e.message.contains("follows none"), "{e}");
    let e = error("1. h9-g9 ) *");
    assert_eq!((e.kind, e.column), (ErrorKind::Syntax, 10));
    assert_eq!(e.message, "`)` closes no variation: no `(` is open");
    let e = error("1. h9-g9 (1. f1-g1\n\n[Event \"next\"]\n*");
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::Syntax, 1, 10));
    assert!(e
        .message
        .starts_with("the variation opened here is not closed with `)` before the game ends"));
    let e = error("1. h9-g9 $256 *");
    assert_eq!((e.kind, e.column), (ErrorKind::Syntax, 10));
    assert_eq!(e.message, "`$256` is not a NAG: a NAG is at most $255");
}

/// `depth` variations, each inside the one before, each an alternative to its first ply.
fn nested(depth: usize) -> String {
    let mut text = String::from("1. h9-g9");
    for _ in 0..depth {
        text.push_str(" (1. h9-g9");
    }
    text.push_str(&")".repeat(depth));
    text.push_str(" *\n");
    text
}

#[test]
fn variations_nest_up_to_the_limit_and_no_deeper() {
    let deepest: GameRecord = nested(MAX_VARIATION_DEPTH).parse().unwrap();
    assert_eq!(deepest.annotations.depth(), MAX_VARIATION_DEPTH);
    assert_eq!(deepest.to_string().parse::<GameRecord>().unwrap(), deepest);
    assert_eq!(GameRecord::from_json(&deepest.to_json()).unwrap(), deepest);
    let e = error(&nested(MAX_VARIATION_DEPTH + 1));
    assert_eq!(e.kind, ErrorKind::Syntax);
    let column = 9 + 10 * MAX_VARIATION_DEPTH as u64 + 1;
    assert_eq!((e.line, e.column), (1, column));
    assert!(
        e.message.starts_with("variations nest at most 16 deep"),
        "{e}"
    );
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    // 300,000 nested variations: refused at the first one too deep, in constant stack.
    let mut text = String::from("1. h9-g9 ");
    text.push_str(&"(1. h9-g9 ".repeat(300_000));
    text.push_str(" *\n\n1. h9-g9 *\n");
    let items: Vec<_> = Records::new(text.as_bytes()).collect();
    let e = items[0].as_ref().unwrap_err();
    assert_eq!(e.column, 10 + 10 * MAX_VARIATION_DEPTH as u64);
    assert!(e.message.starts_with("variations nest at most 16 deep"));
    assert!(items[1].is_ok(), "the next game is read");
    // JSON nested as deep as serde allows is an error, not an overflow.
    let mut json = String::from(r#"{"moves":[{"action":"h9-g9","variations":["#);
    for _ in 0..10_000 {
        json.push_str(r#"{"moves":[{"action":"h9-g9","variations":["#);
    }
    assert!(GameRecord::from_json(&json).is_err());
    // A JSON record deeper than the text allows is refused in the text's words.
    let deep: GameRecord = nested(MAX_VARIATION_DEPTH).parse().unwrap();
    let json = deep.to_json().replacen(
        r#"{"action":"h9-g9","captures":[]}"#,
        r#"{"action":"h9-g9","captures":[],"variations":[{"moves":[{"action":"h9-g9"}]}]}"#,
        1,
    );
    let e = GameRecord::from_json(&json).unwrap_err();
    assert!(
        matches!(
            e,
            agon_notation::JsonRecordError::Move {
                problem: agon_notation::JsonMoveProblem::TooDeep,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("variations nest at most 16 deep"),
        "{e}"
    );
}

#[test]
fn a_game_holds_a_bounded_number_of_annotations() {
    let mut text = String::from("1. h9-g9 ");
    text.push_str(&"$1 ".repeat(MAX_ANNOTATIONS + 5));
    text.push('*');
    let e = error(&text);
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.column, 10 + 3 * MAX_ANNOTATIONS as u64);
    let mut text = String::from("1. h9-g9 ");
    text.push_str(&"$1 ".repeat(MAX_ANNOTATIONS));
    text.push('*');
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.annotations.get(1).nags.len(), MAX_ANNOTATIONS);
}

#[test]
fn suffixes_in_odd_places_are_kept_as_nags() {
    let record: GameRecord = "! 1. h9-g9 ! ? *".parse().unwrap();
    assert_eq!(record.annotations.get(0).nags, [Nag(1)]);
    assert_eq!(record.annotations.get(1).suffix, Some(Suffix::Good));
    assert_eq!(record.annotations.get(1).nags, [Nag(2)]);
    assert_eq!(
        record.to_string().lines().last().unwrap(),
        "$1 1. h9-g9! $2 *"
    );
}

#[test]
fn an_invalid_variation_added_through_the_api_is_found_by_replay() {
    let mut record: GameRecord = "1. h9-g9 b7-c7 *".parse().unwrap();
    let mut wrong: GameRecord = "1. h9-g9 b7-c7 *".parse().unwrap();
    wrong.plies.remove(0);
    record.annotations.get_mut(1).variations.push(Variation {
        plies: wrong.plies,
        annotations: Default::default(),
    });
    let e = record.to_game().unwrap_err();
    assert_eq!((e.kind, e.ply), (ErrorKind::Illegal, 1));
    assert!(e.message.ends_with("(in a variation)"), "{e}");
}
