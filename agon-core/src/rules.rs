//! Rule sets: the standard rules, every switch of docs/rules.md section 8, and the `ludii`
//! preset.
//!
//! A [`Rules`] value cannot be misstated: its fields are private, every switch is a closed
//! type ([`Intervention`], [`CaptureMode`], ...), and a rule set is changed only through
//! its `with_*` builders, which refuse what the rule book refuses (switches on the `ludii`
//! preset, and the combinations of section 8 that would change nothing or need what the
//! game lacks, such as `relocation=start-cell` with a placement opening). One table, `rule_switches!` below, lists the switches: the struct, the
//! builders and getters, [`SWITCHES`], the canonical name, parsing and
//! [`Rules::single_switch_variants`] are all generated from it, so adding a switch is one
//! line there plus the switch's own type.

use crate::Side;
use std::fmt;
use std::str::FromStr;

/// One switch of docs/rules.md section 8: a named setting with a default value.
///
/// Implemented by [`Intervention`], [`CaptureMode`], [`Opening`], [`TouchMove`],
/// [`Relocation`], [`RelocateThrone`], [`QueenRelocatedBy`] and [`Repetition`]. Each parses from and
/// prints as the value's name in a rule-set name (`suicide`, `on`, `5`, ...).
pub trait Switch:
    Copy + Eq + fmt::Debug + fmt::Display + FromStr<Err = RulesError> + 'static
{
    /// The switch's name in a rule-set name: `intervention`, `touch-move`, ...
    const NAME: &'static str;
    /// The valid values in words, default first, as messages and help list them.
    const VALUES: &'static [&'static str];
    /// The standard rules' value (never written in a canonical name).
    const DEFAULT: Self;
    /// Every value, the default first.
    fn all() -> &'static [Self];
    /// The non-default values that [`Rules::single_switch_variants`] lists: every one,
    /// except for `repetition` (`5` and `off` stand for its 254 other values).
    fn variant_values() -> &'static [Self];
}

/// Declares a switch whose values are a closed list of names: the enum, its `ALL` list
/// (default first), `name()`, `Display`, `FromStr`, `Default` and [`Switch`].
macro_rules! switch_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident: $key:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, the default first.
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];

            /// The value's name in a rule-set name.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl Default for $name {
            fn default() -> $name {
                $name::ALL[0]
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = RulesError;

            fn from_str(text: &str) -> Result<$name, RulesError> {
                $name::ALL
                    .into_iter()
                    .find(|value| value.name() == text)
                    .ok_or_else(|| RulesError::BadValue {
                        switch: $key,
                        value: text.to_string(),
                    })
            }
        }

        impl Switch for $name {
            const NAME: &'static str = $key;
            const VALUES: &'static [&'static str] = &[$($text),+];
            const DEFAULT: $name = $name::ALL[0];

            fn all() -> &'static [$name] {
                &$name::ALL
            }

            fn variant_values() -> &'static [$name] {
                &$name::ALL[1..]
            }
        }
    };
}

switch_enum! {
    /// `intervention`: what happens to a piece that steps or is relocated between two
    /// active enemy pieces.
    pub enum Intervention: "intervention" {
        /// Such an action is illegal (standard).
        Forbidden = "forbidden",
        /// Legal, but the arriving piece is captured after its own captures are resolved.
        Suicide = "suicide",
        /// Legal, and nothing happens to the arriving piece.
        Safe = "safe",
    }
}

switch_enum! {
    /// `capture`: which triples of cells count as "between" for capture and intervention.
    pub enum CaptureMode: "capture" {
        /// Straight lines of three cells (standard).
        Line = "line",
        /// Three consecutive cells of one ring (ring >= 1), so captures can turn a corner.
        Ring = "ring",
    }
}

switch_enum! {
    /// `opening`: how the pieces come onto the board.
    pub enum Opening: "opening" {
        /// The fixed start position of docs/rules.md section 2.
        Standard = "standard",
        /// Empty board; sides alternately place pieces on the outer ring, queen first.
        Placement = "placement",
        /// As `Placement`, but Black's queen goes opposite White's.
        PlacementOpposed = "placement-opposed",
    }
}

