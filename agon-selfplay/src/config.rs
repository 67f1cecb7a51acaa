//! Experiment settings from the command line and from a config file (JSON, or TOML when
//! the file name ends in `.toml`), so that an experiment is one file under version control.
//! Command-line options override the file.

use crate::adjudication::Adjudication;
use crate::error::{Error, Result};
use crate::experiment::{Experiment, Kind, Pairing};
use crate::openings::{OpeningOrder, OpeningSuite};
use agon_core::Rules;
use serde::Deserialize;
use std::path::Path;

/// Default games per variant (run) or per pairing (tournament).
pub const DEFAULT_GAMES: u64 = 100;
/// Default random opening plies.
pub const DEFAULT_OPENING_PLIES: u32 = 4;
/// Default ply limit.
pub const DEFAULT_MAX_PLIES: u32 = 1000;
/// Default seed.
pub const DEFAULT_SEED: u64 = 1;
/// The largest config file read (a config file is a few lines; `--config /dev/zero` must
/// not read until memory runs out).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Reads a config file of any settings type (at most [`MAX_CONFIG_BYTES`] of UTF-8): TOML
/// if its name ends in `.toml`, JSON otherwise; errors name the file.
pub fn load_file<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(Error::Settings(format!(
            "{}: a config file is at most 1 MiB",
            path.display()
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::Settings(format!(
            "{}: not UTF-8 text (byte {} is not)",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        ))
    })?;
    let is_toml = path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("toml"));
    let parsed = if is_toml {
        toml::from_str(&text).map_err(|e| e.to_string())
    } else {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    };
    parsed.map_err(|e| Error::Settings(format!("{}: {e}", path.display())))
}

/// The random opening plies of each pair: as given, else [`DEFAULT_OPENING_PLIES`], or
/// none with a suite (a suite replaces the random opening unless random plies are asked
/// for too).
pub fn opening_plies(given: Option<u32>, suite: Option<&OpeningSuite>) -> u32 {
    given.unwrap_or(if suite.is_some() {
        0
    } else {
        DEFAULT_OPENING_PLIES
    })
}

/// Every setting, each optional (unset settings take the defaults above).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    /// Rule sets by name; the entry `all` stands for the standard rules and every
    /// single-switch variant.
    pub variants: Option<Vec<String>>,
    /// The agent of both sides (`run`).
    pub agent: Option<String>,
    /// White's agent in the first game of each pair (`run`).
    pub white: Option<String>,
    /// Black's agent in the first game of each pair (`run`).
    pub black: Option<String>,
    /// The agents of a round robin (`tournament`).
    pub agents: Option<Vec<String>>,
    /// Games per variant and pairing.
    pub games: Option<u64>,
    /// Random opening plies.
    #[serde(alias = "opening_plies")]
    pub opening_plies: Option<u32>,
    /// Ply limit (adjudicated draw).
    #[serde(alias = "max_plies")]
    pub max_plies: Option<u32>,
    /// Seed.
    pub seed: Option<u64>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// A sequential test per block: `elo0=E0,elo1=E1,alpha=A,beta=B`.
    pub sprt: Option<String>,
    /// A tournament in which the first agent meets each other one (no round robin).
    pub gauntlet: Option<bool>,
    /// Draw adjudication: `movenumber=N,movecount=C,score=S`.
    pub draw_adjudication: Option<String>,
    /// Resign adjudication: `movecount=C,score=S`.
    pub resign_adjudication: Option<String>,
    /// The variant the others are compared with (report option).
    pub baseline: Option<String>,
    /// The equivalence margin of White's score (report option).
    pub margin: Option<f64>,
    /// `AGENT=ELO`: the rating that fixes the scale of a tournament (report option).
    pub anchor: Option<String>,
    /// Virtual draws per pairing in the ratings' prior (report option).
    pub prior: Option<f64>,
    /// An opening suite file (records or position lines).
    pub openings: Option<String>,
    /// In which order pairs take the suite's openings: `sequential` or `random`.
    #[serde(alias = "openings_order")]
    pub openings_order: Option<OpeningOrder>,
    /// The suite opening of each block's first pair (0-based).
    #[serde(alias = "openings_start")]
    pub openings_start: Option<u64>,
    /// The suite of a stored run (for a `--resume`; never read from a config file).
    #[serde(skip)]
    pub stored_openings: Option<OpeningSuite>,
}

