//! Rule-set names (docs/rules.md section 8): canonical order, parsing in any order, and errors
//! that list the valid switches and values.

use agon_core::{
    CaptureMode, Intervention, Opening, QueenRelocatedBy, RelocateThrone, Relocation, Repetition,
    Rules, RulesError, Switch, TouchMove, SWITCHES,
};

fn parse(text: &str) -> Result<Rules, String> {
    text.parse::<Rules>().map_err(|e| e.to_string())
}

#[test]
fn standard_and_ludii() {
    assert_eq!(Rules::STANDARD.to_string(), "standard");
    assert_eq!(Rules::default(), Rules::STANDARD);
    assert_eq!(Rules::LUDII.to_string(), "ludii");
    assert_eq!(parse("standard"), Ok(Rules::STANDARD));
    assert_eq!(parse("ludii"), Ok(Rules::LUDII));
    assert!(Rules::LUDII.is_ludii() && !Rules::STANDARD.is_ludii());
    assert_ne!(Rules::LUDII, "repetition=off".parse().unwrap());
}

#[test]
fn the_canonical_name_lists_every_non_default_switch_in_order() {
    let all = Rules::STANDARD
        .with_intervention(Intervention::Suicide)
        .and_then(|r| r.with_capture(CaptureMode::Ring))
        .and_then(|r| r.with_opening(Opening::Placement))
        .and_then(|r| r.with_touch_move(TouchMove::On))
        .and_then(|r| r.with_relocation(Relocation::NextRing))
        .and_then(|r| r.with_queen_relocated_by(QueenRelocatedBy::Opponent))
        .and_then(|r| r.with_repetition(Repetition::times(5).unwrap()))
        .unwrap();
    let name = "intervention=suicide,capture=ring,opening=placement,touch-move=on,\
                relocation=next-ring,queen-relocated-by=opponent,repetition=5";
    assert_eq!(all.to_string(), name);
    assert_eq!(all.name(), name);
    assert_eq!(parse(name), Ok(all));
    // Any order in, canonical order out; defaults are accepted and dropped.
    let shuffled: Rules = "repetition=off,touch-move=on,intervention=safe,capture=line"
        .parse()
        .unwrap();
    assert_eq!(
        shuffled.to_string(),
        "intervention=safe,touch-move=on,repetition=off"
    );
    assert_eq!(
        parse("intervention=forbidden,opening=standard,repetition=3"),
        Ok(Rules::STANDARD)
    );
    assert_eq!(
        parse("opening=placement-opposed").unwrap().opening(),
        Opening::PlacementOpposed
    );
    assert_eq!(parse("repetition=2").unwrap().repetition().limit(), Some(2));
    assert_eq!(
        parse("repetition=255").unwrap().repetition().limit(),
        Some(255)
    );
}

#[test]
fn single_switch_variants_are_the_standard_rules_and_each_non_default_value() {
    let names: Vec<String> = Rules::single_switch_variants()
        .iter()
        .map(Rules::to_string)
        .collect();
    assert_eq!(
        names,
        [
            "standard",
            "intervention=suicide",
            "intervention=safe",
            "capture=ring",
            "opening=placement",
            "opening=placement-opposed",
            "touch-move=on",
            "relocation=next-ring",
            "relocation=start-cell",
            "relocation=removed",
            "relocate-throne=forbidden",
            "queen-relocated-by=opponent",
            "repetition=5",
            "repetition=off",
        ]
    );
    for rules in Rules::single_switch_variants() {
        assert_eq!(parse(&rules.to_string()), Ok(rules));
    }
}

#[test]
fn errors_name_the_problem_and_the_valid_choices() {
    let all_switches = "switches: intervention (forbidden, suicide, safe); capture (line, ring); \
         opening (standard, placement, placement-opposed); touch-move (off, on); \
         relocation (outer-ring, next-ring, start-cell, removed); \
         relocate-throne (allowed, forbidden); queen-relocated-by (owner, opponent); \
         repetition (3, any whole number from 2 to 255, off); or the whole rule sets \
         `standard` and `ludii`";
    for (text, message) in [
        (
            "intervention=maybe",
            "`intervention=maybe` is not a rule set: `maybe` is not a value of \
             `intervention`; valid: forbidden, suicide, safe"
                .to_string(),
        ),
        (
            "capture=ring,colour=red",
            format!(
                "`capture=ring,colour=red` is not a rule set: unknown switch `colour`; \
                 {all_switches}"
            ),
        ),
        (
            "touchmove",
            format!(
                "`touchmove` is not a rule set: `touchmove` is not switch=value; {all_switches}"
            ),
        ),
        (
            "repetition=1",
            "`repetition=1` is not a rule set: `1` is not a value of `repetition`; valid: 3, \
             any whole number from 2 to 255, off"
                .to_string(),
        ),
        (
            "repetition=05",
            "`repetition=05` is not a rule set: `05` is not a value of `repetition`; valid: 3, \
             any whole number from 2 to 255, off"
                .to_string(),
        ),
        (
            "repetition=+5",
            "`repetition=+5` is not a rule set: `+5` is not a value of `repetition`; valid: 3, \
             any whole number from 2 to 255, off"
                .to_string(),
        ),
        (
            "repetition=256",
            "`repetition=256` is not a rule set: `256` is not a value of `repetition`; valid: \
             3, any whole number from 2 to 255, off"
                .to_string(),
        ),
        (
            "capture=ring,capture=line",
            "`capture=ring,capture=line` is not a rule set: switch `capture` is given twice"
                .to_string(),
        ),
        (
            "ludii,repetition=3",
            "`ludii,repetition=3` is not a rule set: `ludii` is a whole rule set and cannot \
             be combined with switches"
                .to_string(),
        ),
        (
            "",
            "`` is not a rule set: empty name; use `standard`, `ludii`, or switch=value pairs"
                .to_string(),
        ),
    ] {
        assert_eq!(parse(text), Err(message), "{text}");
    }
    assert_eq!(SWITCHES.len(), 8);
    assert_eq!(
        SWITCHES.map(|switch| switch.name),
        [
            "intervention",
            "capture",
            "opening",
            "touch-move",
            "relocation",
            "relocate-throne",
            "queen-relocated-by",
            "repetition"
        ]
    );
}

