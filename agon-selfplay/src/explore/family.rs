//! Families of rule sets: the switches that vary and their values, and every combination.
//!
//! The switches and their values come from agon-core's one table of switches
//! ([`agon_core::SWITCHES`]), never from a list of this crate, so a switch added to the
//! rules is explored by `--switches all` without an edit here. A switch whose values are
//! not a closed list (`repetition`: any whole number from 2 to 255, or `off`) is *open*:
//! `--switches all` leaves it at its default, and `--switch repetition=3,off` (or
//! `--repetition 3,off`) names the values to explore.

use crate::error::{Error, Result};
use agon_core::{Rules, SWITCHES};
use serde::{Deserialize, Serialize};

/// One switch of agon-core's table: its name, its values in order (default first), and
/// whether those are all its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchValues {
    /// The switch's name in a rule-set name.
    pub name: String,
    /// The values a rule-set name accepts, as the table lists them (default first).
    pub values: Vec<String>,
    /// Whether `values` are every value of the switch (false for `repetition`).
    pub closed: bool,
}

/// Whether `value` is a value of the switch `name`.
fn accepts(name: &str, value: &str) -> bool {
    Rules::STANDARD.with_switch(name, value).is_ok()
}

/// Every switch of agon-core's table, in canonical order. A listed value that is not a
/// value (a description such as "any whole number from 2 to 255") makes the switch open.
pub fn switch_table() -> Vec<SwitchValues> {
    SWITCHES
        .iter()
        .map(|switch| {
            let values: Vec<String> = switch
                .values
                .iter()
                .filter(|value| accepts(switch.name, value))
                .map(|value| value.to_string())
                .collect();
            SwitchValues {
                name: switch.name.to_string(),
                closed: values.len() == switch.values.len(),
                values,
            }
        })
        .collect()
}

/// A switch that takes more than one value in a family, with its values in the order
/// given (the first is the reference of the switch's effects).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Factor {
    /// The switch's name.
    pub switch: String,
    /// Its values, each as written in a rule-set name.
    pub values: Vec<String>,
}

/// A family of rule sets: the switches given (each with its values) and every
/// combination of them, the other switches at their defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Family {
    /// Every switch given a value, in canonical order (one value: fixed; more: a factor).
    pub switches: Vec<Factor>,
}

