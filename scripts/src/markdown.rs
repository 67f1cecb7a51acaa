//! Markdown tables and the number formats of the generated blocks.

/// A Markdown table.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these columns; a column whose name starts with `>` is right-aligned
    /// (the `>` is not shown).
    pub fn new(columns: &[&str]) -> Table {
        Table {
            header: columns
                .iter()
                .map(|c| c.trim_start_matches('>').to_string())
                .collect(),
            right: columns.iter().map(|c| c.starts_with('>')).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (as many cells as columns).
    pub fn row(&mut self, cells: Vec<String>) {
        assert_eq!(cells.len(), self.header.len(), "a row of {cells:?}");
        self.rows.push(cells);
    }

    /// The table's lines, each ending in a newline; `|` inside cells is escaped.
    pub fn render(&self) -> String {
        let line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut out = line(&self.header);
        let rule: Vec<String> = self
            .right
            .iter()
            .map(|&r| if r { "---:" } else { "---" }.to_string())
            .collect();
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// A whole number with thin groups of three digits: `11 000`, `999`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A share as a percentage with one decimal: `51.9%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The ends of an interval of shares, in percent: `[49.8, 54.1]`.
pub fn percent_interval(low: f64, high: f64) -> String {
    format!("[{:.1}, {:.1}]", 100.0 * low, 100.0 * high)
}

/// A signed whole number of Elo: `+14`, `-5`, `0`.
pub fn elo(x: f64) -> String {
    let rounded = x.round();
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded:+.0}")
    }
}

/// An Elo interval: `[-1, +29]`.
pub fn elo_interval(low: f64, high: f64) -> String {
    format!("[{}, {}]", elo(low), elo(high))
}

/// A p-value with two significant digits, down to `<0.001`.
pub fn p_value(p: f64) -> String {
    if p >= 0.995 {
        "1.00".to_string()
    } else if p >= 0.1 {
        format!("{p:.2}")
    } else if p >= 0.01 {
        format!("{p:.3}")
    } else if p >= 0.001 {
        format!("{p:.4}")
    } else {
        "<0.001".to_string()
    }
}

/// A number with `decimals` decimals, without a trailing `.0` for whole values when
/// `decimals` is 1 (`342.5`, `250`).
pub fn number(x: f64, decimals: usize) -> String {
    if decimals == 1 && x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.decimals$}")
    }
}

/// A missing value.
pub const NONE: &str = "-";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_render_aligned_and_escaped() {
        let mut t = Table::new(&["name", ">n"]);
        t.row(vec!["a|b".into(), "1".into()]);
        assert_eq!(t.render(), "| name | n |\n| --- | ---: |\n| a\\|b | 1 |\n");
    }

    #[test]
    fn numbers_read_as_in_the_docs() {
        assert_eq!(
            [
                count(7),
                count(999),
                count(1000),
                count(11000),
                count(1234567)
            ],
            ["7", "999", "1 000", "11 000", "1 234 567"]
        );
        assert_eq!(percent(0.519), "51.9%");
        assert_eq!(percent_interval(0.4981, 0.5412), "[49.8, 54.1]");
        assert_eq!(
            [elo(14.4), elo(-5.2), elo(0.3), elo(-0.4)],
            ["+14", "-5", "0", "0"]
        );
        assert_eq!(
            [
                p_value(1.0),
                p_value(0.31),
                p_value(0.074),
                p_value(0.0012),
                p_value(1e-7)
            ],
            ["1.00", "0.31", "0.074", "0.0012", "<0.001"]
        );
        assert_eq!(
            [number(342.5, 1), number(250.0, 1), number(2.345, 2)],
            ["342.5", "250", "2.35"]
        );
    }
}
