//! Progress on long runs: a line on stderr about once a second, silent for runs that finish
//! within the first second.

use std::io::Write;
use std::time::{Duration, Instant};

/// Reports `done / total` steps at most once per interval.
#[derive(Debug)]
pub struct Progress {
    label: String,
    total: u64,
    start: Instant,
    last: Instant,
    interval: Duration,
    enabled: bool,
    printed: bool,
}

impl Progress {
    /// A reporter for `total` steps of `label`; `enabled = false` keeps it silent.
    #[must_use]
    pub fn new(label: &str, total: u64, enabled: bool) -> Self {
        let now = Instant::now();
        Self {
            label: label.to_owned(),
            total,
            start: now,
            last: now,
            interval: Duration::from_secs(1),
            enabled,
            printed: false,
        }
    }

    /// Call after each step with the number of steps done.
    pub fn update(&mut self, done: u64) {
        if !self.enabled || self.last.elapsed() < self.interval {
            return;
        }
        self.last = Instant::now();
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let left = self.total.saturating_sub(done) as f64 / rate.max(1e-9);
        let pct = 100.0 * done as f64 / self.total.max(1) as f64;
        let mut err = std::io::stderr().lock();
        // Progress is advisory: a closed stderr must not stop the run.
        let _ = writeln!(
            err,
            "{}: step {done}/{} ({pct:.0}%), {elapsed:.1} s elapsed, ~{left:.1} s left",
            self.label, self.total
        );
        self.printed = true;
    }

    /// Prints a final line if any progress was shown.
    pub fn finish(&self) {
        if self.enabled && self.printed {
            let _ = writeln!(
                std::io::stderr().lock(),
                "{}: done, {} steps in {:.1} s",
                self.label,
                self.total,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}