impl Settings {
    /// Reads a config file: TOML if its name ends in `.toml`, JSON otherwise.
    pub fn load(path: &Path) -> Result<Settings> {
        load_file(path)
    }

    /// These settings with every setting given in `over` replacing this one's.
    pub fn overlaid(self, over: Settings) -> Settings {
        Settings {
            variants: over.variants.or(self.variants),
            agent: over.agent.or(self.agent),
            white: over.white.or(self.white),
            black: over.black.or(self.black),
            agents: over.agents.or(self.agents),
            games: over.games.or(self.games),
            opening_plies: over.opening_plies.or(self.opening_plies),
            max_plies: over.max_plies.or(self.max_plies),
            seed: over.seed.or(self.seed),
            threads: over.threads.or(self.threads),
            sprt: over.sprt.or(self.sprt),
            gauntlet: over.gauntlet.or(self.gauntlet),
            draw_adjudication: over.draw_adjudication.or(self.draw_adjudication),
            resign_adjudication: over.resign_adjudication.or(self.resign_adjudication),
            baseline: over.baseline.or(self.baseline),
            margin: over.margin.or(self.margin),
            anchor: over.anchor.or(self.anchor),
            prior: over.prior.or(self.prior),
            openings: over.openings.or(self.openings),
            openings_order: over.openings_order.or(self.openings_order),
            openings_start: over.openings_start.or(self.openings_start),
            stored_openings: over.stored_openings.or(self.stored_openings),
        }
    }

    /// The settings that describe an experiment exactly (`white` and `black` for a run,
    /// `agents` for a tournament), for comparing a `--resume` with the stored run.
    pub fn of_experiment(experiment: &Experiment) -> Settings {
        let (white, black, agents) = match experiment.kind {
            Kind::Run => (
                experiment.pairings.first().map(|p| p.first.clone()),
                experiment.pairings.first().map(|p| p.second.clone()),
                None,
            ),
            Kind::Tournament => {
                let mut agents: Vec<String> = Vec::new();
                for p in &experiment.pairings {
                    for a in [&p.first, &p.second] {
                        if !agents.contains(a) {
                            agents.push(a.clone());
                        }
                    }
                }
                (None, None, Some(agents))
            }
        };
        Settings {
            variants: Some(experiment.variants.clone()),
            agent: None,
            white,
            black,
            agents,
            games: Some(experiment.games),
            opening_plies: Some(experiment.opening_plies),
            max_plies: Some(experiment.max_plies),
            seed: Some(experiment.seed),
            draw_adjudication: experiment.adjudication.draw.map(|r| r.to_string()),
            resign_adjudication: experiment.adjudication.resign.map(|r| r.to_string()),
            sprt: experiment.sprt.map(|s| s.to_string()),
            stored_openings: experiment.openings.clone(),
            ..Settings::default()
        }
    }

    /// These settings (a stored run's, see [`Settings::of_experiment`]) with the ones
    /// given for a `--resume` on top: `agent` replaces both sides.
    pub fn resumed_with(mut self, given: Settings) -> Settings {
        if given.agent.is_some() {
            self.white = None;
            self.black = None;
        }
        self.overlaid(given)
    }

    /// Whether any setting that defines the experiment (not `threads` or a report
    /// option) is given.
    pub fn defines_experiment(&self) -> bool {
        Settings {
            threads: None,
            baseline: None,
            margin: None,
            anchor: None,
            prior: None,
            ..self.clone()
        } != Settings::default()
    }

    /// The report options of these settings.
    pub fn analysis(&self) -> Result<crate::summary::Analysis> {
        crate::summary::Analysis::new(
            self.baseline.clone(),
            self.margin,
            self.anchor.as_deref(),
            self.prior,
        )
    }

