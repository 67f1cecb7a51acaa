//! Perft suites as data: the `.perft` files of `tests/data/perft` (see its README).

use agon_core::Rules;
use std::path::Path;

/// One case of a suite: a position under a rule set and its leaf counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The file and the case's `id`, for messages.
    pub name: String,
    /// The rule set.
    pub rules: Rules,
    /// The position string.
    pub position: String,
    /// `(depth, nodes)` pairs, in the order given.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a suite: cases separated by blank lines, `#` comment lines, each case `id`,
/// `variant`, `position`, then `perft DEPTH NODES` lines. Panics with the file and line
/// on anything else (a broken suite is a broken test).
pub fn read_suite(path: &Path) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut cases = Vec::new();
    let mut fields: Vec<(usize, &str, &str)> = Vec::new();
    let lines = text
        .lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    for (number, line) in lines.chain([(0, "")]) {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !fields.is_empty() {
                cases.push(case(&file, &std::mem::take(&mut fields)));
            }
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        fields.push((number, key, value.trim()));
    }
    cases
}

fn case(file: &str, fields: &[(usize, &str, &str)]) -> PerftCase {
    let at = |n: usize| format!("{file}:{n}");
    let value = |key: &str, index: usize| match fields.get(index) {
        Some(&(_, k, v)) if k == key => v,
        Some(&(n, k, _)) => panic!("{}: expected `{key}`, found `{k}`", at(n)),
        None => panic!("{}: the case ends before `{key}`", at(fields[0].0)),
    };
    let id = value("id", 0);
    let variant = value("variant", 1);
    let rules = variant
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", at(fields[1].0)));
    let position = value("position", 2).to_string();
    let counts = fields[3..]
        .iter()
        .map(|&(n, key, rest)| {
            let parsed = (key == "perft")
                .then(|| rest.split_once(' '))
                .flatten()
                .and_then(|(d, nodes)| Some((d.parse().ok()?, nodes.trim().parse().ok()?)));
            parsed.unwrap_or_else(|| panic!("{}: expected `perft DEPTH NODES`", at(n)))
        })
        .collect();
    PerftCase {
        name: format!("{file} {id}"),
        rules,
        position,
        counts,
    }
}

/// Every suite of a folder (`*.perft`), in file-name order.
pub fn read_suites(dir: &Path) -> Vec<PerftCase> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    files.iter().flat_map(|f| read_suite(f)).collect()
}
