//! Rule sets: the standard rules, every switch of docs/rules.md section 8, and the `ludii` preset.

use crate::Side;
use std::fmt;
use std::str::FromStr;

/// What happens to a piece that steps or is relocated between two active enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intervention {
    /// Such an action is illegal (standard).
    Forbidden,
    /// Legal, but the arriving piece is captured after its own captures are resolved.
    Suicide,
    /// Legal, and nothing happens to the arriving piece.
    Safe,
}

/// Which triples of cells count as "between" for capture and intervention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureMode {
    /// Straight lines of three cells (standard).
    Line,
    /// Three consecutive cells of one ring (ring >= 1), so captures can turn a corner.
    Ring,
}

/// How the pieces come onto the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// The fixed start position of docs/rules.md section 2.
    Standard,
    /// Empty board; sides alternately place pieces on the outer ring, queen first.
    Placement,
    /// As `Placement`, but Black's queen goes opposite White's.
    PlacementOpposed,
}

/// A complete rule set. `Rules::default()` is the standard rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `intervention` switch.
    pub intervention: Intervention,
    /// `capture` switch.
    pub capture: CaptureMode,
    /// `opening` switch.
    pub opening: Opening,
    /// `touch-move=on`: a side may pass on any turn of normal play with no relocation due.
    pub touch_move: bool,
    /// `relocate-throne=forbidden` makes this false: a relocated queen may not go on the throne.
    pub relocate_to_throne: bool,
    /// `queen-relocated-by=opponent` makes this true: the opponent chooses where a captured
    /// queen is relocated.
    pub queen_relocated_by_opponent: bool,
    /// `repetition`: the number of occurrences that draws (`None` = `off`).
    pub repetition: Option<u8>,
    /// The `ludii` preset (cannot be combined with the switches above).
    ludii: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

/// The names of the switches, in canonical order, with their valid values (default first).
pub const SWITCHES: [(&str, &str); 7] = [
    ("intervention", "forbidden, suicide, safe"),
    ("capture", "line, ring"),
    ("opening", "standard, placement, placement-opposed"),
    ("touch-move", "off, on"),
    ("relocate-throne", "allowed, forbidden"),
    ("queen-relocated-by", "owner, opponent"),
    ("repetition", "3, any whole number from 2 to 255, off"),
];

impl Rules {
    /// The standard rules.
    pub const STANDARD: Rules = Rules {
        intervention: Intervention::Forbidden,
        capture: CaptureMode::Line,
        opening: Opening::Standard,
        touch_move: false,
        relocate_to_throne: true,
        queen_relocated_by_opponent: false,
        repetition: Some(3),
        ludii: false,
    };

    /// The `ludii` preset: the rules of Ludii's Agon (docs/rules.md section 8).
    pub const LUDII: Rules = Rules {
        repetition: None,
        ludii: true,
        ..Rules::STANDARD
    };

    /// Whether this is the `ludii` preset.
    #[inline]
    pub const fn is_ludii(&self) -> bool {
        self.ludii
    }

    /// Whether a side with no legal action makes a forced pass (ludii) instead of losing.
    #[inline]
    pub const fn forced_pass(&self) -> bool {
        self.ludii
    }

    /// Whether relocations obey the intervention rule and capture (false under ludii).
    #[inline]
    pub const fn relocations_interact(&self) -> bool {
        !self.ludii
    }

    /// Whether captured pieces still flank and block "between" (true under ludii).
    #[inline]
    pub const fn captured_pieces_flank(&self) -> bool {
        self.ludii
    }

    /// Whether the game starts with placements.
    #[inline]
    pub const fn has_placement(&self) -> bool {
        !matches!(self.opening, Opening::Standard)
    }

    /// Who chooses where a captured queen of `owner` is relocated.
    #[inline]
    pub const fn queen_chooser(&self, owner: Side) -> Side {
        if self.queen_relocated_by_opponent {
            match owner {
                Side::White => Side::Black,
                Side::Black => Side::White,
            }
        } else {
            owner
        }
    }

    /// The canonical name: non-default switches in canonical order, or `standard`/`ludii`.
    pub fn name(&self) -> String {
        self.to_string()
    }

