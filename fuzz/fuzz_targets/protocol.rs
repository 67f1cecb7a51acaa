//! Engine protocol lines, both directions: never a panic; an accepted line prints in
//! canonical form and parses back to the same command or message; the line reader keeps
//! its length cap.
#![no_main]

use agon_notation::protocol::{read_line, Command, EngineMessage, Line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = data;
    while let Ok(Some(line)) = read_line(&mut input, 256) {
        let Line::Text(text) = line else { continue };
        assert!(text.len() <= 256 * 3, "a capped line");
        if let Ok(command) = Command::parse(&text) {
            assert_eq!(Command::parse(&command.to_string()).ok(), Some(command));
        }
        if let Ok(message) = EngineMessage::parse(&text) {
            assert_eq!(EngineMessage::parse(&message.to_string()).ok(), Some(message));
        }
    }
});
