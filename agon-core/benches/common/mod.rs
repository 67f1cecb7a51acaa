//! What the benchmarks share: a clock of wall and CPU time.

use std::time::{Duration, Instant};

/// CPU time used by this process so far (user + system), from /proc on Linux.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel reports clock ticks of 1/100 s on every common configuration.
    Some(Duration::from_millis(ticks * 10))
}

/// A stopwatch of wall-clock and CPU time.
pub struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Clock {
    /// Starts now.
    pub fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_time(),
        }
    }

    /// Wall and CPU seconds since the start.
    pub fn seconds(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = match (self.cpu, cpu_time()) {
            (Some(a), Some(b)) => Some((b - a).as_secs_f64()),
            _ => None,
        };
        (wall, cpu)
    }
}
