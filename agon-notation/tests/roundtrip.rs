//! Round-trip properties over random games in every rule set: text, JSON, position strings
//! and the streaming reader all give back exactly what was written.

use agon_core::{random_playout, Game, GameResult, Phase, Position, Rng, Rules, Termination};
use agon_notation::{
    format_position, parse_position, GameRecord, PositionJson, Records, ValidGame,
};

/// Every rule set the tests cover: each single switch and the ludii preset.
fn all_rules() -> Vec<Rules> {
    let mut rules = Rules::single_switch_variants();
    rules.push(Rules::LUDII);
    rules
}

/// A random game: sometimes from a random mid-game start, played to a random ply limit
/// (so some end by the rules, some are stopped), with a random way of stopping.
fn random_record(rules: Rules, rng: &mut Rng) -> (Game, GameRecord) {
    let mut game = Game::new(rules);
    if rng.below(4) == 0 {
        // A non-standard start: a position reached by random play.
        let mut prefix = Game::new(rules);
        let plies = 1 + rng.below(60);
        random_playout(&mut prefix, rng, plies);
        if !prefix.is_over() {
            // Under ludii the start may carry a pending pass (position field 4).
            game = Game::from_position(*prefix.position());
        }
    }
    let limit = game.ply_count() + 1 + rng.below(400);
    random_playout(&mut game, rng, limit);
    let mut record = GameRecord::from_game(&game, &[("Event", "roundtrip"), ("Round", "1")]);
    if record.termination == Some(Termination::MoveLimit) {
        // Some stopped games are recorded differently.
        let (result, termination) = match rng.below(5) {
            0 => (GameResult::WhiteWins, Some(Termination::Resignation)),
            1 => (GameResult::BlackWins, Some(Termination::TimeForfeit)),
            2 => (GameResult::Draw, Some(Termination::Agreement)),
            3 => (GameResult::Unfinished, None),
            _ => (GameResult::Draw, Some(Termination::MoveLimit)),
        };
        record.result = result;
        record.termination = termination;
    }
    (game, record)
}

fn check_record(game: &Game, record: &GameRecord) {
    let text = record.to_string();
    let parsed: GameRecord = text.parse().unwrap_or_else(|e| panic!("{e}\nin\n{text}"));
    assert_eq!(&parsed, record, "parse(print(record)) in\n{text}");
    assert_eq!(parsed.to_string(), text, "print(parse(print(record)))");
    let replayed = record
        .to_game()
        .unwrap_or_else(|e| panic!("{e}\nin\n{text}"));
    assert_eq!(replayed.position(), game.position());
    assert_eq!(replayed.plies(), game.plies());
    let json = record.to_json();
    let from_json = GameRecord::from_json(&json).unwrap_or_else(|e| panic!("{e}\nin\n{json}"));
    assert_eq!(&from_json, record);
    assert_eq!(from_json.to_json(), json);
}

fn check_position(position: &Position) {
    let text = format_position(position);
    let parsed =
        parse_position(&text, position.rules()).unwrap_or_else(|e| panic!("{e} in `{text}`"));
    assert_eq!(&parsed, position, "{text}");
    assert_eq!(
        parsed.passes(),
        if position.rules().forced_pass() {
            position.passes()
        } else {
            0
        }
    );
    assert_eq!(format_position(&parsed), text);
    let json = serde_json::to_string(&PositionJson::from_position(position)).unwrap();
    let back: PositionJson = serde_json::from_str(&json).unwrap();
    assert_eq!(&back.to_position().unwrap(), position);
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
}

/// Games per rule set: 250 (20 in a debug build), or `AGON_ROUNDTRIP_GAMES` for a long run:
/// `AGON_ROUNDTRIP_GAMES=2000 cargo test -p agon-notation --release --test roundtrip`.
fn games_per_rules() -> u64 {
    std::env::var("AGON_ROUNDTRIP_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 20 } else { 250 })
}

#[test]
fn random_games_round_trip_in_every_rule_set() {
    let games_per_rules = games_per_rules();
    for (r, rules) in all_rules().into_iter().enumerate() {
        let mut seen = [false; 3];
        let mut captures = 0;
        let mut passes = 0;
        for i in 0..games_per_rules {
            let mut rng = Rng::for_stream(2024 + r as u64, i);
            let (game, record) = random_record(rules, &mut rng);
            check_record(&game, &record);
            for (index, ply) in game.plies().iter().enumerate() {
                let before = game.position_before(index).expect("position before ply");
                seen[match before.phase() {
                    Phase::Placement => 0,
                    Phase::Relocation => 1,
                    Phase::Normal => 2,
                }] = true;
                captures += ply.captures.count();
                passes += usize::from(ply.action == agon_core::Action::Pass);
                if index % 7 == 0 {
                    check_position(before);
                }
            }
            check_position(game.position());
        }
        assert!(
            captures > 0,
            "{rules}: no capture in {games_per_rules} games"
        );
        // Under relocation=removed captured pieces leave the board: nothing to relocate.
        let relocates = rules.relocation() != agon_core::Relocation::Removed;
        assert_eq!(seen[1], relocates, "{rules}: relocations");
        assert_eq!(seen[0], rules.has_placement(), "{rules}: placements");
        if rules.touch_move() == agon_core::TouchMove::On {
            assert!(passes > 0, "{rules}: touch-move games pass");
        } else if !rules.is_ludii() {
            assert_eq!(passes, 0, "{rules}: no pass without touch-move or ludii");
        }
    }
}

#[test]
fn a_stream_of_random_games_reads_back_game_by_game() {
    let mut text = String::new();
    let mut records = Vec::new();
    for (r, rules) in all_rules().into_iter().enumerate() {
        for i in 0..20 {
            let mut rng = Rng::for_stream(99 + r as u64, i);
            let (_, record) = random_record(rules, &mut rng);
            text.push_str(&record.to_string());
            text.push('\n');
            records.push(record);
        }
    }
    // CRLF line ends must read the same.
    let crlf = text.replace('\n', "\r\n");
    for input in [text, crlf] {
        let read: Vec<ValidGame> = Records::new(input.as_bytes())
            .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        assert_eq!(read.len(), records.len());
        for (index, (game, record)) in read.iter().zip(&records).enumerate() {
            assert_eq!(game.index, index as u64 + 1);
            assert_eq!(&game.record, record);
        }
    }
}
