//! The switches that the hot paths of normal play read (capture geometry, intervention,
//! whether captured pieces flank, whether captured pieces leave the board), either from a
//! [`Rules`] value at run time or fixed at compile time.
//!
//! The rules are stated once, in [`crate::Position`]'s and [`crate::LegalActions`]'
//! functions that take a [`HotRules`] value: called with the position's [`Rules`] they are
//! the general code; called with a [`Fixed`] rule set (through [`with_fixed_rules!`]) the
//! compiler folds every switch into the code, so a loop that plays many actions under one
//! rule set (random playouts) tests none of them per action.

use crate::rules::{CaptureMode, Intervention, Relocation};
use crate::Rules;

/// The switches of a rule set that the hot paths of normal play read.
pub(crate) trait HotRules: Copy {
    /// The capture geometry.
    fn capture(self) -> CaptureMode;
    /// What happens to a piece that steps between two enemy flankers.
    fn intervention(self) -> Intervention;
    /// Whether captured pieces still flank and block "between" (the `ludii` preset; it is
    /// also the preset's forced pass and its relocations that do not interact).
    fn ludii(self) -> bool;
    /// Whether captured pieces are taken off the board (`relocation=removed`).
    fn removed(self) -> bool;

    /// Whether relocations obey the intervention rule and capture
    /// ([`Rules::relocations_interact`]: every rule set but `ludii`).
    #[inline(always)]
    fn relocations_interact(self) -> bool {
        !self.ludii()
    }

    /// Whether play avoids branches on random data at the price of instructions. Not a
    /// rule: the outcome is the same either way. No by default: an arrival's capture test
    /// starts with a quick pre-test (a flanker two cells away and an enemy piece next to
    /// it) that skips the full test in most plies, and a step updates the queens' set only
    /// when a queen steps, both branches that go either way often. Yes in the random
    /// playouts ([`BranchFree`]), where a mispredicted branch costs more than the
    /// instructions it saves.
    #[inline(always)]
    fn branch_free(self) -> bool {
        false
    }
}

/// The hot switches of `H` with every test that can be made without a data-dependent
/// branch made that way ([`HotRules::branch_free`]): the random playouts' choice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BranchFree<H>(pub(crate) H);

impl<H: HotRules> HotRules for BranchFree<H> {
    #[inline(always)]
    fn capture(self) -> CaptureMode {
        self.0.capture()
    }

    #[inline(always)]
    fn intervention(self) -> Intervention {
        self.0.intervention()
    }

    #[inline(always)]
    fn ludii(self) -> bool {
        self.0.ludii()
    }

    #[inline(always)]
    fn removed(self) -> bool {
        self.0.removed()
    }

    #[inline(always)]
    fn relocations_interact(self) -> bool {
        self.0.relocations_interact()
    }

    #[inline(always)]
    fn branch_free(self) -> bool {
        true
    }
}

impl HotRules for Rules {
    #[inline(always)]
    fn capture(self) -> CaptureMode {
        Rules::capture(&self)
    }

    #[inline(always)]
    fn intervention(self) -> Intervention {
        Rules::intervention(&self)
    }

    #[inline(always)]
    fn ludii(self) -> bool {
        self.is_ludii()
    }

    #[inline(always)]
    fn removed(self) -> bool {
        self.relocation() == Relocation::Removed
    }

    #[inline(always)]
    fn relocations_interact(self) -> bool {
        Rules::relocations_interact(&self)
    }
}

/// A rule set's hot switches as compile-time constants: `LINE` for `capture=line`,
/// `INTERVENTION` 0, 1 or 2 for `forbidden`, `suicide` or `safe`, `LUDII` for the preset,
/// `REMOVED` for `relocation=removed`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed<
    const LINE: bool,
    const INTERVENTION: u8,
    const LUDII: bool,
    const REMOVED: bool,
>;

impl<const LINE: bool, const INTERVENTION: u8, const LUDII: bool, const REMOVED: bool> HotRules
    for Fixed<LINE, INTERVENTION, LUDII, REMOVED>
{
    #[inline(always)]
    fn capture(self) -> CaptureMode {
        if LINE {
            CaptureMode::Line
        } else {
            CaptureMode::Ring
        }
    }

    #[inline(always)]
    fn intervention(self) -> Intervention {
        match INTERVENTION {
            0 => Intervention::Forbidden,
            1 => Intervention::Suicide,
            _ => Intervention::Safe,
        }
    }

    #[inline(always)]
    fn ludii(self) -> bool {
        LUDII
    }

    #[inline(always)]
    fn removed(self) -> bool {
        REMOVED
    }
}

/// The index of a rule set's hot switches among the [`Fixed`] rule sets that
/// [`with_fixed_rules!`] instantiates: `ludii` is 12; otherwise
/// `capture * 6 + intervention * 2 + removed`.
#[inline]
pub(crate) fn fixed_index(rules: Rules) -> u8 {
    if rules.is_ludii() {
        return 12;
    }
    let capture = match rules.capture() {
        CaptureMode::Line => 0,
        CaptureMode::Ring => 1,
    };
    let intervention = match rules.intervention() {
        Intervention::Forbidden => 0,
        Intervention::Suicide => 1,
        Intervention::Safe => 2,
    };
    capture * 6 + intervention * 2 + HotRules::removed(rules) as u8
}

/// Evaluates `$body` with `$fixed` bound to the [`Fixed`] value of `$rules`' hot switches
/// (one instantiation of `$body` per rule set: every switch a constant in it).
macro_rules! with_fixed_rules {
    ($rules:expr, |$fixed:ident| $body:expr) => {{
        use $crate::hot::Fixed;
        match $crate::hot::fixed_index($rules) {
            0 => {
                let $fixed = Fixed::<true, 0, false, false>;
                $body
            }
            1 => {
                let $fixed = Fixed::<true, 0, false, true>;
                $body
            }
            2 => {
                let $fixed = Fixed::<true, 1, false, false>;
                $body
            }
            3 => {
                let $fixed = Fixed::<true, 1, false, true>;
                $body
            }
            4 => {
                let $fixed = Fixed::<true, 2, false, false>;
                $body
            }
            5 => {
                let $fixed = Fixed::<true, 2, false, true>;
                $body
            }
            6 => {
                let $fixed = Fixed::<false, 0, false, false>;
                $body
            }
            7 => {
                let $fixed = Fixed::<false, 0, false, true>;
                $body
            }
            8 => {
                let $fixed = Fixed::<false, 1, false, false>;
                $body
            }
            9 => {
                let $fixed = Fixed::<false, 1, false, true>;
                $body
            }
            10 => {
                let $fixed = Fixed::<false, 2, false, false>;
                $body
            }
            11 => {
                let $fixed = Fixed::<false, 2, false, true>;
                $body
            }
            _ => {
                let $fixed = Fixed::<true, 0, true, false>;
                $body
            }
        }
    }};
}
pub(crate) use with_fixed_rules;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set's fixed switches are its own: the dispatch picks the instantiation
    /// whose constants equal the run-time values.
    #[test]
    fn fixed_rules_have_the_switches_of_their_rule_set() {
        for rules in Rules::all() {
            let fixed = with_fixed_rules!(rules, |fixed| (
                fixed.capture(),
                fixed.intervention(),
                fixed.ludii(),
                fixed.removed(),
                fixed.relocations_interact()
            ));
            let runtime = (
                HotRules::capture(rules),
                HotRules::intervention(rules),
                HotRules::ludii(rules),
                HotRules::removed(rules),
                HotRules::relocations_interact(rules),
            );
            assert_eq!(fixed, runtime, "{rules}");
        }
    }
}
