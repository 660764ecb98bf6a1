//! A fixed-step clock: turns variable frame times into a whole number of fixed, stable steps.

use crate::error::{finite, positive, Result, WaterError};

/// Default cap on steps per frame, so that one long stall (a debugger break, a loading hitch)
/// does not make the next frame take even longer ("spiral of death"). Time beyond the cap is
/// dropped and reported.
pub const DEFAULT_MAX_STEPS_PER_FRAME: u32 = 256;

/// Relative slack when comparing accumulated time with a step: frame times summed in f64 drift
/// by a few ulps, and without it 1/30 s frames of a 1/120 s step would sometimes give 3 steps,
/// sometimes 5.
const STEP_EPSILON: f64 = 1e-9;

/// What one frame should run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameSteps {
    /// Fixed steps to run this frame.
    pub steps: u32,
    /// Fraction of a step (0..1) left over, for interpolating between the last two states.
    pub alpha: f64,
    /// Seconds dropped because the frame needed more than the per-frame cap.
    pub dropped_seconds: f64,
}

/// Accumulates frame times and hands out fixed steps of `dt`, carrying the remainder.
///
/// The same physical scenario therefore runs the same steps at any frame rate: after `T`
/// seconds, `floor(T/dt)` steps have run whether frames came at 30, 60 or 144 per second.
///
/// ```
/// use water_core::FixedStepClock;
/// let mut clock = FixedStepClock::new(1.0 / 120.0)?;
/// let total: u32 = (0..30).map(|_| clock.advance(1.0 / 30.0).map(|f| f.steps)).sum::<Result<_, _>>()?;
/// assert_eq!(total, 120);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FixedStepClock {
    dt: f64,
    accumulated: f64,
    max_steps_per_frame: u32,
    total_steps: u64,
}

impl FixedStepClock {
    /// A clock with step `dt` seconds (use [`crate::WaveParams::dt`]).
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] or [`WaterError::NotPositive`] for a bad `dt`.
    pub fn new(dt: f64) -> Result<Self> {
        positive("dt", dt)?;
        Ok(Self {
            dt,
            accumulated: 0.0,
            max_steps_per_frame: DEFAULT_MAX_STEPS_PER_FRAME,
            total_steps: 0,
        })
    }

    /// Sets the cap on steps per frame (at least 1).
    ///
    /// # Errors
    /// [`WaterError::OutOfRange`] for 0.
    pub fn with_max_steps_per_frame(mut self, max: u32) -> Result<Self> {
        if max == 0 {
            return Err(WaterError::OutOfRange {
                name: "max_steps_per_frame",
                value: 0.0,
                range: "1..",
            });
        }
        self.max_steps_per_frame = max;
        Ok(self)
    }

    /// The fixed step, seconds.
    #[must_use]
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// Steps handed out so far.
    #[must_use]
    pub fn total_steps(&self) -> u64 {
        self.total_steps
    }

    /// Adds a frame of `frame_seconds` and says how many steps to run now.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] for NaN or infinite frame times, [`WaterError::OutOfRange`]
    /// for negative ones.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<FrameSteps> {
        finite("frame_seconds", frame_seconds)?;
        if frame_seconds < 0.0 {
            return Err(WaterError::OutOfRange {
                name: "frame_seconds",
                value: frame_seconds,
                range: "[0, inf)",
            });
        }
        self.accumulated += frame_seconds;
        let whole = (self.accumulated / self.dt * (1.0 + STEP_EPSILON)).floor();
        let max = f64::from(self.max_steps_per_frame);
        let steps = whole.min(max);
        let mut dropped_seconds = 0.0;
        self.accumulated -= steps * self.dt;
        if whole > max {
            dropped_seconds = self.accumulated;
            self.accumulated = 0.0;
        }
        // A tiny negative remainder is the epsilon's doing; it is owed to the next frame.
        let alpha = (self.accumulated / self.dt).clamp(0.0, 1.0);
        let steps = steps as u32;
        self.total_steps += u64::from(steps);
        Ok(FrameSteps {
            steps,
            alpha,
            dropped_seconds,
        })
    }
}