/// The property the type exists for: every rule set there is (each combination of every
/// value of every switch that the rule book does not refuse, and the `ludii` preset)
/// prints a name that parses back to it, and no two rule sets share a name.
#[test]
fn every_rule_set_round_trips_through_its_name() {
    let all = Rules::all();
    let free: usize = [
        Intervention::all().len(),
        CaptureMode::all().len(),
        TouchMove::all().len(),
        Repetition::all().len(),
    ]
    .iter()
    .product();
    // Opening, relocation, relocate-throne and queen-relocated-by, less the refused
    // combinations (docs/rules.md section 8): with outer-ring every opening, throne
    // setting and chooser; next-ring refuses relocate-throne=forbidden; start-cell that
    // and the placement openings; removed that and queen-relocated-by=opponent.
    let (openings, throne, chooser) = (
        Opening::all().len(),
        RelocateThrone::all().len(),
        QueenRelocatedBy::all().len(),
    );
    let tied = openings * throne * chooser + openings * chooser + chooser + openings;
    assert_eq!(
        Relocation::all().len(),
        4,
        "a new value belongs in the sum above"
    );
    assert_eq!(
        SWITCHES.len(),
        8,
        "a new switch belongs in the product above"
    );
    assert_eq!(all.len(), free * tied + 1);
    assert_eq!(all.len(), 70_381);
    let mut names = std::collections::HashSet::new();
    for rules in all {
        let name = rules.to_string();
        assert_eq!(name.parse::<Rules>(), Ok(rules), "{name}");
        assert!(
            names.insert(name.clone()),
            "two rule sets are called {name}"
        );
        for switch in SWITCHES {
            let value = rules.switch(switch.name).expect("every switch has a value");
            assert_eq!(
                rules.with_switch(switch.name, &value).ok(),
                Some(rules).filter(|r| !r.is_ludii())
            );
        }
    }
}

#[test]
fn each_switch_lists_parses_and_prints_its_values() {
    fn check<S: Switch + std::fmt::Debug>() {
        assert_eq!(
            S::all()[0],
            S::DEFAULT,
            "{}: the default comes first",
            S::NAME
        );
        for &value in S::all() {
            assert_eq!(value.to_string().parse::<S>(), Ok(value), "{}", S::NAME);
        }
        assert_eq!(
            "nonsense".parse::<S>(),
            Err(RulesError::BadValue {
                switch: S::NAME,
                value: "nonsense".into()
            })
        );
        assert!(SWITCHES
            .iter()
            .any(|s| s.name == S::NAME && s.values == S::VALUES));
    }
    check::<Intervention>();
    check::<CaptureMode>();
    check::<Opening>();
    check::<TouchMove>();
    check::<Relocation>();
    check::<RelocateThrone>();
    check::<QueenRelocatedBy>();
    check::<Repetition>();
    assert_eq!(
        Intervention::ALL.map(Intervention::name),
        ["forbidden", "suicide", "safe"]
    );
    assert_eq!(Repetition::ALL.len(), 255);
    assert_eq!(Repetition::times(1), None);
    assert_eq!(Repetition::OFF.limit(), None);
}

#[test]
fn switches_are_changed_only_through_builders_that_refuse_the_preset() {
    assert_eq!(
        Rules::LUDII.with_touch_move(TouchMove::On),
        Err(RulesError::WholeRuleSet("ludii".into()))
    );
    assert_eq!(
        Rules::LUDII
            .with_repetition(Repetition::THREEFOLD)
            .unwrap_err()
            .to_string(),
        "`ludii` is a whole rule set and cannot be combined with switches"
    );
    let suicide = Rules::STANDARD
        .with_switch("intervention", "suicide")
        .unwrap();
    assert_eq!(suicide.intervention(), Intervention::Suicide);
    assert_eq!(suicide.switch("intervention").as_deref(), Some("suicide"));
    assert_eq!(suicide.switch("colour"), None);
    assert_eq!(
        Rules::STANDARD.with_switch("colour", "red"),
        Err(RulesError::UnknownSwitch("colour".into()))
    );
    // Setting a switch back to its default gives the standard rules, equal and same-named.
    let back = suicide.with_intervention(Intervention::Forbidden).unwrap();
    assert_eq!(back, Rules::STANDARD);
    assert_eq!(back.to_string(), "standard");
}
