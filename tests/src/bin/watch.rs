//! Runs a command under a watch for the end-to-end tests (`agon_tests::selfplay::watched_command`)
//! and reports its exact peak resident set.
//!
//! `watch SECONDS MAX_KB PROGRAM [ARGS…]` starts PROGRAM (stdout discarded, stderr
//! inherited) and kills it once it has run SECONDS, once its resident set exceeds MAX_KB,
//! or once this process's standard input sees a byte or its end (the caller's "stop now").
//! Then it prints `peak_kb=K`, with K the largest resident set the kernel saw for the
//! child (`getrusage(RUSAGE_CHILDREN)`), then `code=N` when the child exited with code N
//! or `killed=REASON` (empty when stopped through standard input), a line each.
//!
//! Sampling `/proc/PID/status` from the test process alone cannot give that peak: a child
//! that ends between two samples (a report of 2,000 games takes a few milliseconds) was
//! measured at the 4 kB of a process still being exec'd. This process is the child's only
//! parent, so the kernel's figure is the child's own.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [seconds, max_kb, program, rest @ ..] = &args[..] else {
        eprintln!("usage: watch SECONDS MAX_KB PROGRAM [ARGS...]");
        std::process::exit(2);
    };
    let seconds: u64 = seconds.parse().expect("SECONDS is a number");
    let max_kb: u64 = max_kb.parse().expect("MAX_KB is a number");
    let stop = Arc::new(AtomicBool::new(false));
    let stop_reader = Arc::clone(&stop);
    std::thread::spawn(move || {
        let _ = std::io::stdin().read(&mut [0u8]);
        stop_reader.store(true, Ordering::SeqCst);
    });
    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    let started = Instant::now();
    let mut killed = None;
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        let resident = agon_tests::selfplay::resident_kb(child.id()).unwrap_or(0);
        if resident > max_kb {
            killed = Some(format!("resident set {resident} kB over {max_kb} kB"));
        } else if started.elapsed() > Duration::from_secs(seconds) {
            killed = Some(format!("still running after {seconds} s"));
        } else if stop.load(Ordering::SeqCst) {
            killed = Some(String::new());
        }
        if killed.is_some() {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    println!("peak_kb={}", usage.max_rss());
    match (code, killed) {
        (_, Some(reason)) => println!("killed={reason}"),
        (Some(code), None) => println!("code={code}"),
        (None, None) => println!("code=none"),
    }
}
