//! Opening inputs (a file or stdin for `-`) and finding record files in folders. Output
//! files are written by agon-files (atomically, keeping devices, links, owner and mode).

use crate::error::{describe_io, CliError};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// An opened input.
pub enum Input {
    /// Standard input (the name `-`).
    Stdin(io::Stdin),
    /// A file.
    File(File),
}

/// Whether a path names stdin.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Opens a file, or stdin for `-`, with an error that names the file.
pub fn open_input(path: &Path) -> Result<Input, CliError> {
    if is_stdin(path) {
        return Ok(Input::Stdin(io::stdin()));
    }
    if path.is_dir() {
        return Err(CliError::with_hint(
            format!("{} is a folder, not a record file", path.display()),
            format!(
                "pass the files inside it, e.g. `{}/*.agn`",
                path.display().to_string().trim_end_matches('/')
            ),
        ));
    }
    File::open(path).map(Input::File).map_err(|e| {
        CliError::new(format!(
            "cannot open {}: {}",
            path.display(),
            describe_io(&e)
        ))
    })
}

/// The record files named on the command line: a folder stands for every `.agn` file in
/// it and its subfolders (sorted by path); no name at all means stdin.
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        return vec![PathBuf::from("-")];
    }
    expand_folders(paths)
}

/// The files named: a folder stands for every `.agn` file in it and its subfolders (sorted
/// by path).
pub fn expand_folders(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            collect_records(path, &mut found);
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    out
}

fn collect_records(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        // Unreadable folders are reported when opened as files.
        found.push(dir.to_path_buf());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_records(&path, found);
        } else if path.extension().is_some_and(|e| e == "agn") {
            found.push(path);
        }
    }
}
