//! Archimedes buoyancy: the weight of the displaced water, pushing up at the centre of
//! buoyancy, with drag on the wetted share of the hull.

use water_core::HeightSource;

use glam::Vec3;

use crate::drag_rates::DragRates;
use crate::error::{non_negative, positive, Result};
use crate::gravity::Gravity;
use crate::hull::{Hull, Submersion};
use crate::rigid_body::{BodyState, RigidBody};
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

    /// The same with drag `rates` scaled to `body`: linear and quadratic by its mass, angular
    /// by its smallest principal moment of inertia (see [`DragRates`]).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::Negative`] / [`crate::BuoyancyError::NotFinite`] for a negative
    /// or non-finite rate.
    pub fn with_drag_rates(self, rates: DragRates, body: &RigidBody) -> Result<Self> {
        let rates = DragRates::new(rates.linear, rates.quadratic, rates.angular)?;
        let mass = body.mass();
        self.with_drag(
            rates.linear * mass,
            rates.quadratic * mass,
            rates.angular * body.smallest_principal_moment(),
        )
    }

    /// Water density, kg/m^3.
    #[must_use]
    pub fn density(&self) -> f32 {
        self.density
    }

    /// Linear drag of a fully submerged hull, N s/m.
    #[must_use]
    pub fn linear_drag(&self) -> f32 {
        self.linear_drag
    }

    /// Quadratic drag of a fully submerged hull, N s^2/m^2.
    #[must_use]
    pub fn quadratic_drag(&self) -> f32 {
        self.quadratic_drag
    }

    /// Angular drag of a fully submerged hull, N m s.
    #[must_use]
    pub fn angular_drag(&self) -> f32 {
        self.angular_drag
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
        let load = self.hull_load(hull, state, water, gravity);
        let v = state.point_velocity(state.pose.position + load.lever);
        let drag = -v * load.damping;
        let mut wrench = load.buoyancy + Wrench::at_point(drag, load.lever, Vec3::ZERO);
        wrench.torque += -state.angular_velocity * load.angular_damping;
        HullForce {
            wrench,
            submersion: load.submersion,
        }
    }

    /// Buoyancy as a wrench, drag as coefficients: what an integrator that treats drag
    /// implicitly needs.
    pub(crate) fn hull_load(
        &self,
        hull: &Hull,
        state: &BodyState,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
    ) -> HullLoad {
        let com = state.pose.position;
        let up = gravity.up_at(com);
        let submersion = hull.submerged(&state.pose, up, water);
        if submersion.volume <= 0.0 {
            return HullLoad {
                buoyancy: Wrench::ZERO,
                submersion,
                lever: submersion.centre - com,
                damping: 0.0,
                angular_damping: 0.0,
            };
        }
        let centre = submersion.centre;
        let g = gravity.magnitude_at(centre);
        let lift = gravity.up_at(centre) * (self.density * g * submersion.volume);
        let f = submersion.fraction();
        let speed = state.point_velocity(centre).length();
        HullLoad {
            buoyancy: Wrench::at_point(lift, centre, com),
            submersion,
            lever: centre - com,
            damping: (self.linear_drag + self.quadratic_drag * speed) * f,
            angular_damping: self.angular_drag * f,
        }
    }
}

/// One hull's buoyancy, and its drag frozen at the current speed: the drag force is
/// `-damping * (v + omega x lever)` at the centre of buoyancy, plus the torque
/// `-angular_damping * omega`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HullLoad {
    /// Buoyancy about the centre of mass.
    pub buoyancy: Wrench,
    /// The displaced water.
    pub submersion: Submersion,
    /// Centre of buoyancy relative to the centre of mass, world m.
    pub lever: Vec3,
    /// Translational drag coefficient at the current speed, N s/m.
    pub damping: f32,
    /// Rotational drag coefficient, N m s.
    pub angular_damping: f32,
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
