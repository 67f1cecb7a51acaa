//! Every output names the build that wrote it: `tool: {name, version, commit}` in each
//! `--json` output of `agon`, in `experiment.json`, `summary.json` and the `--json` outputs
//! of `agon-selfplay`, and the commit in `--version`. The commit is `git rev-parse HEAD` of
//! the sources the binaries were built from, or `unknown` where git cannot tell.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// `git rev-parse HEAD` of this workspace, or `unknown` when it is not a git checkout of
/// its own (a source archive, or git missing).
fn expected_commit() -> String {
    let root = workspace_root();
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    match (
        git(&["rev-parse", "--show-toplevel"]),
        git(&["rev-parse", "HEAD"]),
    ) {
        (Some(top), Some(head)) if canonical(Path::new(&top)) == canonical(&root) => head,
        _ => "unknown".to_string(),
    }
}

fn expected_tool(name: &str) -> Value {
    json!({
        "name": name,
        "version": env!("CARGO_PKG_VERSION"),
        "commit": expected_commit(),
    })
}

#[test]
fn the_commit_is_that_of_the_sources_when_git_knows_it() {
    let commit = expected_commit();
    if commit != "unknown" {
        assert_eq!(commit.len(), 40, "{commit}");
        assert!(commit.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}

#[test]
fn every_json_output_of_agon_names_its_build() {
    let tool = expected_tool("agon");
    let perft = agon_tests::cli::agon(&["perft", "--json", "2"]).ok();
    let show = agon_tests::cli::agon(&["show", "--json"]).ok();
    let moves = agon_tests::cli::agon(&["moves", "--json"]).ok();
    let records = workspace_root().join("tests/data/records/valid");
    let validate = agon_tests::cli::agon(&["validate", "--json", records.to_str().unwrap()]).ok();
    for (command, run, lines) in [
        ("perft", perft, Some(1)),
        ("show", show, Some(1)),
        ("moves", moves, Some(27)),
        ("validate", validate, None),
    ] {
        let objects = run.json_lines();
        if let Some(lines) = lines {
            assert_eq!(objects.len(), lines, "agon {command} --json");
        }
        assert!(!objects.is_empty(), "agon {command} --json printed nothing");
        for object in objects {
            assert_eq!(object["tool"], tool, "agon {command} --json: {object}");
        }
    }
}

#[test]
fn version_shows_the_commit() {
    let line = format!(
        "{} (commit {})\n",
        env!("CARGO_PKG_VERSION"),
        expected_commit()
    );
    assert_eq!(
        agon_tests::cli::agon(&["--version"]).ok().stdout,
        format!("agon {line}")
    );
    assert_eq!(
        agon_tests::selfplay::selfplay(&["--version"]).ok().stdout,
        format!("agon-selfplay {line}")
    );
}

fn read_json(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&agon_tests::selfplay::read(dir, name)).expect("valid JSON")
}

#[test]
fn selfplay_outputs_name_their_build() {
    let tool = expected_tool("agon-selfplay");
    let dir = agon_tests::selfplay::scratch("provenance");
    let out = dir.join("run");
    let run = agon_tests::selfplay::selfplay(&[
        "run",
        "--variant",
        "standard",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ])
    .ok();
    assert_eq!(read_json(&out, "experiment.json")["tool"], tool);
    assert_eq!(read_json(&out, "summary.json")["tool"], tool);
    let printed: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(printed["tool"], tool);

    let tournament = agon_tests::selfplay::selfplay(&[
        "tournament",
        "--agent",
        "random",
        "--agent",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--json",
    ])
    .ok();
    let printed: Value = serde_json::from_str(&tournament.stdout).unwrap();
    assert_eq!(printed["tool"], tool);

    let merged = dir.join("merged");
    agon_tests::selfplay::selfplay(&[
        "merge",
        out.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ])
    .ok();
    assert_eq!(read_json(&merged, "experiment.json")["tool"], tool);
}

#[test]
fn directories_of_older_builds_still_report_and_resume() {
    let dir = agon_tests::selfplay::scratch("provenance-old");
    let out = dir.to_str().unwrap();
    let args = |extra: Option<&'static str>| {
        let mut args = vec![
            "run",
            "--variant",
            "standard",
            "--games",
            "4",
            "--max-plies",
            "60",
            "--out",
            out,
        ];
        args.extend(extra);
        args
    };
    agon_tests::selfplay::selfplay(&args(None)).ok();
    // What a directory written before manifests named their build looks like.
    let mut manifest = read_json(&dir, "experiment.json");
    manifest["tool"] = json!("agon-selfplay");
    std::fs::write(dir.join("experiment.json"), manifest.to_string()).unwrap();
    let report = agon_tests::selfplay::selfplay(&["report", dir.to_str().unwrap(), "--json"]).ok();
    let summary: Value = serde_json::from_str(&report.stdout).unwrap();
    assert_eq!(summary["tool"], expected_tool("agon-selfplay"));
    // A resume by this build says whose games it continues, and keeps that manifest.
    let resume = agon_tests::selfplay::selfplay(&args(Some("--resume"))).ok();
    assert!(
        resume.stderr.contains(&format!(
            "were started by agon-selfplay unknown (commit unknown); this is agon-selfplay {}",
            env!("CARGO_PKG_VERSION")
        )),
        "{}",
        resume.stderr
    );
    assert_eq!(read_json(&dir, "experiment.json")["tool"], "agon-selfplay");
}
