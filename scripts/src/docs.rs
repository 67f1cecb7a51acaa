//! `cargo xtask docs`: run the sections, write their blocks into the documents, copy their
//! images, and check that every block came out well formed.

use crate::blocks::{self, FOOTER_START};
use crate::context::Context;
use crate::sections::{Generated, Section, SECTIONS};
use crate::Result;
use agon_provenance::git::{git, probe};
use clap::Args;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of `cargo xtask docs`.
#[derive(Args, Debug)]
pub struct DocsArgs {
    /// Tiny budgets (2 games per variant and pairing, ply limit 20): checks in seconds
    /// that every block comes out well formed. Needs --out; produces no data.
    #[arg(long, requires = "out")]
    quick: bool,
    /// Write the documents (and images) under DIR/docs/ instead of over docs/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only this section (repeatable; see --list); the other blocks stay as they are.
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,
    /// Where the experiments write their folders [default: results/docs, or OUT/work with
    /// --quick]. A folder that holds the same experiment played by this commit is reused
    /// (and completed if it was interrupted).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Also reuse folders whose games another commit played (the blocks name it).
    #[arg(long)]
    reuse: bool,
    /// Run although files outside docs/ have uncommitted changes (the blocks say so).
    #[arg(long)]
    allow_dirty: bool,
    /// Worker threads for the experiments [default: every core].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Play nothing: check that the blocks in docs/ are all there and well formed.
    #[arg(long, conflicts_with_all = ["quick", "only", "reuse", "out"])]
    check: bool,
    /// List the sections and their blocks.
    #[arg(long)]
    list: bool,
}

/// Runs `cargo xtask docs`.
pub fn run(args: DocsArgs) -> Result<()> {
    let root = workspace_root();
    if args.list {
        for s in SECTIONS {
            println!("{:<18} {:<26} {}", s.name, s.doc, s.about);
            println!("{:<18} blocks: {}", "", s.blocks.join(", "));
        }
        return Ok(());
    }
    if args.check {
        check_documents(&root.join("docs"))?;
        eprintln!(
            "xtask docs: every block of {} documents is well formed",
            documents().len()
        );
        return Ok(());
    }
    let sections = selected(&args.only)?;
    let commit = head_commit(&root);
    if commit.is_none() && !args.quick {
        return Err(
            "cannot tell the commit (no git checkout): generated figures must name \
                    the commit that produced them"
                .into(),
        );
    }
    let dirty = uncommitted_changes(&root)?;
    if !dirty.is_empty() && !args.quick && !args.allow_dirty {
        return Err(format!(
            "uncommitted changes outside docs/ (commit them, so that the figures name the code \
             that produced them, or pass --allow-dirty):\n{}",
            dirty.join("\n")
        )
        .into());
    }
    let commit = commit.unwrap_or_else(|| agon_provenance::UNKNOWN_COMMIT.to_string());
    let selfplay = build_binaries(&root, &commit)?;
    let docs_out = match &args.out {
        Some(out) => out.join("docs"),
        None => root.join("docs"),
    };
    let work = match (&args.work, &args.out) {
        (Some(work), _) => work.clone(),
        (None, Some(out)) if args.quick => out.join("work"),
        _ => root.join("results/docs"),
    };
    let ctx = Context {
        root: root.clone(),
        quick: args.quick,
        work,
        agon: selfplay.with_file_name(format!("agon{}", std::env::consts::EXE_SUFFIX)),
        selfplay,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        commit,
        reuse: args.reuse,
    };
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    let mut images = 0;
    for section in &sections {
        let generated = (section.generate)(&ctx)?;
        if generated.bodies.len() != section.blocks.len() {
            return Err(format!(
                "section {} made {} blocks, not {}",
                section.name,
                generated.bodies.len(),
                section.blocks.len()
            )
            .into());
        }
        let footer = footer(&ctx, &generated, !dirty.is_empty());
        let text = match texts.get(section.doc) {
            Some(text) => text.clone(),
            None => read(&root.join(section.doc))?,
        };
        let mut text = text;
        for (name, body) in section.blocks.iter().zip(&generated.bodies) {
            let body = format!(
                "{}\n{footer}",
                body.trim_end_matches('\n').to_string() + "\n"
            );
            text =
                blocks::replace(&text, name, &body).map_err(|e| format!("{}: {e}", section.doc))?;
        }
        texts.insert(section.doc, text);
        for (source, destination) in &generated.images {
            let to = docs_out.join(destination);
            copy_image(source, &to)?;
            images += 1;
        }
    }
    for (doc, text) in &texts {
        let to = docs_out.join(
            Path::new(doc)
                .strip_prefix("docs")
                .unwrap_or(Path::new(doc)),
        );
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&to, text).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    }
    // The documents just written hold every block of their sections, the ones written now
    // well formed (with --only, the others are as they were: `--check` checks them).
    let written: Vec<&str> = sections
        .iter()
        .flat_map(|s| s.blocks.iter().copied())
        .collect();
    for doc in texts.keys() {
        let name = Path::new(doc)
            .strip_prefix("docs")
            .unwrap_or(Path::new(doc));
        check_document(&docs_out.join(name), doc, &written)?;
    }
    let blocks: usize = sections.iter().map(|s| s.blocks.len()).sum();
    eprintln!(
        "xtask docs: wrote {blocks} blocks in {} documents and {images} images under {}",
        texts.len(),
        docs_out.display()
    );
    Ok(())
}