    /// The variant names, with `all` expanded; `default` when none are given.
    pub fn variant_names(&self, default: &str) -> Vec<String> {
        let given = self
            .variants
            .clone()
            .unwrap_or_else(|| vec![default.into()]);
        let mut names = Vec::new();
        for name in given {
            if name.trim() == "all" {
                names.extend(Rules::single_switch_variants().iter().map(Rules::to_string));
            } else {
                names.push(name);
            }
        }
        names
    }

    /// The experiment of `agon-selfplay run`.
    pub fn run_experiment(&self) -> Result<Experiment> {
        if self.agents.is_some() {
            return Err(Error::Settings(
                "`agents` is a tournament setting; use `agent`, or `white` and `black`".into(),
            ));
        }
        let (first, second) = match (&self.agent, &self.white, &self.black) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(Error::Settings(
                    "give either --agent (both sides) or --white/--black, not both".into(),
                ))
            }
            (Some(a), None, None) => (a.clone(), a.clone()),
            (None, w, b) => (
                w.clone().unwrap_or_else(|| "random".into()),
                b.clone().unwrap_or_else(|| "random".into()),
            ),
        };
        self.experiment(Kind::Run, vec![Pairing { first, second }])
    }

    /// The experiment of `agon-selfplay tournament`: every pair of agents (round robin),
    /// or the first agent against each other one (`gauntlet`).
    pub fn tournament_experiment(&self) -> Result<Experiment> {
        if self.agent.is_some() || self.white.is_some() || self.black.is_some() {
            return Err(Error::Settings(
                "a tournament takes its agents from --agent (repeated) only".into(),
            ));
        }
        let agents = self.agents.clone().unwrap_or_default();
        if agents.len() < 2 {
            return Err(Error::Settings(
                "a tournament needs at least two agents: --agent SPEC --agent SPEC ...".into(),
            ));
        }
        let mut canonical: Vec<String> = Vec::new();
        for spec in &agents {
            let c = crate::experiment::canonical_spec(spec)?;
            if canonical.contains(&c) {
                return Err(Error::Settings(format!("agent `{c}` is given twice")));
            }
            canonical.push(c);
        }
        let mut pairings = Vec::new();
        let gauntlet = self.gauntlet.unwrap_or(false);
        for i in 0..canonical.len() {
            for j in i + 1..canonical.len() {
                if gauntlet && i > 0 {
                    break;
                }
                pairings.push(Pairing {
                    first: canonical[i].clone(),
                    second: canonical[j].clone(),
                });
            }
        }
        self.experiment(Kind::Tournament, pairings)
    }

    /// The opening suite: the file given (read now), else a stored run's suite with any
    /// order or start given on top. Shared by `run`, `tournament`, `ladder` and `explore`.
    pub fn opening_suite(&self) -> Result<Option<OpeningSuite>> {
        if let Some(path) = &self.openings {
            let order = self.openings_order.unwrap_or_default();
            let start = self.openings_start.unwrap_or(0);
            return OpeningSuite::load(Path::new(path), order, start).map(Some);
        }
        match &self.stored_openings {
            Some(stored) => Ok(Some(OpeningSuite {
                order: self.openings_order.unwrap_or(stored.order),
                start: self.openings_start.unwrap_or(stored.start),
                ..stored.clone()
            })),
            None if self.openings_order.is_some() || self.openings_start.is_some() => {
                Err(Error::Settings(
                    "--openings-order and --openings-start need --openings FILE".into(),
                ))
            }
            None => Ok(None),
        }
    }

    fn experiment(&self, kind: Kind, pairings: Vec<Pairing>) -> Result<Experiment> {
        let openings = self.opening_suite()?;
        Experiment {
            kind,
            variants: self.variant_names("standard"),
            pairings,
            games: self.games.unwrap_or(DEFAULT_GAMES),
            opening_plies: opening_plies(self.opening_plies, openings.as_ref()),
            max_plies: self.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            sprt: match &self.sprt {
                Some(text) => Some(text.parse().map_err(Error::Settings)?),
                None => None,
            },
            adjudication: self.adjudication()?,
            openings,
        }
        .validated()
    }

    /// The adjudication rules of these settings (none when neither option is given).
    pub fn adjudication(&self) -> Result<Adjudication> {
        fn parse<T: std::str::FromStr<Err = String>>(text: &Option<String>) -> Result<Option<T>> {
            text.as_deref()
                .map(str::parse)
                .transpose()
                .map_err(Error::Settings)
        }
        Ok(Adjudication {
            draw: parse(&self.draw_adjudication)?,
            resign: parse(&self.resign_adjudication)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_toml_files_hold_the_same_settings() {
        let dir = agon_tests::scratch::ScratchDir::new("selfplay-config");
        let json = dir.join("e.json");
        std::fs::write(
            &json,
            r#"{"variants": ["standard", "intervention=suicide,touch-move=on"], "agent": "random",
                "games": 10, "opening-plies": 2, "max-plies": 300, "seed": 5}"#,
        )
        .unwrap();
        let toml_path = dir.join("e.toml");
        std::fs::write(
            &toml_path,
            "variants = [\"standard\", \"intervention=suicide,touch-move=on\"]\nagent = \"random\"\n\
             games = 10\nopening_plies = 2\nmax-plies = 300\nseed = 5\n",
        )
        .unwrap();
        let a = Settings::load(&json).unwrap();
        let b = Settings::load(&toml_path).unwrap();
        assert_eq!(a, b);
        let e = a.run_experiment().unwrap();
        assert_eq!(
            e.variants,
            ["standard", "intervention=suicide,touch-move=on"]
        );
        assert_eq!(
            (e.games, e.opening_plies, e.max_plies, e.seed),
            (10, 2, 300, 5)
        );
        std::fs::write(&json, r#"{"games": 10, "colour": "white"}"#).unwrap();
        assert!(Settings::load(&json)
            .unwrap_err()
            .to_string()
            .contains("colour"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_command_line_overrides_the_file() {
        let file = Settings {
            games: Some(10),
            seed: Some(3),
            ..Settings::default()
        };
        let cli = Settings {
            games: Some(20),
            ..Settings::default()
        };
        let s = file.overlaid(cli);
        assert_eq!((s.games, s.seed), (Some(20), Some(3)));
    }

    #[test]
    fn all_expands_to_the_single_switch_variants() {
        let s = Settings {
            variants: Some(vec!["all".into()]),
            ..Settings::default()
        };
        let e = s.run_experiment().unwrap();
        assert_eq!(e.variants.len(), Rules::single_switch_variants().len());
        assert_eq!(e.variants[0], "standard");
    }

    #[test]
    fn tournaments_pair_every_two_agents() {
        let s = Settings {
            agents: Some(vec!["random".into(), "random".into()]),
            ..Settings::default()
        };
        assert!(s.tournament_experiment().is_err());
        let s = Settings {
            agents: Some(vec!["random".into()]),
            ..Settings::default()
        };
        assert!(s.tournament_experiment().is_err());
    }

    #[test]
    fn a_gauntlet_pairs_the_first_agent_with_each_other() {
        let agents = ["random", "greedy", "alphabeta:depth=1"]
            .map(String::from)
            .to_vec();
        let s = Settings {
            agents: Some(agents.clone()),
            gauntlet: Some(true),
            ..Settings::default()
        };
        let e = s.tournament_experiment().unwrap();
        let labels: Vec<String> = e.pairings.iter().map(Pairing::label).collect();
        assert_eq!(labels, ["random vs greedy", "random vs alphabeta:depth=1"]);
        let s = Settings {
            agents: Some(agents),
            ..Settings::default()
        };
        assert_eq!(s.tournament_experiment().unwrap().pairings.len(), 3);
    }

    #[test]
    fn sprt_settings_are_checked() {
        let s = Settings {
            sprt: Some("elo0=0,elo1=10,alpha=0.05,beta=0.05".into()),
            ..Settings::default()
        };
        assert_eq!(s.run_experiment().unwrap().sprt.unwrap().elo1, 10.0);
        let s = Settings {
            sprt: Some("elo0=10,elo1=0".into()),
            ..Settings::default()
        };
        assert!(s
            .run_experiment()
            .unwrap_err()
            .to_string()
            .contains("elo0 < elo1"));
    }
}
