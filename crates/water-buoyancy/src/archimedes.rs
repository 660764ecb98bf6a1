//! Archimedes buoyancy: the weight of the displaced water, pushing up at the centre of
//! buoyancy, with drag on the wetted share of the hull.

use water_core::HeightSource;

use crate::error::{non_negative, positive, Result};
use crate::gravity::Gravity;
use crate::hull::{Hull, Submersion};
use crate::rigid_body::BodyState;
use crate::wrench::Wrench;

/// Fresh water's density, kg/m^3.
pub const FRESH_WATER_DENSITY: f32 = 1000.0;

/// Buoyancy `rho g V_sub` and drag.
///
/// Drag acts on the velocity of the body at the centre of buoyancy relative to still water,
/// scaled by the submerged share `f` of the hull: `-f (k1 v + k2 |v| v)`, and against rotation
/// `-f k_w omega`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Archimedes {
    density: f32,
    linear_drag: f32,
    quadratic_drag: f32,
    angular_drag: f32,
}

/// What [`Archimedes`] computed for one hull.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HullForce {
    /// Force and torque about the body's centre of mass.
    pub wrench: Wrench,
    /// The displaced water it came from.
    pub submersion: Submersion,
}

impl Archimedes {
    /// Buoyancy in water of `density` kg/m^3, without drag.
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotPositive`] for a bad density.
    pub fn new(density: f32) -> Result<Self> {
        positive("water density", density)?;
        Ok(Self {
            density,
            linear_drag: 0.0,
            quadratic_drag: 0.0,
            angular_drag: 0.0,
        })
    }

    /// The same with drag: linear `k1` (N s/m), quadratic `k2` (N s^2/m^2) and angular `k_w`
    /// (N m s), each for a fully submerged hull.
    ///
    /// # Errors
    /// [`crate::BuoyancyError::Negative`] for a negative or non-finite coefficient.
    pub fn with_drag(mut self, linear: f32, quadratic: f32, angular: f32) -> Result<Self> {
        self.linear_drag = non_negative("linear drag", linear)?;
        self.quadratic_drag = non_negative("quadratic drag", quadratic)?;
        self.angular_drag = non_negative("angular drag", angular)?;
        Ok(self)
    }

    /// Water density, kg/m^3.
    #[must_use]
    pub fn density(&self) -> f32 {
        self.density
    }

    /// Force and torque on a body in `state` from `hull`.
    #[must_use]
    pub fn hull_force(
        &self,
        hull: &Hull,
        state: &BodyState,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
    ) -> HullForce {
        let com = state.pose.position;
        let up = gravity.up_at(com);
        let submersion = hull.submerged(&state.pose, up, water);
        if submersion.volume <= 0.0 {
            return HullForce {
                wrench: Wrench::ZERO,
                submersion,
            };
        }
        let centre = submersion.centre;
        let g = gravity.magnitude_at(centre);
        let lift = gravity.up_at(centre) * (self.density * g * submersion.volume);
        let f = submersion.fraction();
        let v = state.point_velocity(centre);
        let drag = -(v * self.linear_drag + v * (v.length() * self.quadratic_drag)) * f;
        let mut wrench = Wrench::at_point(lift + drag, centre, com);
        wrench.torque += -state.angular_velocity * (self.angular_drag * f);
        HullForce { wrench, submersion }
    }
}

/// Draft (m) at which an upright box of `mass` kg and waterplane area `area` m^2 floats on
/// flat water of `density`: `m / (rho A)`.
#[must_use]
pub fn box_draft(mass: f32, density: f32, area: f32) -> f32 {
    mass / (density * area)
}

/// Small-oscillation heave period (s) of that box: `2 pi sqrt(m / (rho g A))`.
#[must_use]
pub fn box_heave_period(mass: f32, density: f32, gravity: f32, area: f32) -> f32 {
    std::f32::consts::TAU * (mass / (density * gravity * area)).sqrt()
}

/// Volume (m^3) of a ball of radius `r` below a plane `depth` metres above its lowest point:
/// the spherical cap `pi d^2 (3r - d) / 3`, clamped to `[0, 2r]`.
#[must_use]
pub fn spherical_cap_volume(radius: f32, depth: f32) -> f32 {
    let d = depth.clamp(0.0, 2.0 * radius);
    std::f32::consts::PI * d * d * (3.0 * radius - d) / 3.0
}
