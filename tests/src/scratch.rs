//! Scratch directories for tests: one guard, [`ScratchDir`], that creates an empty
//! directory under the system's temporary directory and removes it, with everything in
//! it, when the test ends (passed or panicked), so that a test run leaves nothing in
//! `/tmp`.
//!
//! Set `AGON_KEEP_TEST_DIRS=1` to keep them for reading after a failure; each test's
//! directory is named after the test and the process (`agon-test-PID-NAME`).

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// The environment variable that keeps scratch directories (`1`).
pub const KEEP_VAR: &str = "AGON_KEEP_TEST_DIRS";

/// An empty directory for one test's files, removed when dropped (unless
/// [`KEEP_VAR`] is `1`). It derefs to its [`Path`].
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// `agon-test-PID-NAME` under the temporary directory, emptied (or created).
    /// `name` must be unique among the tests of one test binary.
    pub fn new(name: &str) -> ScratchDir {
        let path = std::env::temp_dir().join(format!("agon-test-{}-{name}", std::process::id()));
        ScratchDir {
            path: crate::run::fresh_dir(&path),
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if std::env::var(KEEP_VAR).as_deref() == Ok("1") {
            eprintln!("{KEEP_VAR}=1: kept {}", self.path.display());
        } else {
            // A directory a test already removed is fine; nothing else can be done here.
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

impl Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for ScratchDir {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_is_empty_and_gone_after_the_guard() {
        let kept = std::env::var(KEEP_VAR).as_deref() == Ok("1");
        let path = {
            let dir = ScratchDir::new("scratch-self-test");
            assert!(dir.is_dir());
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
            std::fs::create_dir(dir.join("nested")).unwrap();
            std::fs::write(dir.join("nested/file"), "x").unwrap();
            dir.to_path_buf()
        };
        assert_eq!(path.exists(), kept, "{}", path.display());
        // A second guard on the same name starts empty again.
        let again = ScratchDir::new("scratch-self-test");
        assert_eq!(std::fs::read_dir(&again).unwrap().count(), 0);
    }
}
