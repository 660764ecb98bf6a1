//! Force and torque on a body, about its centre of mass.

use std::ops::{Add, AddAssign};

use glam::Vec3;

/// A force (N) and a torque (N m) about the body's centre of mass, both in world axes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Wrench {
    /// Net force, N.
    pub force: Vec3,
    /// Net torque about the centre of mass, N m.
    pub torque: Vec3,
}

impl Wrench {
    /// No force, no torque.
    pub const ZERO: Self = Self {
        force: Vec3::ZERO,
        torque: Vec3::ZERO,
    };

    /// `force` applied at world point `point` of a body whose centre of mass is at
    /// `centre_of_mass`: the force, and the torque `(point - centre_of_mass) x force`.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_buoyancy::Wrench;
    /// let w = Wrench::at_point(Vec3::Z, Vec3::X, Vec3::ZERO);
    /// assert_eq!(w.torque, Vec3::new(0.0, -1.0, 0.0)); // lifting the +x side tips it about -y
    /// ```
    #[must_use]
    pub fn at_point(force: Vec3, point: Vec3, centre_of_mass: Vec3) -> Self {
        Self {
            force,
            torque: (point - centre_of_mass).cross(force),
        }
    }

    /// Whether every component is finite.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.force.is_finite() && self.torque.is_finite()
    }
}

impl Add for Wrench {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self {
            force: self.force + other.force,
            torque: self.torque + other.torque,
        }
    }
}

impl AddAssign for Wrench {
    fn add_assign(&mut self, other: Self) {
        *self = *self + other;
    }
}

impl std::iter::Sum for Wrench {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, Add::add)
    }
}