    /// The standard rules plus every single-switch variant (each non-default value of each
    /// switch; `repetition` contributes `off` and `5`), in canonical order.
    pub fn single_switch_variants() -> Vec<Rules> {
        let s = Rules::STANDARD;
        vec![
            s,
            Rules {
                intervention: Intervention::Suicide,
                ..s
            },
            Rules {
                intervention: Intervention::Safe,
                ..s
            },
            Rules {
                capture: CaptureMode::Ring,
                ..s
            },
            Rules {
                opening: Opening::Placement,
                ..s
            },
            Rules {
                opening: Opening::PlacementOpposed,
                ..s
            },
            Rules {
                touch_move: true,
                ..s
            },
            Rules {
                relocate_to_throne: false,
                ..s
            },
            Rules {
                queen_relocated_by_opponent: true,
                ..s
            },
            Rules {
                repetition: Some(5),
                ..s
            },
            Rules {
                repetition: None,
                ..s
            },
        ]
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ludii {
            return f.write_str("ludii");
        }
        let mut parts: Vec<String> = Vec::new();
        match self.intervention {
            Intervention::Forbidden => {}
            Intervention::Suicide => parts.push("intervention=suicide".into()),
            Intervention::Safe => parts.push("intervention=safe".into()),
        }
        if self.capture == CaptureMode::Ring {
            parts.push("capture=ring".into());
        }
        match self.opening {
            Opening::Standard => {}
            Opening::Placement => parts.push("opening=placement".into()),
            Opening::PlacementOpposed => parts.push("opening=placement-opposed".into()),
        }
        if self.touch_move {
            parts.push("touch-move=on".into());
        }
        if !self.relocate_to_throne {
            parts.push("relocate-throne=forbidden".into());
        }
        if self.queen_relocated_by_opponent {
            parts.push("queen-relocated-by=opponent".into());
        }
        match self.repetition {
            Some(3) => {}
            Some(n) => parts.push(format!("repetition={n}")),
            None => parts.push("repetition=off".into()),
        }
        if parts.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

/// Why a text is not a rule-set name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesError {
    /// The whole text that was parsed.
    pub text: String,
    /// What was wrong, with the valid choices.
    pub message: String,
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a rule set: {}", self.text, self.message)
    }
}

impl std::error::Error for ParseRulesError {}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Parses `standard`, `ludii`, or comma-separated `switch=value` pairs in any order
    /// (each switch at most once; default values are accepted and dropped from the
    /// canonical name).
    fn from_str(text: &str) -> Result<Rules, ParseRulesError> {
        let error = |message: String| ParseRulesError {
            text: text.to_string(),
            message,
        };
        let trimmed = text.trim();
        if trimmed == "standard" {
            return Ok(Rules::STANDARD);
        }
        if trimmed == "ludii" {
            return Ok(Rules::LUDII);
        }
        if trimmed.is_empty() {
            return Err(error(
                "empty name; use `standard`, `ludii`, or switch=value pairs".into(),
            ));
        }
        let mut rules = Rules::STANDARD;
        let mut seen = [false; SWITCHES.len()];
        for part in trimmed.split(',') {
            let part = part.trim();
            if part == "ludii" || part == "standard" {
                return Err(error(format!(
                    "`{part}` is a whole rule set and cannot be combined with switches"
                )));
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(error(format!(
                    "`{part}` is not switch=value; switches: {}",
                    switch_list()
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            let Some(slot) = SWITCHES.iter().position(|(name, _)| *name == key) else {
                return Err(error(format!(
                    "unknown switch `{key}`; switches: {}",
                    switch_list()
                )));
            };
            if seen[slot] {
                return Err(error(format!("switch `{key}` is given twice")));
            }
            seen[slot] = true;
            let bad_value = || {
                error(format!(
                    "`{value}` is not a value of `{key}`; valid: {}",
                    SWITCHES[slot].1
                ))
            };
            match key {
                "intervention" => {
                    rules.intervention = match value {
                        "forbidden" => Intervention::Forbidden,
                        "suicide" => Intervention::Suicide,
                        "safe" => Intervention::Safe,
                        _ => return Err(bad_value()),
                    }
                }
                "capture" => {
                    rules.capture = match value {
                        "line" => CaptureMode::Line,
                        "ring" => CaptureMode::Ring,
                        _ => return Err(bad_value()),
                    }
                }
                "opening" => {
                    rules.opening = match value {
                        "standard" => Opening::Standard,
                        "placement" => Opening::Placement,
                        "placement-opposed" => Opening::PlacementOpposed,
                        _ => return Err(bad_value()),
                    }
                }
                "touch-move" => {
                    rules.touch_move = match value {
                        "off" => false,
                        "on" => true,
                        _ => return Err(bad_value()),
                    }
                }
                "relocate-throne" => {
                    rules.relocate_to_throne = match value {
                        "allowed" => true,
                        "forbidden" => false,
                        _ => return Err(bad_value()),
                    }
                }
                "queen-relocated-by" => {
                    rules.queen_relocated_by_opponent = match value {
                        "owner" => false,
                        "opponent" => true,
                        _ => return Err(bad_value()),
                    }
                }
                _ => {
                    rules.repetition = match value {
                        "off" => None,
                        n => match n.parse::<u8>() {
                            Ok(count) if count >= 2 && !n.starts_with(['0', '+']) => Some(count),
                            _ => return Err(bad_value()),
                        },
                    }
                }
            }
        }
        Ok(rules)
    }
}

fn switch_list() -> String {
    SWITCHES
        .iter()
        .map(|(name, values)| format!("{name} ({values})"))
        .collect::<Vec<_>>()
        .join("; ")
        + "; or the whole rule sets `standard` and `ludii`"
}

impl serde::Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
