//! The camera each scene looks through, turned with the arrow keys and zoomed with the wheel.

use std::f32::consts::FRAC_PI_2;

use glam::Vec3;
use water_render::{Camera, OffscreenTarget};

/// Lowest pitch: below it the camera would skim the water and clicks would land far away.
const MIN_PITCH: f32 = 0.1;
/// Highest pitch: just short of straight down, where the orbit's yaw stops meaning anything.
const MAX_PITCH: f32 = FRAC_PI_2 - 0.05;

/// A camera circling a target (see [`Camera::orbit`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// The point looked at, world metres.
    pub target: Vec3,
    /// Distance from the target, metres.
    pub distance: f32,
    /// Angle around z, radians.
    pub yaw: f32,
    /// Angle above the horizontal, radians.
    pub pitch: f32,
    /// Zoom limits for `distance`, metres.
    pub distance_range: (f32, f32),
}

impl Orbit {
    /// The camera for a picture of `aspect` = width / height.
    #[must_use]
    pub fn camera(&self, aspect: f32) -> Camera {
        Camera::orbit(self.target, self.distance, self.yaw, self.pitch, aspect)
    }

    /// The camera for a picture the shape of `target`.
    #[must_use]
    pub fn camera_for(&self, target: &OffscreenTarget) -> Camera {
        self.camera(target.width() as f32 / target.height() as f32)
    }

    /// Turns the camera by `yaw` and `pitch` radians (pitch kept above the water).
    pub fn turn(&mut self, yaw: f32, pitch: f32) {
        self.yaw = (self.yaw + yaw).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + pitch).clamp(MIN_PITCH, MAX_PITCH);
    }

    /// Moves the camera `factor` times as far from the target, within the zoom limits.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            let (near, far) = self.distance_range;
            self.distance = (self.distance * factor).clamp(near, far);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_and_zooming_stay_within_limits() {
        let mut orbit = Orbit {
            target: Vec3::ZERO,
            distance: 10.0,
            yaw: 0.0,
            pitch: 0.5,
            distance_range: (5.0, 20.0),
        };
        orbit.turn(0.0, 10.0);
        assert_eq!(orbit.pitch, MAX_PITCH);
        orbit.turn(-7.0, -10.0);
        assert_eq!(orbit.pitch, MIN_PITCH);
        assert!((0.0..std::f32::consts::TAU).contains(&orbit.yaw));
        orbit.zoom(100.0);
        assert_eq!(orbit.distance, 20.0);
        orbit.zoom(f32::NAN);
        assert_eq!(orbit.distance, 20.0);
        orbit.zoom(0.01);
        assert_eq!(orbit.distance, 5.0);
    }
}
