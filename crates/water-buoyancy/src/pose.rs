//! Where a body is and which way it faces: a position and a unit quaternion.

use glam::{Quat, Vec3};

use crate::error::{finite, finite_vec, BuoyancyError, Result};

/// A rigid transform: local point `p` sits at `position + orientation * p` in the world.
///
/// A body's pose places its centre of mass; hulls and probes sit at local offsets from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Origin of the local frame in the world, metres.
    pub position: Vec3,
    /// Rotation from local to world axes (unit quaternion).
    pub orientation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// The world frame itself.
    pub const IDENTITY: Self = Self {
        position: Vec3::ZERO,
        orientation: Quat::IDENTITY,
    };

    /// A checked pose; the quaternion is renormalised.
    ///
    /// # Errors
    /// [`BuoyancyError::NotFinite`] for NaN or infinite components;
    /// [`BuoyancyError::NotUnitQuaternion`] for an orientation more than 1e-3 from unit length.
    ///
    /// ```
    /// use glam::{Quat, Vec3};
    /// use water_buoyancy::Pose;
    /// let pose = Pose::new(Vec3::new(1.0, 2.0, 0.0), Quat::from_rotation_z(0.5))?;
    /// assert!(Pose::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY).is_err());
    /// # let _ = pose;
    /// # Ok::<(), water_buoyancy::BuoyancyError>(())
    /// ```
    pub fn new(position: Vec3, orientation: Quat) -> Result<Self> {
        finite_vec("pose position", position)?;
        for c in orientation.to_array() {
            finite("pose orientation", c)?;
        }
        let length = orientation.length();
        if (length - 1.0).abs() > 1e-3 {
            return Err(BuoyancyError::NotUnitQuaternion { length });
        }
        Ok(Self {
            position,
            orientation: orientation / length,
        })
    }

    /// A pose at `position` without rotation.
    ///
    /// # Errors
    /// [`BuoyancyError::NotFinite`] for NaN or infinite components.
    pub fn from_position(position: Vec3) -> Result<Self> {
        Self::new(position, Quat::IDENTITY)
    }

    /// Checks a pose that was assembled field by field.
    ///
    /// # Errors
    /// As [`Pose::new`].
    pub fn validate(&self) -> Result<()> {
        Self::new(self.position, self.orientation).map(|_| ())
    }

    /// A local point in world coordinates.
    #[must_use]
    pub fn transform_point(&self, local: Vec3) -> Vec3 {
        self.position + self.orientation * local
    }

    /// A world point in local coordinates.
    #[must_use]
    pub fn inverse_transform_point(&self, world: Vec3) -> Vec3 {
        self.orientation.conjugate() * (world - self.position)
    }

    /// A local direction in world coordinates.
    #[must_use]
    pub fn transform_vector(&self, local: Vec3) -> Vec3 {
        self.orientation * local
    }

    /// A world direction in local coordinates.
    #[must_use]
    pub fn inverse_transform_vector(&self, world: Vec3) -> Vec3 {
        self.orientation.conjugate() * world
    }

    /// The pose of a frame placed at `local` within this one.
    #[must_use]
    pub fn then(&self, local: &Pose) -> Pose {
        Pose {
            position: self.transform_point(local.position),
            orientation: (self.orientation * local.orientation).normalize(),
        }
    }
}
