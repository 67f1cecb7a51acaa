//! # agon-files
//!
//! How the agon tools write files, in one place so that every command behaves the same:
//!
//! * [`write_file`] and [`write_file_with`] replace a file atomically (a locked temporary
//!   file in the same directory, `fsync`, a rename, an `fsync` of the directory): a reader
//!   sees the old content or the new, never half of it, and a failed write (a full disk, an
//!   error of the producer) leaves the old file and no temporary file. Symbolic links are
//!   followed, the mode and owner are kept; hard links are kept too (such a file is
//!   rewritten in place); a target that is not a regular file (a device such as
//!   `/dev/null`, a FIFO) is written directly and stays what it is. Temporary files that a
//!   killed writer left behind are removed by the next write into the directory.
//! * [`DirLock`] takes an exclusive lock on a directory (a `flock` on a file inside it),
//!   held until dropped and released by the system when the process dies, so two
//!   processes never write one output directory at once; the refusal names the holder's
//!   pid.

mod lock;
mod output;

pub use lock::{DirLock, LockError, LOCK_FILE};
pub use output::{is_temp_name, write_file, write_file_via_path, write_file_with, TEMP_MARK};
