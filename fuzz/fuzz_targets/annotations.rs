//! Annotated records (comments, suffixes, NAGs, variations): every game the reader accepts
//! replays with its variations, its canonical form is a fixed point, and JSON carries the
//! same record both ways.
#![no_main]

use agon_notation::{GameRecord, Records, MAX_VARIATION_DEPTH};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for valid in Records::new(data).flatten() {
        let record = valid.record;
        assert!(record.annotations.depth() <= MAX_VARIATION_DEPTH);
        record.to_game().expect("an accepted game replays, variations included");
        let text = record.to_string();
        let again: GameRecord = text.parse().expect("the canonical form is valid");
        assert_eq!(again, record);
        assert_eq!(again.to_string(), text, "the canonical form is a fixed point");
        let json = record.to_json();
        let back = GameRecord::from_json(&json).expect("own JSON is valid");
        assert_eq!(back, record);
        assert_eq!(back.to_json(), json);
    }
});
