//! Rule-set names (docs/rules.md section 8): canonical order, parsing in any order, and errors
//! that list the valid switches and values.

use agon_core::{CaptureMode, Intervention, Opening, Rules, SWITCHES};

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
    let mut all = Rules::STANDARD;
    all.intervention = Intervention::Suicide;
    all.capture = CaptureMode::Ring;
    all.opening = Opening::Placement;
    all.touch_move = true;
    all.relocate_to_throne = false;
    all.queen_relocated_by_opponent = true;
    all.repetition = Some(5);
    let name = "intervention=suicide,capture=ring,opening=placement,touch-move=on,\
                relocate-throne=forbidden,queen-relocated-by=opponent,repetition=5";
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
        parse("opening=placement-opposed").unwrap().opening,
        Opening::PlacementOpposed
    );
    assert_eq!(parse("repetition=2").unwrap().repetition, Some(2));
    assert_eq!(parse("repetition=255").unwrap().repetition, Some(255));
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
    assert_eq!(SWITCHES.len(), 7);
    assert_eq!(
        SWITCHES.map(|(name, _)| name),
        [
            "intervention",
            "capture",
            "opening",
            "touch-move",
            "relocate-throne",
            "queen-relocated-by",
            "repetition"
        ]
    );
}