switch_enum! {
    /// `touch-move`: whether a side may pass on a turn of normal play with no relocation
    /// due.
    pub enum TouchMove: "touch-move" {
        /// No passing (standard).
        Off = "off",
        /// A side may pass instead of stepping.
        On = "on",
    }
}

switch_enum! {
    /// `relocation`: where a captured piece goes (docs/rules.md section 8, "The
    /// `relocation` switch").
    pub enum Relocation: "relocation" {
        /// Its owner relocates a captured guard to an empty outer-ring cell and a captured
        /// queen to any empty cell (standard).
        OuterRing = "outer-ring",
        /// To the ring just outside the cell where it was captured (the outer ring stays
        /// the outer ring), or the next ring outward with a legal cell.
        NextRing = "next-ring",
        /// Back to a free start cell of its side and kind, or the outer ring if none is
        /// free.
        StartCell = "start-cell",
        /// Off the board for good; a side whose queen is captured loses.
        Removed = "removed",
    }
}

switch_enum! {
    /// `relocate-throne`: whether a relocated queen may go on the throne.
    pub enum RelocateThrone: "relocate-throne" {
        /// She may (standard).
        Allowed = "allowed",
        /// She may not.
        Forbidden = "forbidden",
    }
}

switch_enum! {
    /// `queen-relocated-by`: who chooses where a captured queen is relocated.
    pub enum QueenRelocatedBy: "queen-relocated-by" {
        /// Her owner (standard).
        Owner = "owner",
        /// The opponent, who may never put her between two of its active pieces.
        Opponent = "opponent",
    }
}

/// `repetition`: how many occurrences of a position draw the game (3 in the standard
/// rules, any number from 2 to 255), or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repetition(u8);

impl Repetition {
    /// No repetition draw.
    pub const OFF: Repetition = Repetition(0);
    /// The third occurrence draws (standard).
    pub const THREEFOLD: Repetition = Repetition(3);

    /// Every value, the default first: 3, then 2 and 4 to 255, then `off`.
    pub const ALL: [Repetition; 255] = {
        let mut all = [Repetition::OFF; 255];
        all[0] = Repetition::THREEFOLD;
        all[1] = Repetition(2);
        let mut n = 4;
        while n <= 255 {
            all[n as usize - 2] = Repetition(n as u8);
            n += 1;
        }
        all
    };

    /// The `n`-th occurrence draws; `None` unless `n` is from 2 to 255.
    pub const fn times(n: u8) -> Option<Repetition> {
        if n >= 2 {
            Some(Repetition(n))
        } else {
            None
        }
    }

    /// The number of occurrences that draws, or `None` for `off`.
    #[inline]
    pub const fn limit(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0)
        }
    }
}

impl Default for Repetition {
    fn default() -> Repetition {
        Repetition::THREEFOLD
    }
}

impl fmt::Display for Repetition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit() {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("off"),
        }
    }
}

impl FromStr for Repetition {
    type Err = RulesError;

    /// `off`, or a whole number from 2 to 255 written without sign or leading zero.
    fn from_str(text: &str) -> Result<Repetition, RulesError> {
        if text == "off" {
            return Ok(Repetition::OFF);
        }
        text.parse::<u8>()
            .ok()
            .filter(|_| !text.starts_with(['0', '+']))
            .and_then(Repetition::times)
            .ok_or_else(|| RulesError::BadValue {
                switch: Repetition::NAME,
                value: text.to_string(),
            })
    }
}

impl Switch for Repetition {
    const NAME: &'static str = "repetition";
    const VALUES: &'static [&'static str] = &["3", "any whole number from 2 to 255", "off"];
    const DEFAULT: Repetition = Repetition::THREEFOLD;

    fn all() -> &'static [Repetition] {
        &Repetition::ALL
    }

    fn variant_values() -> &'static [Repetition] {
        &[Repetition(5), Repetition::OFF]
    }
}

/// A switch as [`SWITCHES`] lists it: its name and its values in words, default first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchInfo {
    /// The switch's name in a rule-set name.
    pub name: &'static str,
    /// The valid values in words, default first.
    pub values: &'static [&'static str],
}

