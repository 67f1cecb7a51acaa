//! `agon-selfplay plan`: power and sample size of the first-move test.

use super::print;
use agon_selfplay::stats::elo_from_score;
use agon_selfplay::stats::power::{
    detectable_effect, pair_sd, pairs_for_equivalence, pairs_to_detect,
};
use agon_selfplay::table::{fixed, signed};
use agon_selfplay::{Error, Result};
use clap::Args;
use serde::Serialize;

/// Arguments of `plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The first-move advantage to detect, in points of White's score (0.02: 52%).
    #[arg(long, value_name = "SHARE", required_unless_present_any = ["games", "margin"])]
    effect: Option<f64>,
    /// Instead: how large an advantage this many games per variant detect.
    #[arg(long, value_name = "N", conflicts_with = "effect")]
    games: Option<u64>,
    /// Also (or instead): games needed to show balance within ±MARGIN (two one-sided
    /// tests) when there is no advantage.
    #[arg(long, value_name = "SHARE")]
    margin: Option<f64>,
    /// The expected share of games that are not won (draws and ply-limit games).
    #[arg(long, value_name = "SHARE", default_value_t = 0.5)]
    draw_rate: f64,
    /// The chance of detecting the effect (or showing the balance).
    #[arg(long, value_name = "P", default_value_t = 0.8)]
    power: f64,
    /// Significance level.
    #[arg(long, value_name = "A", default_value_t = 0.05)]
    alpha: f64,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Plan {
    draw_rate: f64,
    power: f64,
    alpha: f64,
    pair_sd: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    detect: Option<Detect>,
    #[serde(skip_serializing_if = "Option::is_none")]
    equivalence: Option<Equivalence>,
}

#[derive(Serialize)]
struct Detect {
    effect: f64,
    elo: f64,
    pairs: u64,
    games: u64,
}

#[derive(Serialize)]
struct Equivalence {
    margin: f64,
    pairs: u64,
    games: u64,
}

fn share(name: &str, value: f64, open_top: f64) -> Result<f64> {
    if value > 0.0 && value < open_top {
        Ok(value)
    } else {
        Err(Error::Settings(format!(
            "--{name} must lie strictly between 0 and {open_top}, not {value}"
        )))
    }
}

pub fn plan(args: PlanArgs) -> Result<()> {
    if !(0.0..1.0).contains(&args.draw_rate) {
        return Err(Error::Settings(format!(
            "--draw-rate must lie in [0, 1), not {}",
            args.draw_rate
        )));
    }
    let power = share("power", args.power, 1.0)?;
    let alpha = share("alpha", args.alpha, 1.0)?;
    let detect = match (args.effect, args.games) {
        (Some(effect), _) => {
            let effect = share("effect", effect, 0.5)?;
            let pairs = pairs_to_detect(effect, args.draw_rate, alpha, power);
            Some(Detect {
                effect,
                elo: elo_from_score(0.5 + effect).unwrap_or(f64::NAN),
                pairs,
                games: 2 * pairs,
            })
        }
        (None, Some(games)) => {
            let pairs = (games / 2).max(1);
            let effect = detectable_effect(pairs, args.draw_rate, alpha, power);
            Some(Detect {
                effect,
                elo: elo_from_score((0.5 + effect).min(0.999_999)).unwrap_or(f64::NAN),
                pairs,
                games: 2 * pairs,
            })
        }
        (None, None) => None,
    };
    let equivalence = match args.margin {
        Some(margin) => {
            let margin = share("margin", margin, 0.5)?;
            let pairs = pairs_for_equivalence(margin, args.draw_rate, alpha, power);
            Some(Equivalence {
                margin,
                pairs,
                games: 2 * pairs,
            })
        }
        None => None,
    };
    let plan = Plan {
        draw_rate: args.draw_rate,
        power,
        alpha,
        pair_sd: pair_sd(args.draw_rate),
        detect,
        equivalence,
    };
    if args.json {
        return print(&(serde_json::to_string_pretty(&plan).expect("serialisable") + "\n"));
    }
    let mut out = format!(
        "Assuming {}% of games not won (draws and ply-limit games) and independent games: \
         a colour-swapped pair's mean score has standard deviation {} near balance.\n",
        fixed(plan.draw_rate * 100.0, 1),
        fixed(plan.pair_sd, 4)
    );
    let pct = |x: f64| fixed(x * 100.0, 0);
    if let Some(d) = &plan.detect {
        let what = if args.games.is_some() {
            format!(
                "{} games ({} pairs) per variant detect a first-move advantage of {} points \
                 (White's score {}%, {} Elo)",
                d.games,
                d.pairs,
                fixed(d.effect * 100.0, 2),
                fixed(50.0 + d.effect * 100.0, 2),
                signed(d.elo)
            )
        } else {
            format!(
                "To detect a first-move advantage of {} points (White's score {}%, {} Elo) \
                 you need {} pairs ({} games) per variant",
                fixed(d.effect * 100.0, 2),
                fixed(50.0 + d.effect * 100.0, 2),
                signed(d.elo),
                d.pairs,
                d.games
            )
        };
        out.push_str(&format!(
            "{what}, with {}% power at the {}% level (two-sided).\n",
            pct(power),
            pct(alpha)
        ));
    }
    if let Some(e) = &plan.equivalence {
        out.push_str(&format!(
            "To show balance within ±{} points (two one-sided tests at {}%) with {}% power \
             when there is no advantage: {} pairs ({} games) per variant.\n",
            fixed(e.margin * 100.0, 2),
            pct(alpha),
            pct(power),
            e.pairs,
            e.games
        ));
    }
    print(&out)
}
