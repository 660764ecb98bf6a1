//! Probe buoyancy, as the demo's boat floats: a few points on the body, each pushing up like a
//! damped spring while under water.
//!
//! For each probe below the surface (`depth = probe height - water height < 0`, heights along
//! `up`), the body gets
//!
//! ```text
//! F = up * buoyancy * (-depth - drag * vertical_velocity) / probe_count
//! ```
//!
//! at the probe's world position. `buoyancy` is a stiffness (N/m), `drag` a time (s). This is
//! not Archimedes (the force does not follow displaced volume; see [`crate::Archimedes`]), but it
//! is cheap and easy to tune. A probe over dry ground (no water from the source) does nothing.

use glam::Vec3;

use water_core::HeightSource;

use crate::error::{finite_vec, non_negative, BuoyancyError, Result};
use crate::rigid_body::BodyState;
use crate::wrench::Wrench;

/// Where a probe's vertical velocity comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProbeVelocity {
    /// The velocity of the body at the probe, `v + omega x r`.
    Body,
    /// One velocity for every probe, as the demo used the body's linear velocity, m/s.
    Supplied(Vec3),
    /// Each probe's world displacement since the last call, over `dt` seconds (zero on the
    /// first call).
    FiniteDifference {
        /// Time since the last call, s.
        dt: f32,
    },
}

/// Probes at local offsets on a body, with the demo's two constants.
#[derive(Debug, Clone, PartialEq)]
pub struct Probes {
    offsets: Vec<Vec3>,
    buoyancy: f32,
    drag: f32,
    last_positions: Option<Vec<Vec3>>,
}

impl Probes {
    /// Probes at `offsets` (body frame, metres from the centre of mass), with stiffness
    /// `buoyancy` (N/m) and `drag` (s).
    ///
    /// # Errors
    /// [`BuoyancyError::OutOfRange`] without probes; [`BuoyancyError::NotFinite`] /
    /// [`BuoyancyError::Negative`] for bad values.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_buoyancy::{BodyState, Gravity, Probes, ProbeVelocity};
    /// use water_core::FlatWater;
    /// let mut probes = Probes::new(vec![Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)], 100.0, 0.0)?;
    /// let state = BodyState::default(); // centre of mass at z = 0
    /// let w = probes.wrench(&state, &FlatWater { level: 0.5 }, &Gravity::EARTH, ProbeVelocity::Body)?;
    /// assert!((w.force.z - 50.0).abs() < 1e-4); // 100 N/m * 0.5 m, shared by the two probes
    /// # Ok::<(), water_buoyancy::BuoyancyError>(())
    /// ```
    pub fn new(offsets: Vec<Vec3>, buoyancy: f32, drag: f32) -> Result<Self> {
        if offsets.is_empty() {
            return Err(BuoyancyError::OutOfRange {
                name: "probe count",
                value: 0.0,
                range: "1 or more",
            });
        }
        for &o in &offsets {
            finite_vec("probe offset", o)?;
        }
        Ok(Self {
            offsets,
            buoyancy: non_negative("probe buoyancy", buoyancy)?,
            drag: non_negative("probe drag", drag)?,
            last_positions: None,
        })
    }

    /// Offsets, body frame, metres.
    #[must_use]
    pub fn offsets(&self) -> &[Vec3] {
        &self.offsets
    }

    /// Stiffness, N/m.
    #[must_use]
    pub fn buoyancy(&self) -> f32 {
        self.buoyancy
    }

    /// Drag, s.
    #[must_use]
    pub fn drag(&self) -> f32 {
        self.drag
    }

    /// Forgets the positions [`ProbeVelocity::FiniteDifference`] remembers (after a teleport).
    pub fn reset_history(&mut self) {
        self.last_positions = None;
    }

    /// Force and torque on a body in `state` (up: against `gravity` at each probe).
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a finite-difference `dt` that is not positive;
    /// errors of [`BodyState::validate`].
    pub fn wrench(
        &mut self,
        state: &BodyState,
        water: &(impl HeightSource + ?Sized),
        gravity: &crate::Gravity,
        velocity: ProbeVelocity,
    ) -> Result<Wrench> {
        state.validate()?;
        let positions: Vec<Vec3> = self
            .offsets
            .iter()
            .map(|&o| state.pose.transform_point(o))
            .collect();
        let velocities: Vec<Vec3> = match velocity {
            ProbeVelocity::Body => positions.iter().map(|&p| state.point_velocity(p)).collect(),
            ProbeVelocity::Supplied(v) => vec![finite_vec("probe velocity", v)?; positions.len()],
            ProbeVelocity::FiniteDifference { dt } => {
                crate::error::positive("dt", dt)?;
                match &self.last_positions {
                    Some(last) => positions
                        .iter()
                        .zip(last)
                        .map(|(&p, &q)| (p - q) / dt)
                        .collect(),
                    None => vec![Vec3::ZERO; positions.len()],
                }
            }
        };
        let share = 1.0 / self.offsets.len() as f32;
        let mut total = Wrench::ZERO;
        let mut levels = vec![None; positions.len()];
        water.levels_at(&positions, &mut levels);
        for ((&p, &v), level) in positions.iter().zip(&velocities).zip(levels) {
            let Some(level) = level else {
                continue;
            };
            let depth = -level.depth_of(p);
            if depth < 0.0 {
                let up = gravity.up_at(p);
                let push = self.buoyancy * (-depth - self.drag * v.dot(up)) * share;
                total += Wrench::at_point(up * push, p, state.pose.position);
            }
        }
        self.last_positions = Some(positions);
        Ok(total)
    }
}
