//! Position strings: never a panic; an accepted string formats back to a string that parses
//! to the same position.
#![no_main]

use agon_core::Rules;
use agon_notation::{format_position, parse_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in [Rules::STANDARD, Rules::LUDII] {
        if let Ok(position) = parse_position(text, rules) {
            let written = format_position(&position);
            assert_eq!(parse_position(&written, rules).ok(), Some(position));
        }
    }
});
