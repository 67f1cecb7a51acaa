//! Saving records from the page into the server's save folder: a plain file name (no
//! folders), `.agn` added when missing, never over an existing file unless asked, written
//! atomically.

use super::error::{ApiError, ApiResult};
use crate::error::describe_io;
use std::path::Path;

/// The longest file name accepted.
const MAX_NAME: usize = 200;

/// Checks a file name from the page and adds `.agn` when it has no such extension.
pub fn file_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    let refuse = |why: &str| {
        Err(ApiError::invalid(format!(
            "`{name}` cannot be a record's file name: {why}"
        )))
    };
    if name.is_empty() {
        return refuse("it is empty");
    }
    if name.len() > MAX_NAME {
        return refuse("it is too long");
    }
    if name.contains(['/', '\\']) || name.chars().any(char::is_control) {
        return refuse("give a file name only; records are saved in the server's save folder");
    }
    if name.starts_with('.') {
        return refuse("it would be a hidden file");
    }
    if name.to_ascii_lowercase().ends_with(".agn") {
        Ok(name.to_string())
    } else {
        Ok(format!("{name}.agn"))
    }
}

/// Writes a record atomically; refuses to replace a file unless `overwrite`.
pub fn write(path: &Path, bytes: &[u8], overwrite: bool) -> ApiResult<()> {
    if !overwrite && path.exists() {
        return Err(ApiError::conflict(format!(
            "{} exists; choose another name or ask to overwrite it",
            path.display()
        )));
    }
    agon_files::write_file(path, bytes).map_err(|e| {
        ApiError::internal(format!(
            "cannot save {}: {}",
            path.display(),
            describe_io(&e)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_in_the_save_folder() {
        assert_eq!(file_name("game").unwrap(), "game.agn");
        assert_eq!(file_name(" my game.AGN ").unwrap(), "my game.AGN");
        for bad in ["", "../x", "a/b", "a\\b", ".hidden", "x\ny"] {
            assert!(file_name(bad).is_err(), "{bad:?}");
        }
    }
}
