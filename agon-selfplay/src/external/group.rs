//! Killing an engine's process group: the engine and every process it started that stayed
//! in its group (engines are started as leaders of a group of their own, see
//! [`super::client`]), so that no child of an engine outlives it.
//!
//! This is the crate's one use of `unsafe`: the standard library can kill a child but not
//! a process group, and `kill(2)` with a negative pid is the system's way to do it.

/// Sends `SIGKILL` to the process group whose leader had the pid `leader`.
#[cfg(unix)]
#[allow(unsafe_code)]
pub(super) fn kill(leader: u32) {
    let Ok(group) = libc::pid_t::try_from(leader) else {
        return;
    };
    // -1 would mean every process we may signal, 0 our own group: never those.
    if group <= 1 {
        return;
    }
    // SAFETY: kill(2) takes two integers and reads or writes no memory of this process;
    // the only effect is the signal. A negative pid names the process group `group`, whose
    // leader is our (not yet reaped) child, so the group id cannot have been reused.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Without process groups there is only the engine itself to kill (done by the caller).
#[cfg(not(unix))]
pub(super) fn kill(_leader: u32) {}
