//! An exclusive lock on a directory, so that two processes never write one output
//! directory at once.
//!
//! The lock is a `flock` on the file [`LOCK_FILE`] inside the directory, which also holds
//! the holder's pid and host name for the refusal message. The system drops the lock when
//! the holder's process ends in any way (`kill -9` included), so a lock is never stale; the
//! file itself stays (removing it would let two processes lock two different files of the
//! same name).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The lock file inside a locked directory.
pub const LOCK_FILE: &str = ".agon.lock";

/// Why a directory could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds the lock.
    Busy {
        /// The lock file.
        path: PathBuf,
        /// The holder's pid, as it wrote it (`None` if it had not written it yet).
        pid: Option<u32>,
        /// The holder's host name, when it is not this host.
        host: Option<String>,
    },
    /// The lock file could not be created or locked.
    Io {
        /// The lock file.
        path: PathBuf,
        /// The system's error.
        error: io::Error,
    },
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::Busy { pid, host, .. } => {
                f.write_str("in use by another process")?;
                match pid {
                    Some(pid) => write!(f, " (pid {pid}")?,
                    None => f.write_str(" (pid not known yet")?,
                }
                if let Some(host) = host {
                    write!(f, " on {host}")?;
                }
                f.write_str(")")
            }
            LockError::Io { path, error } => {
                write!(f, "cannot lock {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

/// A held lock on a directory; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

impl DirLock {
    /// Locks `dir` (which must exist) or says who holds it. Never waits.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io_error = |error| LockError::Io {
            path: path.clone(),
            error,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {
                let host = host_name().unwrap_or_default();
                let note = format!("{} {host}\n", std::process::id());
                file.set_len(0)
                    .and_then(|()| file.write_all(note.as_bytes()))
                    .map_err(io_error)?;
                Ok(DirLock { _file: file })
            }
            Err(TryLockError::WouldBlock) => {
                let mut note = String::new();
                let _ = (&mut file).take(512).read_to_string(&mut note);
                let mut words = note.split_whitespace();
                let pid = words.next().and_then(|w| w.parse().ok());
                let host = words
                    .next()
                    .filter(|h| host_name().as_deref() != Some(*h))
                    .map(str::to_string);
                Err(LockError::Busy { path, pid, host })
            }
            Err(TryLockError::Error(error)) => Err(io_error(error)),
        }
    }
}

/// This machine's name (Linux), to tell holders on other nodes of a shared file system.
fn host_name() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    let name = name.trim();
    (!name.is_empty() && !name.contains(char::is_whitespace)).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_s_pid_until_the_first_is_dropped() {
        let dir = agon_tests::scratch::ScratchDir::new("files-lock");
        let first = DirLock::acquire(&dir).unwrap();
        // flock locks belong to open files, so a second open in the same process conflicts
        // exactly as another process would.
        match DirLock::acquire(&dir) {
            Err(LockError::Busy { pid, host, .. }) => {
                assert_eq!(pid, Some(std::process::id()));
                assert_eq!(host, None);
            }
            other => panic!("expected Busy, got {other:?}"),
        }
        let message = DirLock::acquire(&dir).unwrap_err().to_string();
        assert_eq!(
            message,
            format!("in use by another process (pid {})", std::process::id())
        );
        drop(first);
        let again = DirLock::acquire(&dir).unwrap();
        drop(again);
        assert!(dir.join(LOCK_FILE).exists());
    }

    #[test]
    fn a_missing_directory_is_an_io_error() {
        let dir = std::env::temp_dir().join("agon-files-lock-missing/nested/deeper");
        assert!(matches!(DirLock::acquire(&dir), Err(LockError::Io { .. })));
    }
}
