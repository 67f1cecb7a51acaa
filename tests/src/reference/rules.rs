//! The rule switches of docs/rules.md section 8, as plain data for the reference.

use agon_core::{
    CaptureMode, Intervention, Opening, QueenRelocatedBy, RelocateThrone, Rules, TouchMove,
};

/// What happens when a piece arrives between two active enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefIntervention {
    /// The action is illegal.
    Forbidden,
    /// Legal; the arrived piece is captured after its own captures.
    Suicide,
    /// Legal; nothing happens.
    Safe,
}

/// A rule set, read once from the engine's public [`Rules`] getters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    /// `intervention`.
    pub intervention: RefIntervention,
    /// `capture=ring`.
    pub ring_capture: bool,
    /// `opening=placement` or `opening=placement-opposed`.
    pub placement: bool,
    /// `opening=placement-opposed`.
    pub opposed: bool,
    /// `touch-move=on`.
    pub touch_move: bool,
    /// `relocate-throne=forbidden`.
    pub throne_forbidden: bool,
    /// `queen-relocated-by=opponent`.
    pub queen_by_opponent: bool,
    /// `repetition`: occurrences that draw, `None` for `off`.
    pub repetition: Option<usize>,
    /// The `ludii` preset.
    pub ludii: bool,
}

impl RefRules {
    /// The switches of an engine rule set (the `ludii` preset is the standard rules plus
    /// its own differences, which the reference implements from docs/rules.md).
    pub fn from_engine(rules: Rules) -> RefRules {
        if rules.is_ludii() {
            return RefRules {
                intervention: RefIntervention::Forbidden,
                ring_capture: false,
                placement: false,
                opposed: false,
                touch_move: false,
                throne_forbidden: false,
                queen_by_opponent: false,
                repetition: None,
                ludii: true,
            };
        }
        RefRules {
            intervention: match rules.intervention() {
                Intervention::Forbidden => RefIntervention::Forbidden,
                Intervention::Suicide => RefIntervention::Suicide,
                Intervention::Safe => RefIntervention::Safe,
            },
            ring_capture: rules.capture() == CaptureMode::Ring,
            placement: rules.opening() != Opening::Standard,
            opposed: rules.opening() == Opening::PlacementOpposed,
            touch_move: rules.touch_move() == TouchMove::On,
            throne_forbidden: rules.relocate_throne() == RelocateThrone::Forbidden,
            queen_by_opponent: rules.queen_relocated_by() == QueenRelocatedBy::Opponent,
            repetition: rules.repetition().limit().map(usize::from),
            ludii: false,
        }
    }
}