/// The table of switches, in canonical order: `field, with_field: Type;`. Everything that
/// lists the switches is generated from it.
macro_rules! rule_switches {
    ($( $(#[$meta:meta])* $field:ident, $with:ident: $ty:ident; )+) => {
        /// A complete rule set: the standard rules with any combination of switches, or the
        /// `ludii` preset. `Rules::default()` is the standard rules.
        ///
        /// Build one with [`Rules::STANDARD`] and the `with_*` builders, or parse its name;
        /// read a switch with its getter. Every value has exactly one canonical name
        /// (`Display`), and parsing that name gives the value back.
        ///
        /// ```
        /// use agon_core::{CaptureMode, Intervention, Rules};
        /// let rules = Rules::STANDARD
        ///     .with_intervention(Intervention::Suicide)?
        ///     .with_capture(CaptureMode::Ring)?;
        /// assert_eq!(rules.to_string(), "intervention=suicide,capture=ring");
        /// assert_eq!("capture=ring,intervention=suicide".parse::<Rules>()?, rules);
        /// assert!(Rules::LUDII.with_capture(CaptureMode::Ring).is_err());
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Rules {
            $( $field: $ty, )+
            /// The `ludii` preset (its switches are the standard ones with `repetition=off`).
            ludii: bool,
        }

        impl Rules {
            /// The standard rules.
            pub const STANDARD: Rules = Rules {
                $( $field: <$ty as Switch>::DEFAULT, )+
                ludii: false,
            };

            $(
                $(#[$meta])*
                #[inline]
                pub const fn $field(&self) -> $ty {
                    self.$field
                }

                #[doc = concat!("These rules with another `", stringify!($field), "` value; ")]
                #[doc = "refused for the `ludii` preset, which takes no switches, and for the"]
                #[doc = "combinations the rule book refuses ([`RulesError::Conflict`])."]
                pub fn $with(self, value: $ty) -> Result<Rules, RulesError> {
                    self.switched(Rules { $field: value, ..self })
                }
            )+

            /// These rules with the switch called `name` set to the value called `value`
            /// (`with_switch("intervention", "suicide")`): the by-name form of the `with_*`
            /// builders, for callers that hold switches as text.
            pub fn with_switch(self, name: &str, value: &str) -> Result<Rules, RulesError> {
                $(
                    if name == <$ty as Switch>::NAME {
                        return self.$with(value.parse()?);
                    }
                )+
                Err(RulesError::UnknownSwitch(name.to_string()))
            }

            /// The value of the switch called `name`, as written in a rule-set name, or
            /// `None` if there is no such switch.
            pub fn switch(&self, name: &str) -> Option<String> {
                $(
                    if name == <$ty as Switch>::NAME {
                        return Some(self.$field.to_string());
                    }
                )+
                None
            }

            /// The standard rules plus every single-switch variant (each non-default value
            /// of each switch; `repetition` contributes `5` and `off`), in canonical order.
            pub fn single_switch_variants() -> Vec<Rules> {
                let mut variants = vec![Rules::STANDARD];
                $(
                    for &value in <$ty as Switch>::variant_values() {
                        variants.extend(Rules::STANDARD.$with(value));
                    }
                )+
                variants
            }

            /// Every rule set: each combination of switch values (in canonical order,
            /// the standard rules first), then the `ludii` preset.
            pub fn all() -> Vec<Rules> {
                let mut all = vec![Rules::STANDARD];
                $(
                    all = all
                        .into_iter()
                        .flat_map(|rules| {
                            <$ty as Switch>::all()
                                .iter()
                                .filter_map(move |&value| rules.$with(value).ok())
                        })
                        .collect();
                )+
                all.push(Rules::LUDII);
                all
            }

            /// `switch=value` for every switch that differs from the standard rules, in
            /// canonical order.
            fn non_default_switches(&self) -> Vec<String> {
                let mut parts = Vec::new();
                $(
                    if self.$field != <$ty as Switch>::DEFAULT {
                        parts.push(format!("{}={}", <$ty as Switch>::NAME, self.$field));
                    }
                )+
                parts
            }
        }

        /// The switches, in canonical order, with their valid values (default first).
        pub const SWITCHES: [SwitchInfo; [$(stringify!($field)),+].len()] = [
            $( SwitchInfo { name: <$ty as Switch>::NAME, values: <$ty as Switch>::VALUES }, )+
        ];
    };
}

rule_switches! {
    /// The `intervention` switch.
    intervention, with_intervention: Intervention;
    /// The `capture` switch: which cells are "between".
    capture, with_capture: CaptureMode;
    /// The `opening` switch.
    opening, with_opening: Opening;
    /// The `touch-move` switch.
    touch_move, with_touch_move: TouchMove;
    /// The `relocation` switch: where a captured piece goes.
    relocation, with_relocation: Relocation;
    /// The `relocate-throne` switch.
    relocate_throne, with_relocate_throne: RelocateThrone;
    /// The `queen-relocated-by` switch.
    queen_relocated_by, with_queen_relocated_by: QueenRelocatedBy;
    /// The `repetition` switch.
    repetition, with_repetition: Repetition;
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

impl Rules {
    /// The `ludii` preset: the rules of Ludii's Agon (docs/rules.md section 8).
    pub const LUDII: Rules = Rules {
        repetition: Repetition::OFF,
        ludii: true,
        ..Rules::STANDARD
    };

    /// Every `with_*` builder ends here: `changed` is `self` with one switch changed.
    /// Refuses what the rule book refuses (the one place for refused combinations).
    fn switched(self, changed: Rules) -> Result<Rules, RulesError> {
        if self.ludii {
            return Err(RulesError::WholeRuleSet("ludii".to_string()));
        }
        match changed.conflict() {
            Some(conflict) => Err(conflict),
            None => Ok(changed),
        }
    }

    /// The first pair of switch values that the rule book refuses together (docs/rules.md
    /// section 8, "refused combinations"), each pair in canonical order: a switch that
    /// would change nothing, or rules that would need what the game does not have.
    fn conflict(&self) -> Option<RulesError> {
        let pair = |first: String, second: String, reason: &'static str| {
            Some(RulesError::Conflict {
                first,
                second,
                reason,
            })
        };
        let relocation = format!("{}={}", Relocation::NAME, self.relocation);
        if self.relocation == Relocation::StartCell && self.has_placement() {
            return pair(
                format!("{}={}", Opening::NAME, self.opening),
                relocation,
                "a placement game has no start cells to send a captured piece back to",
            );
        }
        if self.relocate_throne == RelocateThrone::Forbidden {
            let reason = match self.relocation {
                Relocation::OuterRing => None,
                Relocation::NextRing => Some(
                    "a captured queen goes to rings 1 to 5 there, never to the throne, so \
                     relocate-throne=forbidden would change nothing",
                ),
                Relocation::StartCell => Some(
                    "a captured queen goes to her start cell or the outer ring there, never to \
                     the throne, so relocate-throne=forbidden would change nothing",
                ),
                Relocation::Removed => Some(
                    "captured pieces leave the board there and are never relocated, so \
                     relocate-throne=forbidden would change nothing",
                ),
            };
            if let Some(reason) = reason {
                return pair(
                    relocation,
                    format!("{}={}", RelocateThrone::NAME, self.relocate_throne),
                    reason,
                );
            }
        }
        if self.relocation == Relocation::Removed
            && self.queen_relocated_by == QueenRelocatedBy::Opponent
        {
            return pair(
                relocation,
                format!("{}={}", QueenRelocatedBy::NAME, self.queen_relocated_by),
                "captured pieces leave the board there, so no one ever chooses where a \
                 captured queen goes",
            );
        }
        None
    }

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
        match (self.queen_relocated_by, owner) {
            (QueenRelocatedBy::Owner, _) => owner,
            (QueenRelocatedBy::Opponent, Side::White) => Side::Black,
            (QueenRelocatedBy::Opponent, Side::Black) => Side::White,
        }
    }

    /// The canonical name: non-default switches in canonical order, or `standard`/`ludii`.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ludii {
            return f.write_str("ludii");
        }
        let parts = self.non_default_switches();
        if parts.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

/// Why a rule set cannot be built: a name that does not parse, or a refused combination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The name is empty.
    Empty,
    /// A part of the name is not `switch=value` (the part).
    NotSwitchValue(String),
    /// No switch has this name.
    UnknownSwitch(String),
    /// A switch is given twice (its name).
    SwitchTwice(&'static str),
    /// A value that the switch does not take.
    BadValue {
        /// The switch's name.
        switch: &'static str,
        /// The value given.
        value: String,
    },
    /// A whole rule set (`standard`, `ludii`) combined with switches (its name).
    WholeRuleSet(String),
    /// Two switch values that the rule book refuses together (docs/rules.md section 8).
    Conflict {
        /// The first value as `switch=value`, in canonical order.
        first: String,
        /// The second value as `switch=value`.
        second: String,
        /// Why they do not go together.
        reason: &'static str,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Empty => {
                f.write_str("empty name; use `standard`, `ludii`, or switch=value pairs")
            }
            RulesError::NotSwitchValue(part) => {
                write!(f, "`{part}` is not switch=value; {}", SwitchList)
            }
            RulesError::UnknownSwitch(name) => write!(f, "unknown switch `{name}`; {}", SwitchList),
            RulesError::SwitchTwice(name) => write!(f, "switch `{name}` is given twice"),
            RulesError::BadValue { switch, value } => {
                let values = SWITCHES
                    .iter()
                    .find(|s| s.name == *switch)
                    .map_or_else(String::new, |s| s.values.join(", "));
                write!(f, "`{value}` is not a value of `{switch}`; valid: {values}")
            }
            RulesError::WholeRuleSet(name) => write!(
                f,
                "`{name}` is a whole rule set and cannot be combined with switches"
            ),
            RulesError::Conflict {
                first,
                second,
                reason,
            } => write!(f, "`{first}` cannot be combined with `{second}`: {reason}"),
        }
    }
}