/// The sections named by `--only` (all without it), in their usual order.
fn selected(only: &[String]) -> Result<Vec<&'static Section>> {
    for name in only {
        if !SECTIONS.iter().any(|s| s.name == name) {
            let names: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
            return Err(format!("no section `{name}`; sections: {}", names.join(", ")).into());
        }
    }
    Ok(SECTIONS
        .iter()
        .filter(|s| only.is_empty() || only.iter().any(|n| n == s.name))
        .collect())
}

/// The provenance line of a section's blocks.
fn footer(ctx: &Context, generated: &Generated, dirty: bool) -> String {
    let mut line = format!("{FOOTER_START}`{}`", ctx.commit);
    if dirty {
        line.push_str(" with uncommitted changes");
    }
    line.push_str(&format!(", from {}", generated.sources));
    let others: BTreeSet<&String> = generated
        .played_at
        .iter()
        .filter(|c| **c != ctx.commit)
        .collect();
    if !others.is_empty() {
        let list: Vec<String> = others.iter().map(|c| format!("`{c}`")).collect();
        line.push_str(&format!("; games played at commit {}", list.join(", ")));
    }
    if ctx.quick {
        line.push_str(" (a quick check with tiny budgets: not data)");
    }
    line.push_str(".</sub>\n");
    line
}

/// The workspace root (this crate lives in `scripts/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("scripts/ is in the workspace")
        .to_path_buf()
}

/// HEAD's commit, if the workspace is a git checkout of its own.
fn head_commit(root: &Path) -> Option<String> {
    let commit = probe(root).commit;
    (commit != agon_provenance::UNKNOWN_COMMIT).then_some(commit)
}

/// Files outside docs/ that differ from HEAD, or are new (`git status` lines).
fn uncommitted_changes(root: &Path) -> Result<Vec<String>> {
    if head_commit(root).is_none() {
        return Ok(Vec::new());
    }
    let status = git(
        root,
        &[
            "status",
            "--porcelain",
            "--untracked-files=all",
            "--",
            ".",
            ":(exclude)docs",
        ],
    )
    .ok_or("git status failed")?;
    Ok(status.lines().map(str::to_string).collect())
}

/// Builds `agon-selfplay` and `agon` in this build's profile and target folder; returns its path
/// after checking that it embeds `commit`.
fn build_binaries(root: &Path, commit: &str) -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().ok_or("no folder for the xtask binary")?;
    let profile = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("release");
    let profile = if profile == "debug" { "dev" } else { profile };
    let target = dir.parent().ok_or("no target folder")?;
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "build",
            "--quiet",
            "-p",
            "agon-selfplay",
            "--bin",
            "agon-selfplay",
            "-p",
            "agon-cli",
            "--bin",
            "agon",
        ])
        .args(["--profile", profile])
        .arg("--target-dir")
        .arg(target)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build of agon-selfplay and agon failed".into());
    }
    let selfplay = dir.join(format!("agon-selfplay{}", std::env::consts::EXE_SUFFIX));
    let version = Command::new(&selfplay)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", selfplay.display()))?;
    let version = String::from_utf8_lossy(&version.stdout);
    if !version.contains(&format!("(commit {commit})")) {
        return Err(format!(
            "{} says `{}`, not commit {commit}",
            selfplay.display(),
            version.trim()
        )
        .into());
    }
    Ok(selfplay)
}

fn read(path: &Path) -> Result<String> {
    Ok(
        std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
    )
}

