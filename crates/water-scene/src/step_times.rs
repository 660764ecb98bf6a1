//! [`StepTimes`]: where a scene's steps spent their wall time, phase by phase, so a benchmark
//! (or a game's frame budget) can tell the bodies' share from the water's.

use std::time::Duration;

/// Wall time a [`crate::Scene`]'s steps spent in each phase, summed since the scene was made or
/// [`crate::Scene::reset_step_times`] was last called. A few clock reads a step (about 0.1 us in
/// all), so the scene always keeps them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepTimes {
    /// Steps counted.
    pub steps: u64,
    /// Impulses landing and the bodies moving on the current water (with the heights view they
    /// read, which a split or classic grid assembles and a GPU backend reads back).
    pub bodies: Duration,
    /// The bodies' hulls drawn into the contact masks.
    pub masks: Duration,
    /// The water's step with the contacts' bow and stern waves (the whole multi-step run for a
    /// scene without bodies).
    pub water: Duration,
    /// The coarser cascades' steps and hand-over ([`crate::Scene::set_cascades`]).
    pub cascades: Duration,
    /// The foam's sources and decay ([`crate::Scene::set_foam`]; the sea's Jacobian with it).
    pub foam: Duration,
}

impl StepTimes {
    /// The sum of the phases.
    #[must_use]
    pub fn total(&self) -> Duration {
        self.bodies + self.masks + self.water + self.cascades + self.foam
    }

    /// Milliseconds per step of a phase's `time` (0 before any step).
    #[must_use]
    pub fn ms_per_step(&self, time: Duration) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            time.as_secs_f64() * 1e3 / self.steps as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_step_figures_divide_by_the_steps_counted() {
        let times = StepTimes {
            steps: 4,
            bodies: Duration::from_millis(8),
            masks: Duration::from_millis(2),
            water: Duration::from_millis(6),
            cascades: Duration::from_millis(3),
            foam: Duration::from_millis(1),
        };
        assert_eq!(times.total(), Duration::from_millis(20));
        assert!((times.ms_per_step(times.bodies) - 2.0).abs() < 1e-12);
        assert!((times.ms_per_step(times.total()) - 5.0).abs() < 1e-12);
        assert_eq!(
            StepTimes::default().ms_per_step(Duration::from_secs(1)),
            0.0
        );
    }
}
