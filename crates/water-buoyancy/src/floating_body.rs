//! A rigid body with its hulls and its buoyancy model: what examples, the CLI and tests float.

use water_core::HeightSource;

use crate::archimedes::Archimedes;
use crate::error::Result;
use crate::gravity::Gravity;
use crate::hull::{Hull, Submersion};
use crate::probe::{ProbeVelocity, Probes};
use crate::rigid_body::RigidBody;
use crate::wrench::Wrench;

/// How the water holds a body up.
#[derive(Debug, Clone, PartialEq)]
pub enum BuoyancyModel {
    /// Displaced volume of the body's hulls ([`Archimedes`]).
    Archimedes(Archimedes),
    /// The demo's probes, with where their vertical velocity comes from.
    Probes {
        /// The probes.
        probes: Probes,
        /// Their velocity source.
        velocity: ProbeVelocity,
    },
}

/// A rigid body, the hulls that give it shape (for Archimedes and for the wake it makes) and
/// its buoyancy model.
#[derive(Debug, Clone, PartialEq)]
pub struct FloatingBody {
    /// Mass, inertia and state.
    pub body: RigidBody,
    /// Hulls at local poses. Probe bodies may have none (then they make no waves).
    pub hulls: Vec<Hull>,
    /// How the water pushes.
    pub model: BuoyancyModel,
}

/// One step's outcome for a floating body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyStep {
    /// The water's force and torque on the body during the step.
    pub wrench: Wrench,
    /// Submerged volume summed over the hulls, m^3 (0 for probe bodies).
    pub submerged_volume: f32,
}

impl FloatingBody {
    /// Force and torque from the water, and the displaced water per hull (Archimedes only).
    ///
    /// # Errors
    /// Errors of the probe model (see [`Probes::wrench`]).
    pub fn water_wrench(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
    ) -> Result<(Wrench, Vec<Submersion>)> {
        let state = self.body.state;
        match &mut self.model {
            BuoyancyModel::Archimedes(archimedes) => {
                let forces: Vec<_> = self
                    .hulls
                    .iter()
                    .map(|h| archimedes.hull_force(h, &state, water, gravity))
                    .collect();
                Ok((
                    forces.iter().map(|f| f.wrench).sum(),
                    forces.iter().map(|f| f.submersion).collect(),
                ))
            }
            BuoyancyModel::Probes { probes, velocity } => Ok((
                probes.wrench(&state, water, gravity, *velocity)?,
                Vec::new(),
            )),
        }
    }

    /// One step of `dt` seconds: the water's wrench plus `extra` (a push, a motor; N and N m
    /// about the centre of mass), then semi-implicit Euler under `gravity`.
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotPositive`] for a bad `dt`; [`crate::BuoyancyError::NotFinite`]
    /// when the forces stop being finite.
    pub fn step(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
        dt: f32,
        extra: Wrench,
    ) -> Result<BodyStep> {
        crate::error::positive("dt", dt)?;
        let (wrench, submersions) = self.water_wrench(water, gravity)?;
        self.body.integrate(wrench + extra, gravity, dt)?;
        Ok(BodyStep {
            wrench,
            submerged_volume: submersions.iter().map(|s| s.volume).sum(),
        })
    }

    /// The speed factor its contact mask carries: the body's speed across `up` (along the
    /// water), m/s, but never zero, so a body at rest keeps its place in the mask and starting
    /// to move does not read as entering every cell under it at once.
    ///
    /// Heave is left out on purpose: bow and stern events model a hull pushing through the
    /// water, and fed with vertical speed they pump energy into a bobbing body (the wave a
    /// sinking hull raises at its waterline reaches back under it while it rises).
    #[must_use]
    pub fn speed_factor(&self, up: glam::Vec3) -> f32 {
        let v = self.body.state.linear_velocity;
        (v - up * v.dot(up)).length().max(f32::MIN_POSITIVE)
    }

    /// Marks the grid cells this body's hulls cut (see [`crate::rasterise_grid_mask`]) with its
    /// speed factor along the grid's plane.
    ///
    /// # Errors
    /// As [`crate::rasterise_grid_mask`].
    pub fn rasterise_grid_mask(
        &self,
        size: water_core::GridSize,
        cell_size: f32,
        mask: &mut [f32],
    ) -> Result<()> {
        crate::rasterise_grid_mask(
            &self.hulls,
            &self.body.state.pose,
            size,
            cell_size,
            self.speed_factor(glam::Vec3::Z),
            mask,
        )
    }

    /// Marks the sphere vertices this body's hulls cut (see [`crate::rasterise_sphere_mask`])
    /// with its speed factor along the sphere (the sphere centred at the origin).
    ///
    /// # Errors
    /// As [`crate::rasterise_sphere_mask`].
    pub fn rasterise_sphere_mask(
        &self,
        sphere: &water_sphere::Icosphere,
        mask: &mut [f32],
    ) -> Result<()> {
        crate::rasterise_sphere_mask(
            &self.hulls,
            &self.body.state.pose,
            sphere,
            self.speed_factor(self.body.state.pose.position.normalize_or_zero()),
            mask,
        )
    }
}
