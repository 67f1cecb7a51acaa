//! `index.html`: the exploration's report as one self-contained page (inline CSS, inline
//! SVG charts, a few lines of inline script; no external file, no network): a ranking
//! table that sorts by fairness, decisiveness, depth and length, the ranking chart, the
//! chart of each switch's effect, the rounds of the race, and one card per rule set.

use super::report::{ExploreReport, RuleSetCard};
use crate::charts::explore::{card_svg, effects_svg, ranking_svg, subject};
use crate::charts::ladder::ladder_svg;
use crate::error::Result;
use crate::ladder::slug;
use crate::summary::Summary;
use crate::table::{fixed, percent, percents};
use std::fmt::Write;

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A chart in a figure, with a caption.
fn figure(id: &str, svg: &str, caption: &str) -> String {
    format!(
        "<figure class=\"chart\" id=\"{}\">\n{}\n<figcaption>{}</figcaption>\n</figure>\n",
        escape(id),
        svg.trim(),
        escape(caption)
    )
}

/// A number for a `data-value` attribute (empty when absent).
fn data(value: Option<f64>) -> String {
    value.map_or(String::new(), |v| format!("{v}"))
}

const STYLE: &str = r#"
body { font-family: sans-serif; margin: 0 auto; max-width: 1200px; padding: 1em 2em; color: #282828; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.25em 0.6em; text-align: right; border-bottom: 1px solid #eee; }
th:first-child, td:first-child { text-align: left; }
th[data-key] { cursor: pointer; user-select: none; }
th[data-key]:hover { background: #f3f3f3; }
th.sorted::after { content: " \2193"; } th.sorted.up::after { content: " \2191"; }
.sorts button { margin-right: 0.5em; }
figure.chart { margin: 1em 0; } figure.chart svg { width: 100%; height: auto; display: block; }
figcaption { font-size: 0.85em; color: #555; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 1em; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 0.5em 1em; }
.card h3 { font-size: 1em; margin: 0.3em 0; word-break: break-all; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1em 1em; font-size: 0.85em; }
.card dt { color: #555; } .card dd { margin: 0; }
.verdict { font-weight: bold; }
.favours-white, .favours-black { color: #b03a00; } .balanced { color: #1b6e20; }
.drawish { color: #6b6b6b; } .survivor { color: #1b4f9c; }
"#;

const SCRIPT: &str = r#"
(function () {
  var table = document.getElementById('ranking-table');
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function sortBy(key, up) {
    var col = -1;
    for (var i = 0; i < heads.length; i++) {
      heads[i].classList.remove('sorted', 'up');
      if (heads[i].dataset.key === key) { col = i; }
    }
    if (col < 0) { return; }
    heads[col].classList.add('sorted');
    if (up) { heads[col].classList.add('up'); }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.value, y = b.cells[col].dataset.value;
      var numeric = heads[col].dataset.type === 'number';
      if (x === '' && y !== '') { return 1; }
      if (y === '' && x !== '') { return -1; }
      var d = numeric ? parseFloat(x) - parseFloat(y) : (x < y ? -1 : x > y ? 1 : 0);
      if (d === 0) { d = a.cells[0].dataset.value < b.cells[0].dataset.value ? -1 : 1; }
      return up ? -d : d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.dataset.sortedBy = key;
  }
  for (var i = 0; i < heads.length; i++) {
    heads[i].addEventListener('click', function (e) {
      var h = e.currentTarget;
      sortBy(h.dataset.key, h.classList.contains('sorted') && !h.classList.contains('up'));
    });
  }
  var buttons = document.querySelectorAll('.sorts button');
  for (var j = 0; j < buttons.length; j++) {
    buttons[j].addEventListener('click', function (e) { sortBy(e.currentTarget.dataset.key, false); });
  }
  sortBy('fairness', false);
  document.body.dataset.ready = 'true';
})();
"#;

/// The ranking table's columns: heading, sort key (`None`: not sortable), numeric.
const COLUMNS: [(&str, Option<&str>, bool); 11] = [
    ("rule set", Some("name"), false),
    ("pairs", Some("pairs"), true),
    ("White score [95%]", Some("fairness"), true),
    ("decisive", Some("decisiveness"), true),
    ("undecided", Some("undecided"), true),
    ("adjudicated", Some("adjudicated"), true),
    ("mean length", Some("length"), true),
    ("depth", Some("depth"), true),
    ("fairness", Some("fairness-verdict"), false),
    ("decisiveness", Some("decisiveness-verdict"), false),
    ("status", Some("status"), false),
];

fn ranking_row(c: &RuleSetCard) -> String {
    let cells: [(String, String); 11] = [
        (
            c.name.clone(),
            format!(
                "<a href=\"#card-{}\">{}</a>",
                escape(&slug(&c.name)),
                escape(&c.name)
            ),
        ),
        (c.pairs.to_string(), c.pairs.to_string()),
        (
            // Fairness sorts by the distance of White's score from one half.
            data(c.white_score.map(|s| (s - 0.5).abs())),
            format!(
                "{} {}",
                percent(c.white_score),
                percents(c.white_score_interval)
            ),
        ),
        // Decisiveness sorts most decisive first.
        (data(c.decisive_rate.map(|r| -r)), percent(c.decisive_rate)),
        (data(c.undecided_rate), percent(c.undecided_rate)),
        (data(c.adjudicated_rate), percent(c.adjudicated_rate)),
        (
            data(c.mean_length),
            c.mean_length.map_or("-".into(), |l| fixed(l, 1)),
        ),
        // Depth sorts deepest first.
        (
            data(c.ladder_depth.map(|d| -f64::from(d))),
            c.ladder_depth.map_or("-".into(), |d| d.to_string()),
        ),
        (
            c.fairness.name().to_string(),
            format!("<span class=\"verdict {0}\">{0}</span>", c.fairness.name()),
        ),
        (
            c.decisiveness.name().to_string(),
            format!(
                "<span class=\"verdict {0}\">{0}</span>",
                c.decisiveness.name()
            ),
        ),
        (c.status.clone(), escape(&c.status)),
    ];
    let mut row = String::from("<tr>");
    for (k, (value, shown)) in cells.iter().enumerate() {
        let shown = if k == 0 || k == 8 || k == 9 {
            shown.clone()
        } else {
            escape(shown)
        };
        let _ = write!(row, "<td data-value=\"{}\">{shown}</td>", escape(value));
    }
    row.push_str("</tr>\n");
    row
}

fn card(c: &RuleSetCard, chart: &str, ladder: Option<String>) -> String {
    let mut out = format!(
        "<article class=\"card\" id=\"card-{}\">\n<h3>{}</h3>\n<dl>\n",
        escape(&slug(&c.name)),
        escape(&c.name)
    );
    let status_class = if c.status == "survivor" {
        "survivor"
    } else {
        ""
    };
    let entries: Vec<(&str, String)> = vec![
        ("switches", escape(&c.switches.join(", "))),
        (
            "verdicts",
            format!(
                "<span class=\"verdict {0}\">{0}</span>, <span class=\"verdict {1}\">{1}</span>",
                c.fairness.name(),
                c.decisiveness.name()
            ),
        ),
        (
            "status",
            format!(
                "<span class=\"{status_class}\">{}</span>",
                escape(&c.status)
            ),
        ),
        ("pairs", format!("{} ({} games)", c.pairs, c.games)),
        (
            "White's score",
            format!(
                "{} {}; first-move Elo {}",
                percent(c.white_score),
                percents(c.white_score_interval),
                c.first_move_elo.map_or("-".into(), |e| fixed(e, 0))
            ),
        ),
        (
            "decisive",
            format!(
                "{} {}",
                percent(c.decisive_rate),
                percents(c.decisive_interval)
            ),
        ),
        (
            "draws / undecided / adjudicated",
            format!(
                "{} / {} / {}",
                percent(c.draw_rate),
                percent(c.undecided_rate),
                percent(c.adjudicated_rate)
            ),
        ),
        (
            "mean length",
            c.mean_length.map_or("-".into(), |l| {
                format!("{} plies {}", fixed(l, 1), interval_plies(c))
            }),
        ),
        (
            "Ludii",
            format!(
                "Balance {}, Completion {}, Drawishness {}, BranchingFactor {}",
                c.ludii.balance.map_or("-".into(), |v| fixed(v, 3)),
                c.ludii.completion.map_or("-".into(), |v| fixed(v, 3)),
                c.ludii.drawishness.map_or("-".into(), |v| fixed(v, 3)),
                c.ludii.branching_factor.map_or("-".into(), |v| fixed(v, 2))
            ),
        ),
        (
            "ladder depth",
            c.ladder_depth
                .map_or("not measured".into(), |d| d.to_string()),
        ),
    ];
    for (term, value) in entries {
        let _ = writeln!(out, "<dt>{term}</dt><dd>{value}</dd>");
    }
    out.push_str("</dl>\n");
    out.push_str(&figure(
        &format!("card-chart-{}", slug(&c.name)),
        chart,
        "Outcomes: shares of the games, and White's score with its 95% interval.",
    ));
    if let Some(svg) = ladder {
        out.push_str(&figure(
            &format!("ladder-chart-{}", slug(&c.name)),
            &svg,
            "Skill ladder: each level against the level with half its budget.",
        ));
    }
    out.push_str("</article>\n");
    out
}

fn interval_plies(c: &RuleSetCard) -> String {
    c.mean_length_interval.map_or(String::new(), |i| {
        format!("[{}, {}]", fixed(i.low, 1), fixed(i.high, 1))
    })
}

/// The page of `report`; `summary` holds the race's statistics (one group per rule set)
/// for the card charts.
pub fn page(
    report: &ExploreReport,
    summary: &Summary,
    _ladder: Option<&Summary>,
) -> Result<String> {
    let subject = subject(report);
    let spec = &report.explore;
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>agon-selfplay explore: {} rule sets</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        report.rule_sets.len()
    );
    let _ = write!(
        html,
        "<header>\n<h1>Which reading of the rules? {} rule sets raced to a verdict</h1>\n\
         <p>{}.</p>\n<p>Agent <code>{}</code>; budget {} games, {} played in {} round(s){}; \
         seed {}; {}{} random opening plies; ply limit {}{}. Verdicts: balanced within ±{} \
         points of White's score, drawish below {}% decisive games, each by a sequential \
         test with error rates {} and {}.{}</p>\n</header>\n",
        report.rule_sets.len(),
        escape(&subject),
        escape(&spec.agent),
        spec.budget,
        report.games,
        report.rounds.len(),
        if report.ladder_games > 0 {
            format!(" and {} ladder games", report.ladder_games)
        } else {
            String::new()
        },
        spec.seed,
        spec.openings
            .as_ref()
            .map_or(String::new(), |suite| format!(
            "each pair from an opening of <code>{}</code> ({} openings, {} order from {}), then ",
            escape(&suite.file),
            suite.openings.len(),
            suite.order,
            suite.start
        )),
        spec.opening_plies,
        spec.max_plies,
        match (&spec.adjudication.draw, &spec.adjudication.resign) {
            (None, None) => String::new(),
            (d, r) => format!(
                "; adjudication{}{}",
                d.map_or(String::new(), |d| format!(" draw {d}")),
                r.map_or(String::new(), |r| format!(" resign {r}"))
            ),
        },
        fixed(spec.tests.margin * 100.0, 1),
        fixed(spec.tests.drawish * 100.0, 0),
        spec.tests.alpha,
        spec.tests.beta,
        if report.finished {
            ""
        } else {
            " <strong>The exploration is not finished: these numbers are provisional.</strong>"
        },
    );
    html.push_str(
        "<nav><a href=\"#ranking\">ranking</a> · <a href=\"#effects\">switch effects</a> · \
         <a href=\"#rounds\">rounds</a> · <a href=\"#cards\">report cards</a></nav>\n",
    );
    html.push_str(
        "<section id=\"ranking\">\n<h2>Ranking</h2>\n<p class=\"sorts\">Sort by \
         <button data-key=\"fairness\">fairness</button><button data-key=\"decisiveness\">\
         decisiveness</button><button data-key=\"depth\">depth</button>\
         <button data-key=\"length\">length</button> (or click a column heading; again to \
         reverse).</p>\n<table id=\"ranking-table\">\n<thead><tr>",
    );
    for (heading, key, numeric) in COLUMNS {
        let _ = write!(
            html,
            "<th data-key=\"{}\" data-type=\"{}\">{}</th>",
            key.unwrap_or(""),
            if numeric { "number" } else { "text" },
            escape(heading)
        );
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for c in &report.rule_sets {
        html.push_str(&ranking_row(c));
    }
    html.push_str("</tbody>\n</table>\n");
    html.push_str(&figure(
        "chart-ranking",
        &ranking_svg(report)?,
        "Every rule set, closest to balance first.",
    ));
    html.push_str("</section>\n<section id=\"effects\">\n<h2>What each switch does</h2>\n");
    match effects_svg(report)? {
        Some(svg) => html.push_str(&figure(
            "chart-effects",
            &svg,
            "Each switch value against the switch's first value, averaged over the other \
             switches.",
        )),
        None => {
            html.push_str("<p>No switch varies in two rule sets that differ in it alone.</p>\n")
        }
    }
    html.push_str("</section>\n<section id=\"rounds\">\n<h2>The race</h2>\n<table>\n\
                   <thead><tr><th>round</th><th>rule sets</th><th>games</th><th>left after it</th></tr></thead>\n<tbody>\n");
    for r in &report.rounds {
        let left: Vec<String> = r
            .left
            .iter()
            .map(|&b| {
                let c = &report.rule_sets[b];
                format!(
                    "<a href=\"#card-{}\">{}</a> ({})",
                    escape(&slug(&c.name)),
                    escape(&c.name),
                    escape(c.tests.as_ref().map_or("", |v| v.reason()))
                )
            })
            .collect();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.plan.number,
            r.live,
            r.games,
            if left.is_empty() {
                "-".to_string()
            } else {
                left.join(", ")
            }
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n<section id=\"cards\">\n<h2>Report cards</h2>\n<div class=\"cards\">\n");
    for c in &report.rule_sets {
        let group = summary
            .groups
            .iter()
            .find(|g| g.variant == c.name)
            .expect("a group per rule set");
        let chart = card_svg(group)?;
        let ladder = match report.ladders.iter().find(|l| l.variant == c.name) {
            Some(l) => Some(ladder_svg(l, &subject)?),
            None => None,
        };
        html.push_str(&card(c, &chart, ladder));
    }
    html.push_str(
        "</div>\n</section>\n<footer><p>Written by agon-selfplay explore from the \
                   games alone (the same games give the same page).</p></footer>\n",
    );
    let _ = write!(html, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    Ok(html)
}
