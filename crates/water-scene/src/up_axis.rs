//! [`UpAxis`]: which of the caller's axes points up, and the conversion to the water's frame.
//!
//! The water is stepped in a z-up frame: the grid covers `[0, W h) x [0, H h)` in x and y and
//! still water lies at z = 0 (DESIGN.md, "World sampling"). A scene converts at its boundary,
//! so a y-up caller (Bevy, rapier's default) passes and receives y-up vectors and never
//! converts by hand.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{BodyState, BuoyancyError, Pose};

/// The caller's up axis.
///
/// With [`UpAxis::Y`] the caller's `(x, y, z)` is the water's `(x, -z, y)`: a rotation of a
/// quarter turn about x, so handedness is kept and a body's local axes keep their meaning (a
/// box whose local y is up floats on that face). The grid then covers `x` in `[0, W h)` and `z`
/// in `(-H h, 0]` of the caller's frame: its rows run toward `-z`.
///
/// ```
/// use glam::Vec3;
/// use water_scene::UpAxis;
/// let up = UpAxis::Y;
/// assert_eq!(up.to_water(Vec3::Y), Vec3::Z);
/// let p = Vec3::new(1.0, 2.0, -3.0);
/// assert_eq!(up.from_water(up.to_water(p)), p);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UpAxis {
    /// z up: the water's own frame (no conversion).
    #[default]
    Z,
    /// y up, as Bevy and rapier use.
    Y,
}

impl UpAxis {
    /// The rotation from the caller's frame to the water's.
    #[must_use]
    pub fn rotation(self) -> Quat {
        match self {
            Self::Z => Quat::IDENTITY,
            Self::Y => Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        }
    }

    /// A point or vector of the caller's frame in the water's frame.
    #[must_use]
    pub fn to_water(self, v: Vec3) -> Vec3 {
        match self {
            Self::Z => v,
            Self::Y => Vec3::new(v.x, -v.z, v.y),
        }
    }

    /// A horizontal point or vector of the caller's frame, given by its two horizontal
    /// coordinates (`(x, y)` with z up, `(x, z)` with y up), in the water's `(x, y)`.
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_scene::UpAxis;
    /// assert_eq!(UpAxis::Y.horizontal_to_water(Vec2::new(2.0, -3.0)), Vec2::new(2.0, 3.0));
    /// assert_eq!(UpAxis::Z.horizontal_to_water(Vec2::new(2.0, -3.0)), Vec2::new(2.0, -3.0));
    /// ```
    #[must_use]
    pub fn horizontal_to_water(self, v: Vec2) -> Vec2 {
        match self {
            Self::Z => v,
            Self::Y => Vec2::new(v.x, -v.y),
        }
    }

    /// The water's horizontal `(x, y)` as the caller's two horizontal coordinates (the inverse
    /// of [`UpAxis::horizontal_to_water`]).
    #[must_use]
    pub fn horizontal_from_water(self, v: Vec2) -> Vec2 {
        // A reflection of the second coordinate: its own inverse.
        self.horizontal_to_water(v)
    }

    /// A point or vector of the water's frame in the caller's frame.
    #[must_use]
    pub fn from_water(self, v: Vec3) -> Vec3 {
        match self {
            Self::Z => v,
            Self::Y => Vec3::new(v.x, v.z, -v.y),
        }
    }

    /// An orientation (body to caller's world) as an orientation in the water's frame.
    #[must_use]
    pub fn orientation_to_water(self, q: Quat) -> Quat {
        match self {
            Self::Z => q,
            Self::Y => (self.rotation() * q).normalize(),
        }
    }

    /// An orientation in the water's frame as one in the caller's frame.
    #[must_use]
    pub fn orientation_from_water(self, q: Quat) -> Quat {
        match self {
            Self::Z => q,
            Self::Y => (self.rotation().inverse() * q).normalize(),
        }
    }

    /// The water's horizontal coordinates (grid plane, metres) of a caller's point.
    #[must_use]
    pub fn horizontal(self, v: Vec3) -> Vec2 {
        self.to_water(v).truncate()
    }

    /// A body's state (pose and velocities) in the caller's frame, in the water's frame.
    ///
    /// # Errors
    /// A pose that is not finite or whose orientation is not a unit quaternion.
    pub fn state_to_water(self, s: &BodyState) -> Result<BodyState, BuoyancyError> {
        self.state_between(s, Self::to_water, Self::orientation_to_water)
    }

    /// A body's state in the water's frame, in the caller's frame.
    ///
    /// # Errors
    /// As [`UpAxis::state_to_water`].
    pub fn state_from_water(self, s: &BodyState) -> Result<BodyState, BuoyancyError> {
        self.state_between(s, Self::from_water, Self::orientation_from_water)
    }

    fn state_between(
        self,
        s: &BodyState,
        vector: fn(Self, Vec3) -> Vec3,
        orientation: fn(Self, Quat) -> Quat,
    ) -> Result<BodyState, BuoyancyError> {
        Ok(BodyState {
            pose: Pose::new(
                vector(self, s.pose.position),
                orientation(self, s.pose.orientation),
            )?,
            linear_velocity: vector(self, s.linear_velocity),
            angular_velocity: vector(self, s.angular_velocity),
        })
    }

    /// The caller's up vector.
    #[must_use]
    pub fn up(self) -> Vec3 {
        match self {
            Self::Z => Vec3::Z,
            Self::Y => Vec3::Y,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn y_up_is_a_rotation_that_matches_the_vector_map() {
        let r = UpAxis::Y.rotation();
        for v in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(0.3, -1.2, 2.5)] {
            assert!((r * v - UpAxis::Y.to_water(v)).length() < 1e-6, "{v}");
        }
        let q = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-0.2);
        let back = UpAxis::Y.orientation_from_water(UpAxis::Y.orientation_to_water(q));
        assert!(back.abs_diff_eq(q, 1e-6) || back.abs_diff_eq(-q, 1e-6));
    }
}