impl Family {
    /// The family of `--switch NAME=V1,V2` options (repeatable; `NAME=all` for every value
    /// of a closed switch), `--switches all` (every value of every closed switch not given
    /// by `--switch`) and `--repetition LIST` (the same as `--switch repetition=LIST`).
    pub fn new(switch: &[String], all: bool, repetition: Option<&str>) -> Result<Family> {
        let table = switch_table();
        let mut given: Vec<(String, Vec<String>)> = Vec::new();
        let mut options: Vec<String> = switch.to_vec();
        if let Some(list) = repetition {
            options.push(format!("repetition={list}"));
        }
        for option in &options {
            let (name, list) = option.split_once('=').ok_or_else(|| {
                Error::Settings(format!(
                    "--switch takes NAME=VALUE,VALUE..., e.g. capture=line,ring, not `{option}`"
                ))
            })?;
            let name = name.trim();
            let Some(entry) = table.iter().find(|s| s.name == name) else {
                return Err(Error::Settings(format!(
                    "--switch {option}: unknown switch `{name}`; switches: {}",
                    table
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            if given.iter().any(|(n, _)| n == name) {
                return Err(Error::Settings(format!(
                    "switch `{name}` is given twice (list its values in one --switch)"
                )));
            }
            let mut values: Vec<String> = Vec::new();
            for value in list.split(',').map(str::trim) {
                let expanded: Vec<String> = if value == "all" && entry.closed {
                    entry.values.clone()
                } else if value == "all" {
                    return Err(Error::Settings(format!(
                        "--switch {name}=all: `{name}` takes any of {}; list the values to \
                         explore",
                        SWITCHES
                            .iter()
                            .find(|s| s.name == name)
                            .map_or(String::new(), |s| s.values.join(", "))
                    )));
                } else {
                    vec![canonical_value(name, value)?]
                };
                for v in expanded {
                    if values.contains(&v) {
                        return Err(Error::Settings(format!(
                            "--switch {name}: the value `{v}` is given twice"
                        )));
                    }
                    values.push(v);
                }
            }
            given.push((name.to_string(), values));
        }
        let mut switches = Vec::new();
        for entry in &table {
            let values = match given.iter().find(|(n, _)| *n == entry.name) {
                Some((_, values)) => values.clone(),
                None if all && entry.closed => entry.values.clone(),
                None => continue,
            };
            switches.push(Factor {
                switch: entry.name.clone(),
                values,
            });
        }
        if switches.iter().all(|f| f.values.len() < 2) {
            return Err(Error::Settings(
                "explore needs a family of rule sets: --switch NAME=V1,V2 (repeatable), \
                 --switches all, or --repetition 3,off"
                    .into(),
            ));
        }
        Ok(Family { switches })
    }

    /// The switches that take more than one value.
    pub fn factors(&self) -> impl Iterator<Item = &Factor> {
        self.switches.iter().filter(|f| f.values.len() > 1)
    }

    /// Every rule set of the family, canonical names, in the order of the switches (the
    /// last switch varying fastest) and of their values. Combinations the rules refuse
    /// (such as `relocation=next-ring` with `relocate-throne=forbidden`, docs/rules.md
    /// section 8) are left out: they are no rule set.
    pub fn rule_sets(&self) -> Vec<String> {
        let mut names: Vec<Vec<String>> = vec![Vec::new()];
        for factor in &self.switches {
            names = names
                .into_iter()
                .flat_map(|parts| {
                    factor.values.iter().map(move |v| {
                        let mut parts = parts.clone();
                        parts.push(format!("{}={v}", factor.switch));
                        parts
                    })
                })
                .collect();
        }
        names
            .into_iter()
            .filter_map(|parts| parts.join(",").parse::<Rules>().ok())
            .map(|rules| rules.to_string())
            .collect()
    }

    /// The value of every switch of the family in a rule set of it.
    pub fn values_of(&self, rule_set: &str) -> Vec<(String, String)> {
        let rules: Rules = rule_set.parse().expect("a rule set of the family");
        self.switches
            .iter()
            .map(|f| {
                let value = rules.switch(&f.switch).expect("a switch of the table");
                (f.switch.clone(), value)
            })
            .collect()
    }
}

/// The value as a canonical rule-set name writes it (`repetition=03` is refused, as the
/// rules refuse it), or a settings error naming the valid values.
fn canonical_value(name: &str, value: &str) -> Result<String> {
    format!("{name}={value}")
        .parse::<Rules>()
        .map(|_| value.to_string())
        .map_err(|e| Error::Settings(format!("--switch {name}={value}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_table_comes_from_agon_core() {
        let table = switch_table();
        assert_eq!(table.len(), SWITCHES.len());
        let capture = table.iter().find(|s| s.name == "capture").unwrap();
        assert_eq!(capture.values, ["line", "ring"]);
        assert!(capture.closed);
        let repetition = table.iter().find(|s| s.name == "repetition").unwrap();
        assert!(!repetition.closed);
        assert!(repetition.values.contains(&"3".to_string()));
    }

    #[test]
    fn combinations_the_rules_refuse_are_left_out() {
        let family = Family::new(
            &list(&[
                "relocation=outer-ring,next-ring",
                "relocate-throne=allowed,forbidden",
            ]),
            false,
            None,
        )
        .unwrap();
        assert_eq!(
            family.rule_sets(),
            [
                "standard",
                "relocate-throne=forbidden",
                "relocation=next-ring"
            ]
        );
    }

    #[test]
    fn switch_lists_make_every_combination() {
        let family = Family::new(
            &list(&["intervention=forbidden,suicide", "capture=line,ring"]),
            false,
            None,
        )
        .unwrap();
        assert_eq!(
            family.rule_sets(),
            [
                "standard",
                "capture=ring",
                "intervention=suicide",
                "intervention=suicide,capture=ring"
            ]
        );
        assert_eq!(
            family.values_of("intervention=suicide"),
            [
                ("intervention".to_string(), "suicide".to_string()),
                ("capture".to_string(), "line".to_string())
            ]
        );
    }

    #[test]
    fn all_switches_give_every_closed_combination_per_repetition() {
        let family = Family::new(&[], true, Some("3,off")).unwrap();
        let closed: usize = switch_table()
            .iter()
            .filter(|s| s.closed)
            .map(|s| s.values.len())
            .product();
        let names = family.rule_sets();
        // Every combination of the closed switches, less those the rules refuse.
        let mut combinations: Vec<String> = vec![String::new()];
        for switch in switch_table().iter().filter(|s| s.closed) {
            combinations = combinations
                .iter()
                .flat_map(|c| {
                    switch
                        .values
                        .iter()
                        .map(move |v| format!("{c},{}={v}", switch.name))
                })
                .collect();
        }
        let accepted = combinations
            .iter()
            .filter(|c| c[1..].parse::<Rules>().is_ok())
            .count();
        assert!(
            accepted < closed,
            "the relocation switch refuses some combinations"
        );
        assert_eq!(names.len(), accepted * 2);
        assert_eq!(names[0], "standard");
        assert_eq!(names[1], "repetition=off");
        let unique: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        // --switch overrides the values of --switches all.
        let family = Family::new(&list(&["capture=ring"]), true, None).unwrap();
        assert!(family
            .rule_sets()
            .iter()
            .all(|n| n.contains("capture=ring")));
    }

    #[test]
    fn bad_families_are_refused_with_the_reason() {
        let err = |s: &[&str], all, rep: Option<&str>| {
            Family::new(&list(s), all, rep).unwrap_err().to_string()
        };
        assert!(err(&["capture=square"], false, None).contains("square"));
        assert!(err(&["colour=red,blue"], false, None).contains("unknown switch"));
        assert!(err(&["capture=ring,ring"], false, None).contains("twice"));
        assert!(err(&["capture=line", "capture=ring"], false, None).contains("twice"));
        assert!(err(&["capture"], false, None).contains("NAME=VALUE"));
        assert!(err(&["capture=ring"], false, None).contains("needs a family"));
        assert!(err(&["repetition=all"], false, None).contains("list the values"));
        assert!(err(&[], false, Some("3,1")).contains("repetition=1"));
    }
}
