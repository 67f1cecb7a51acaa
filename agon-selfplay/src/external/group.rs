//! Killing an engine's process group: the engine and every process it started that stayed
//! in its group (engines are started as leaders of a group of their own, see
//! [`super::client`]), so that no child of an engine outlives it.
//!
//! The standard library can kill a child but not a process group, and the workspace
//! forbids `unsafe` code (a `kill(2)` call through libc), so the system's `kill` program
//! does it: `kill -KILL -- -PGID`. Where it is missing, the engine itself is still killed
//! by the caller; only its children could remain.

use std::process::{Command, Stdio};

/// Sends `SIGKILL` to the process group whose leader had the pid `leader` (our child, not
/// yet reaped, so the group id cannot have been reused).
pub(super) fn kill(leader: u32) {
    // -1 would mean every process we may signal, 0 our own group: never those.
    if cfg!(unix) && leader > 1 {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{leader}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
