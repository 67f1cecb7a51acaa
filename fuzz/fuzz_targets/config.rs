//! agon-selfplay config files (TOML and JSON): never a panic, whatever they hold; the
//! experiments they describe are checked, not trusted.
#![no_main]

use agon_selfplay::config::Settings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = [
        toml::from_str::<Settings>(text).ok(),
        serde_json::from_str::<Settings>(text).ok(),
    ];
    for settings in parsed.into_iter().flatten() {
        let _ = settings.run_experiment();
        let _ = settings.tournament_experiment();
    }
});
