//! Game records: the validating reader never panics, and every game it accepts prints in
//! canonical form and reads back to the same record.
#![no_main]

use agon_notation::{GameRecord, Records};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for item in Records::new(data) {
        match item {
            Ok(valid) => {
                let text = valid.record.to_string();
                let again: GameRecord = text.parse().expect("the canonical form is valid");
                assert_eq!(again, valid.record);
            }
            Err(error) => assert!(error.game > 0),
        }
    }
});
