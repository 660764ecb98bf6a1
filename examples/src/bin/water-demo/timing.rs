//! Frame and step times: means over a short window for the title, a longer one for stdout.

use std::time::{Duration, Instant};

use water_core::FrameSteps;

use crate::error::DemoError;

/// What one frame's stepping did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// Fixed steps run.
    pub steps: u32,
    /// Wall clock from the first submission to the GPU finishing the last.
    pub elapsed: Duration,
    /// Simulated seconds left out by the per-frame cap.
    pub dropped_seconds: f64,
}

impl StepReport {
    /// Runs `steps` for the fixed steps a frame owes, when it owes any, and times them to the
    /// GPU of `device` finishing them.
    ///
    /// # Errors
    /// What `steps` returns; a lost device.
    pub fn time(
        frame: FrameSteps,
        device: &wgpu::Device,
        steps: impl FnOnce(u32) -> Result<(), DemoError>,
    ) -> Result<Self, DemoError> {
        let start = Instant::now();
        if frame.steps > 0 {
            steps(frame.steps)?;
            // Wait for the GPU, so the time measured is the steps' and not just their recording.
            wait_for_gpu(device)?;
        }
        Ok(Self {
            steps: frame.steps,
            elapsed: start.elapsed(),
            dropped_seconds: frame.dropped_seconds,
        })
    }
}

/// Blocks until `device` has finished the work submitted to it.
///
/// # Errors
/// A lost device.
pub fn wait_for_gpu(device: &wgpu::Device) -> Result<(), DemoError> {
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| water_gpu::GpuError::DeviceLost(e.to_string()))?;
    Ok(())
}

/// Means of the frames recorded since the last [`TimingWindow::take`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimingSummary {
    /// Frames in the window.
    pub frames: u32,
    /// Mean time between frames, milliseconds (includes waiting for the display).
    pub frame_ms: f64,
    /// Mean wall-clock time spent stepping the water per frame, milliseconds.
    pub step_ms: f64,
    /// Mean fixed steps per frame.
    pub steps_per_frame: f64,
    /// Simulated seconds dropped because frames needed more steps than the per-frame cap.
    pub dropped_seconds: f64,
}

impl TimingSummary {
    /// Frames per second from the mean frame time.
    #[must_use]
    pub fn fps(&self) -> f64 {
        if self.frame_ms > 0.0 {
            1000.0 / self.frame_ms
        } else {
            0.0
        }
    }

    /// `frame 16.7 ms (60.0 fps), stepping 2.1 ms wall clock (2.0 steps/frame)`: stepping is
    /// timed from the first submission to the GPU's finishing, not with GPU timestamps.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut text = format!(
            "frame {:.1} ms ({:.1} fps), stepping {:.1} ms wall clock ({:.1} steps/frame)",
            self.frame_ms,
            self.fps(),
            self.step_ms,
            self.steps_per_frame
        );
        if self.dropped_seconds > 0.0 {
            text.push_str(", running slower than real time");
        }
        text
    }
}

/// Sums frame and step times over a window of frames.
#[derive(Debug, Clone, Default)]
pub struct TimingWindow {
    frames: u32,
    frame_time: Duration,
    step_time: Duration,
    steps: u64,
    dropped_seconds: f64,
    /// Wall time the window has covered.
    elapsed: Duration,
}

impl TimingWindow {
    /// Adds one frame: `frame` since the frame before, and what its stepping did.
    pub fn record(&mut self, frame: Duration, step: &StepReport) {
        self.frames += 1;
        self.frame_time += frame;
        self.step_time += step.elapsed;
        self.steps += u64::from(step.steps);
        self.dropped_seconds += step.dropped_seconds;
        self.elapsed += frame;
    }

    /// Whether the window has covered at least `span` of wall time.
    #[must_use]
    pub fn covers(&self, span: Duration) -> bool {
        self.elapsed >= span
    }

    /// The means so far (`None` before the first frame), starting a new window.
    pub fn take(&mut self) -> Option<TimingSummary> {
        let window = std::mem::take(self);
        if window.frames == 0 {
            return None;
        }
        let n = f64::from(window.frames);
        Some(TimingSummary {
            frames: window.frames,
            frame_ms: window.frame_time.as_secs_f64() * 1000.0 / n,
            step_ms: window.step_time.as_secs_f64() * 1000.0 / n,
            steps_per_frame: window.steps as f64 / n,
            dropped_seconds: window.dropped_seconds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_gives_means_and_starts_again() {
        let mut window = TimingWindow::default();
        assert_eq!(window.take(), None);
        let step = |ms, steps| StepReport {
            steps,
            elapsed: Duration::from_millis(ms),
            dropped_seconds: 0.0,
        };
        window.record(Duration::from_millis(20), &step(5, 2));
        window.record(Duration::from_millis(30), &step(7, 3));
        assert!(window.covers(Duration::from_millis(50)));
        assert!(!window.covers(Duration::from_millis(51)));
        let s = window.take().expect("two frames");
        assert_eq!(s.frames, 2);
        assert!((s.frame_ms - 25.0).abs() < 1e-9);
        assert!((s.fps() - 40.0).abs() < 1e-9);
        assert!((s.step_ms - 6.0).abs() < 1e-9);
        assert!((s.steps_per_frame - 2.5).abs() < 1e-9);
        assert!(s
            .describe()
            .starts_with("frame 25.0 ms (40.0 fps), stepping 6.0 ms wall clock"));
        assert_eq!(window.take(), None);
    }
}
