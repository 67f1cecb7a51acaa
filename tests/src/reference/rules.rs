//! The rule switches of docs/rules.md section 8, as plain data for the reference.

use agon_core::{
    CaptureMode, Intervention, Opening, QueenRelocatedBy, RelocateThrone, Relocation, Rules,
    TouchMove,
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

/// Where a captured piece goes (the `relocation` switch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefRelocation {
    /// Guards to the outer ring, the queen anywhere.
    OuterRing,
    /// One ring outward from where it was captured.
    NextRing,
    /// Back to a start cell of its side and kind.
    StartCell,
    /// Off the board; losing the queen loses the game.
    Removed,
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
    /// `relocation`.
    pub relocation: RefRelocation,
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
                relocation: RefRelocation::OuterRing,
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
            relocation: match rules.relocation() {
                Relocation::OuterRing => RefRelocation::OuterRing,
                Relocation::NextRing => RefRelocation::NextRing,
                Relocation::StartCell => RefRelocation::StartCell,
                Relocation::Removed => RefRelocation::Removed,
            },
            throne_forbidden: rules.relocate_throne() == RelocateThrone::Forbidden,
            queen_by_opponent: rules.queen_relocated_by() == QueenRelocatedBy::Opponent,
            repetition: rules.repetition().limit().map(usize::from),
            ludii: false,
        }
    }
}