impl std::error::Error for RulesError {}

/// Every switch with its values, and the whole rule sets, for error messages.
struct SwitchList;

impl fmt::Display for SwitchList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("switches: ")?;
        for (i, switch) in SWITCHES.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{} ({})", switch.name, switch.values.join(", "))?;
        }
        f.write_str("; or the whole rule sets `standard` and `ludii`")
    }
}

/// Why a text is not a rule-set name: the text and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesError {
    /// The whole text that was parsed.
    pub text: String,
    /// What was wrong.
    pub kind: RulesError,
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a rule set: {}", self.text, self.kind)
    }
}

impl std::error::Error for ParseRulesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Parses `standard`, `ludii`, or comma-separated `switch=value` pairs in any order
    /// (each switch at most once; default values are accepted and dropped from the
    /// canonical name).
    fn from_str(text: &str) -> Result<Rules, ParseRulesError> {
        let error = |kind: RulesError| ParseRulesError {
            text: text.to_string(),
            kind,
        };
        let trimmed = text.trim();
        match trimmed {
            "standard" => return Ok(Rules::STANDARD),
            "ludii" => return Ok(Rules::LUDII),
            "" => return Err(error(RulesError::Empty)),
            _ => {}
        }
        let mut rules = Rules::STANDARD;
        let mut seen = [false; SWITCHES.len()];
        for part in trimmed.split(',') {
            let part = part.trim();
            if part == "ludii" || part == "standard" {
                return Err(error(RulesError::WholeRuleSet(part.to_string())));
            }
            let Some((name, value)) = part.split_once('=') else {
                return Err(error(RulesError::NotSwitchValue(part.to_string())));
            };
            let (name, value) = (name.trim(), value.trim());
            let Some(slot) = SWITCHES.iter().position(|s| s.name == name) else {
                return Err(error(RulesError::UnknownSwitch(name.to_string())));
            };
            if seen[slot] {
                return Err(error(RulesError::SwitchTwice(SWITCHES[slot].name)));
            }
            seen[slot] = true;
            rules = rules.with_switch(name, value).map_err(error)?;
        }
        Ok(rules)
    }
}
