//! JSON games and positions: never a panic; an accepted game round-trips through JSON and
//! through its canonical record.
#![no_main]

use agon_notation::{GameRecord, PositionJson};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = GameRecord::from_json(text) {
        let again = GameRecord::from_json(&record.to_json()).expect("own JSON is valid");
        assert_eq!(again, record);
        let parsed: GameRecord = record.to_string().parse().expect("canonical record");
        assert_eq!(parsed, record);
    }
    if let Ok(position) = serde_json::from_str::<PositionJson>(text) {
        position.to_position().expect("a checked position");
    }
});