fn copy_image(from: &Path, to: &Path) -> Result<()> {
    let bytes = std::fs::read(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    if bytes.is_empty() {
        return Err(format!("{} is empty", from.display()).into());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(to, bytes).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    Ok(())
}

/// The documents with generated blocks, each with the blocks it must hold.
fn documents() -> BTreeMap<&'static str, Vec<&'static str>> {
    let mut docs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for s in SECTIONS {
        docs.entry(s.doc).or_default().extend(s.blocks);
    }
    docs
}

/// Checks one document (at `path`, known as `doc` in the registry): exactly the blocks the
/// sections own, and those named in `bodies` well formed (a provenance line last: a block
/// typed by hand, or holding a placeholder, is refused).
fn check_document(path: &Path, doc: &str, bodies: &[&str]) -> Result<()> {
    let text = read(path)?;
    let found = blocks::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let expected = documents().remove(doc).unwrap_or_default();
    for name in &expected {
        if !found.iter().any(|b| b.name == *name) {
            return Err(format!("{}: block `{name}` is missing", path.display()).into());
        }
    }
    for block in &found {
        if !expected.contains(&block.name.as_str()) {
            return Err(format!(
                "{}: line {}: block `{}` belongs to no section (see cargo xtask docs --list)",
                path.display(),
                block.line,
                block.name
            )
            .into());
        }
        if !bodies.contains(&block.name.as_str()) {
            continue;
        }
        blocks::check_body(block).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Checks every document with generated blocks under `docs` (a `docs/` folder).
pub fn check_documents(docs: &Path) -> Result<()> {
    let all: Vec<&str> = SECTIONS
        .iter()
        .flat_map(|s| s.blocks.iter().copied())
        .collect();
    for doc in documents().keys() {
        let name = Path::new(doc)
            .strip_prefix("docs")
            .unwrap_or(Path::new(doc));
        check_document(&docs.join(name), doc, &all)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_docs_hold_every_block_well_formed() {
        check_documents(&workspace_root().join("docs")).unwrap();
    }

    #[test]
    fn blocks_typed_by_hand_or_left_as_placeholders_are_refused() {
        let docs = std::env::temp_dir().join(format!("xtask-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&docs);
        for doc in documents().keys() {
            let name = Path::new(doc).strip_prefix("docs").unwrap();
            let to = docs.join(name);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(workspace_root().join(doc), &to).unwrap();
        }
        let path = docs.join("selfplay.md");
        let text = read(&path).unwrap();
        let with = |body: &str| blocks::replace(&text, "variants-table", body).unwrap();
        check_documents(&docs).unwrap();
        for body in [
            "a table typed by hand\n",
            "*Not generated yet: `cargo xtask docs --only variants` writes this block.*\n",
        ] {
            std::fs::write(&path, with(body)).unwrap();
            let error = check_documents(&docs).unwrap_err().to_string();
            assert!(
                error.contains("selfplay.md") && error.contains("provenance line"),
                "{error}"
            );
        }
        std::fs::remove_dir_all(&docs).unwrap();
    }

    #[test]
    fn footers_name_the_commit_the_sources_and_any_other_commit_that_played() {
        let commit = "0123456789abcdef0123456789abcdef01234567";
        let other = "89abcdef0123456789abcdef0123456789abcdef";
        let ctx = |quick| Context {
            root: workspace_root(),
            quick,
            work: PathBuf::new(),
            selfplay: PathBuf::new(),
            agon: PathBuf::new(),
            threads: 1,
            commit: commit.into(),
            reuse: false,
        };
        let generated = Generated {
            sources: "`agon-selfplay run --config x.toml`".into(),
            played_at: vec![commit.into(), other.into(), other.into()],
            ..Generated::default()
        };
        assert_eq!(
            footer(&ctx(false), &generated, false),
            format!(
                "{FOOTER_START}`{commit}`, from `agon-selfplay run --config x.toml`; games \
                 played at commit `{other}`.</sub>\n"
            )
        );
        let marked = footer(&ctx(true), &generated, true);
        assert!(marked.contains(&format!("`{commit}` with uncommitted changes, from")));
        assert!(marked.ends_with("(a quick check with tiny budgets: not data).</sub>\n"));
        for footer in [footer(&ctx(false), &generated, false), marked] {
            let block = blocks::Block {
                name: "x".into(),
                line: 1,
                body: format!("text\n\n{footer}"),
            };
            blocks::check_body(&block).unwrap();
        }
    }

    #[test]
    fn every_section_has_blocks_with_unique_names() {
        let mut names = BTreeSet::new();
        for s in SECTIONS {
            assert!(!s.blocks.is_empty(), "{}", s.name);
            for b in s.blocks {
                assert!(names.insert(*b), "block {b} twice");
            }
        }
        assert!(selected(&["nope".into()]).is_err());
        assert_eq!(selected(&["tuning".into()]).unwrap()[0].name, "tuning");
    }
}
