//! A rigid body with its hulls and its buoyancy model: what examples, the CLI and tests float.

use water_core::HeightSource;

use crate::archimedes::Archimedes;
use crate::damping::Damping;
use crate::drag_rates::DragRates;
use crate::error::{BuoyancyError, Result};
use crate::gravity::Gravity;
use crate::hull::{Hull, Submersion};
use crate::pose::Pose;
use crate::probe::{ProbeVelocity, Probes};
use crate::rigid_body::RigidBody;
use crate::still_water::StillWaterOutside;
use crate::tow::Tow;
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
    /// The water's force and torque on the body (buoyancy and drag, N and N m about the centre
    /// of mass), averaged over the step's substeps.
    pub wrench: Wrench,
    /// Submerged volume summed over the hulls, m^3, averaged over the substeps (0 for probe
    /// bodies).
    pub submerged_volume: f32,
    /// Substeps the step was cut into (see [`FloatingBody::substeps`]); 1 for a game's step and
    /// an ordinary body.
    pub substeps: u32,
    /// The force and torque a [`Tow`] applied to hold what it holds (N and N m about the centre
    /// of mass: a horizontal force, and a torque about the vertical, tilted toward the body's x
    /// axis where the body is trimmed or heeled, since its heading is not then a turn about the
    /// vertical alone), averaged over the substeps; zero for a step without a tow.
    pub tow: Wrench,
    /// Whether some point of the body's hulls or probes was outside the water source this step
    /// (off a grid's edge). There it floated on still water at rest level (see
    /// [`StillWaterOutside`]); a scene reports it.
    pub off_water: bool,
}

impl FloatingBody {
    /// A body held up by [`Archimedes`] buoyancy in water of `density` kg/m^3, with drag
    /// `rates` scaled to its mass and inertia ([`Archimedes::with_drag_rates`]).
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad density; [`BuoyancyError::Negative`] for a bad
    /// rate.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_buoyancy::{BodyState, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Wrench};
    /// use water_core::FlatWater;
    /// // A 250 kg crate dropped from 0.2 m, stepped at a whole second a step.
    /// let shape = Shape::cuboid(Vec3::new(0.5, 0.5, 0.25))?;
    /// let start = BodyState::at_rest(Pose::from_position(Vec3::new(0.0, 0.0, 0.45))?);
    /// let body = RigidBody::from_shape(&shape, 250.0, start)?;
    /// let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
    /// let mut crate_ = FloatingBody::archimedes(body, hulls, 1000.0, DragRates::DEFAULT)?;
    /// for _ in 0..30 {
    ///     crate_.step(&FlatWater::default(), &Gravity::EARTH, 1.0, Wrench::ZERO)?;
    /// }
    /// // 0.25 m deep: the bottom at -0.25 m, the centre at the surface.
    /// assert!(crate_.body.state.pose.position.z.abs() < 0.01);
    /// # Ok::<(), water_buoyancy::BuoyancyError>(())
    /// ```
    pub fn archimedes(
        body: RigidBody,
        hulls: Vec<Hull>,
        density: f32,
        rates: DragRates,
    ) -> Result<Self> {
        let model = Archimedes::new(density)?.with_drag_rates(rates, &body)?;
        Ok(Self {
            body,
            hulls,
            model: BuoyancyModel::Archimedes(model),
        })
    }

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

    /// The water's force and torque on the body where it stands, without moving it: for a body
    /// whose pose a physics engine integrates (the engine applies [`BodyStep::wrench`]). Hulls
    /// or probes past the water source float on still water there, as in
    /// [`FloatingBody::step`], and [`BodyStep::off_water`] says so; `substeps` is 0.
    ///
    /// # Errors
    /// Errors of [`crate::BodyState::validate`] for a state set to something invalid, of the
    /// gravity, and of the probe model.
    pub fn measure(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
    ) -> Result<BodyStep> {
        gravity.validate()?;
        self.body.state.validate()?;
        let water = StillWaterOutside::new(water, gravity);
        let (wrench, submersions) = self.water_wrench(&water, gravity)?;
        Ok(BodyStep {
            wrench,
            submerged_volume: submersions.iter().map(|s| s.volume).sum(),
            substeps: 0,
            tow: Wrench::ZERO,
            off_water: water.off_water(),
        })
    }

    /// One step of `dt` seconds: the water's wrench plus `extra` (a push, a motor; N and N m
    /// about the centre of mass, held through the step) under `gravity`.
    ///
    /// The step is cut into [`FloatingBody::substeps`] substeps against the same water, each a
    /// semi-implicit Euler step with buoyancy explicit and drag implicit, so it stays bounded for
    /// any `dt` it accepts (`docs/math.md` section 10). Where the hulls or probes reach past the
    /// water source, it floats them on still water at rest level ([`StillWaterOutside`]) and
    /// says so in [`BodyStep::off_water`].
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `dt`; [`BuoyancyError::TimeStepTooLong`] for a
    /// `dt` that would need more than [`crate::MAX_SUBSTEPS`] substeps;
    /// [`BuoyancyError::Diverged`] naming what stopped being finite or outran
    /// [`crate::MAX_BODY_SPEED`] or [`crate::MAX_BODY_SPIN`] (the body keeps its state from
    /// before that substep); errors of [`crate::BodyState::validate`] for a state set to
    /// something invalid, and of the probe model.
    pub fn step(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
        dt: f32,
        extra: Wrench,
    ) -> Result<BodyStep> {
        self.step_held(water, gravity, dt, extra, None)
    }

    /// [`FloatingBody::step`] with the body on a [`Tow`]: its horizontal velocity and turning
    /// rate held at the tow's through every substep, the rest of its motion free; the force the
    /// tow took is [`BodyStep::tow`].
    ///
    /// # Errors
    /// As [`FloatingBody::step`].
    pub fn step_towed(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
        dt: f32,
        extra: Wrench,
        tow: Tow,
    ) -> Result<BodyStep> {
        self.step_held(water, gravity, dt, extra, Some(tow))
    }

    fn step_held(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
        dt: f32,
        extra: Wrench,
        tow: Option<Tow>,
    ) -> Result<BodyStep> {
        crate::error::positive("dt", dt)?;
        gravity.validate()?;
        self.body.state.validate()?;
        let substeps = self.substeps(dt, gravity)?;
        let h = dt / substeps as f32;
        let water = StillWaterOutside::new(water, gravity);
        let (mut sum, mut towed, mut volume) = (Wrench::ZERO, Wrench::ZERO, 0.0_f32);
        // Seconds of the step done, for a tow that reaches a heading by its end.
        let mut elapsed = 0.0_f32;
        // The bound above holds the spin at the step's start. A spin gained within the step
        // (torques act within it) splits a substep further, so no piece turns the body
        // by more than MAX_PHASE_PER_SUBSTEP; a normal body's substeps are never split.
        let mut pieces = 0u32;
        for substep in 1..=substeps {
            let mut left = h;
            while left > 0.0 {
                let spin = self.body.state.angular_velocity.length();
                let piece = if spin * left > crate::MAX_PHASE_PER_SUBSTEP {
                    crate::MAX_PHASE_PER_SUBSTEP / spin
                } else {
                    left
                };
                pieces += 1;
                if pieces > crate::MAX_SUBSTEPS {
                    // The spin the body reached needs more pieces than any step may take: the
                    // step is too long for it, as `substeps` says of a bound known up front.
                    // The pieces it would take are those taken and those the rest of the step
                    // needs at this spin; a step that much shorter would fit.
                    let rest = f64::from(dt - elapsed) * f64::from(spin)
                        / f64::from(crate::MAX_PHASE_PER_SUBSTEP);
                    let needed = f64::from(pieces - 1) + rest.ceil();
                    return Err(BuoyancyError::TimeStepTooLong {
                        dt,
                        period: std::f32::consts::TAU / spin,
                        substeps: needed,
                        max_substeps: crate::MAX_SUBSTEPS,
                        max_dt: (f64::from(dt) * f64::from(crate::MAX_SUBSTEPS) / needed) as f32,
                    });
                }
                let (buoyancy, damping, submerged) = self.loads(&water, gravity, piece)?;
                let (drag, pull) = self
                    .body
                    .integrate_damped(
                        buoyancy + extra,
                        &damping,
                        tow.as_ref().map(|t| (t, dt - elapsed)),
                        gravity,
                        piece,
                    )
                    .map_err(|cause| BuoyancyError::Diverged {
                        cause,
                        substep,
                        substeps,
                    })?;
                let weight = piece / h;
                sum += Wrench {
                    force: (buoyancy.force + drag.force) * weight,
                    torque: (buoyancy.torque + drag.torque) * weight,
                };
                towed += Wrench {
                    force: pull.force * weight,
                    torque: pull.torque * weight,
                };
                volume += submerged * weight;
                left -= piece;
                elapsed += piece;
            }
        }
        let share = 1.0 / substeps as f32;
        Ok(BodyStep {
            wrench: Wrench {
                force: sum.force * share,
                torque: sum.torque * share,
            },
            submerged_volume: volume * share,
            substeps,
            tow: Wrench {
                force: towed.force * share,
                torque: towed.torque * share,
            },
            off_water: water.off_water(),
        })
    }

    /// The water's explicit wrench (buoyancy; probes with their damping), the implicit drag and
    /// the submerged volume, for a substep of `h` seconds.
    fn loads(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        gravity: &Gravity,
        h: f32,
    ) -> Result<(Wrench, Damping, f32)> {
        let state = self.body.state;
        let mut damping = Damping::default();
        match &mut self.model {
            BuoyancyModel::Archimedes(archimedes) => {
                let (mut wrench, mut volume) = (Wrench::ZERO, 0.0);
                for hull in &self.hulls {
                    let load = archimedes.hull_load(hull, &state, water, gravity);
                    wrench += load.buoyancy;
                    volume += load.submersion.volume;
                    damping.add_point(load.damping, load.lever);
                    damping.add_angular(load.angular_damping);
                }
                Ok((wrench, damping, volume))
            }
            BuoyancyModel::Probes { probes, velocity } => {
                // Finite differences see the substep's displacement, over the substep.
                let velocity = match *velocity {
                    ProbeVelocity::FiniteDifference { .. } => {
                        ProbeVelocity::FiniteDifference { dt: h }
                    }
                    other => other,
                };
                Ok((
                    probes.wrench(&state, water, gravity, velocity)?,
                    damping,
                    0.0,
                ))
            }
        }
    }

    /// Radius of a ball about the body's position holding every point its step asks the water
    /// about (its hulls' surfaces, its probes), metres: the water outside it never changes the
    /// body's step, so a patch of the water around it ([`water_core::CellRect::around`]) is all
    /// the body needs.
    #[must_use]
    pub fn reach(&self) -> f32 {
        let hulls = self
            .hulls
            .iter()
            .map(|h| h.local_pose().position.length() + h.bounding_radius());
        let probes = match &self.model {
            BuoyancyModel::Probes { probes, .. } => {
                probes.offsets().iter().map(|o| o.length()).collect()
            }
            BuoyancyModel::Archimedes(_) => Vec::new(),
        };
        hulls.chain(probes).fold(0.0, f32::max)
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

    /// Its weight as a head of water over its hulls' cut through still water, per cell of a
    /// `size` grid of `cell_size` m cells: `(cell index, metres)`, the head `m f / (rho A)` in
    /// a cell its cut covers a fraction `f` of ([`crate::waterplane_fractions`]), `A` the
    /// area of the whole cut (the part past the grid's edges included: that part's weight is
    /// not pressed into this grid) and `rho` the density it floats in (its Archimedes density;
    /// fresh water for a probe body). The head is never deeper than the hulls reach below
    /// `z = 0`, so a body barely dipping into the water (a small cut under a large weight)
    /// presses by its immersion, not by its weight over a sliver.
    ///
    /// What its contact mask carries for the pressure patch
    /// ([`water_core::ContactSource::Displacement`]): on the grid, the heads times the cells'
    /// areas add up to `m / rho`, so the water under a floating body holds up its weight as
    /// Archimedes says it must at rest (a box floating at its draft presses by that draft
    /// where it covers whole cells). Taken from its mass rather than from how deep it sits, so
    /// its heave feeds the water it reads only while it rides higher than its weight would
    /// put it. Empty where its hulls do not cut the still-water plane.
    ///
    /// ```
    /// use glam::{Quat, Vec3};
    /// use water_buoyancy::*;
    /// use water_core::GridSize;
    /// // A 60 kg box of 1.2 m x 0.5 m floats 10 cm deep in fresh water, and presses by that.
    /// let shape = Shape::cuboid(Vec3::new(0.6, 0.25, 0.15))?;
    /// let pose = Pose::new(Vec3::new(2.0, 1.0, 0.05), Quat::IDENTITY)?;
    /// let body = RigidBody::from_shape(&shape, 60.0, BodyState::at_rest(pose))?;
    /// let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
    /// let boat = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)?;
    /// let heads = boat.weight_heads(GridSize::new(64, 32)?, 0.1)?;
    /// let largest = heads.iter().map(|&(_, d)| d).fold(0.0, f32::max);
    /// assert!((largest - box_draft(60.0, FRESH_WATER_DENSITY, 0.6)).abs() < 1e-5);
    /// let weight: f32 = heads.iter().map(|&(_, d)| d * 0.01 * FRESH_WATER_DENSITY).sum();
    /// assert!((weight - 60.0).abs() < 1e-3);
    /// // Lifted until only 2 cm are under: it presses 2 cm deep, not by its weight.
    /// let mut lifted = boat.clone();
    /// lifted.body.state.pose = Pose::new(Vec3::new(2.0, 1.0, 0.13), Quat::IDENTITY)?;
    /// let heads = lifted.weight_heads(GridSize::new(64, 32)?, 0.1)?;
    /// let largest = heads.iter().map(|&(_, d)| d).fold(0.0, f32::max);
    /// assert!((largest - 0.02).abs() < 1e-5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`crate::waterplane_fractions`]; [`BuoyancyError::OutOfRange`] for a head above
    /// [`water_core::MAX_MASK_VALUE`] metres (what a contact mask holds).
    pub fn weight_heads(
        &self,
        size: water_core::GridSize,
        cell_size: f32,
    ) -> Result<Vec<(usize, f32)>> {
        self.weight_heads_in(&self.body.state.pose, size, cell_size)
    }

    /// [`FloatingBody::weight_heads`] on a grid whose corner is at `grid_origin` (world
    /// metres, horizontal: a [`water_core::FollowingWindow`]'s origin).
    ///
    /// # Errors
    /// As [`FloatingBody::weight_heads`].
    pub fn weight_heads_at(
        &self,
        grid_origin: glam::Vec2,
        size: water_core::GridSize,
        cell_size: f32,
    ) -> Result<Vec<(usize, f32)>> {
        self.weight_heads_in(&self.pose_in_grid(grid_origin), size, cell_size)
    }

    /// Its pose in the frame of a grid whose corner is at `grid_origin` (world metres).
    fn pose_in_grid(&self, grid_origin: glam::Vec2) -> Pose {
        let mut pose = self.body.state.pose;
        pose.position -= grid_origin.extend(0.0);
        pose
    }

    fn weight_heads_in(
        &self,
        pose: &Pose,
        size: water_core::GridSize,
        cell_size: f32,
    ) -> Result<Vec<(usize, f32)>> {
        let (mut cells, area) = crate::waterplane_fractions(&self.hulls, pose, size, cell_size)?;
        if area <= 0.0 || cells.is_empty() {
            return Ok(Vec::new());
        }
        let density = match &self.model {
            BuoyancyModel::Archimedes(archimedes) => archimedes.density(),
            BuoyancyModel::Probes { .. } => crate::FRESH_WATER_DENSITY,
        };
        // How deep the hulls reach below still water: their lowest point.
        let reach = self
            .hulls
            .iter()
            .map(|hull| {
                let world = hull.world_pose(pose);
                let down = world.inverse_transform_vector(-glam::Vec3::Z);
                hull.shape().support(down) - world.position.z
            })
            .fold(0.0, f32::max);
        let head = (self.body.mass() / (density * area)).min(reach);
        if !(0.0..=water_core::MAX_MASK_VALUE).contains(&head) {
            return Err(BuoyancyError::OutOfRange {
                name: "weight head (m / (rho A), m)",
                value: f64::from(head),
                range: "[0, 2e4] m (MAX_MASK_VALUE)",
            });
        }
        for (_, f) in &mut cells {
            *f *= head;
        }
        Ok(cells)
    }

    /// Marks the grid cells this body's hulls cut (see [`crate::rasterise_grid_mask`]) with
    /// what `source` reads: its speed factor along the grid's plane for the events (cells whose
    /// centres it covers), its [`FloatingBody::weight_heads`] for the pressure patch (every cell
    /// it covers a part of).
    ///
    /// # Errors
    /// As [`crate::rasterise_grid_mask`].
    pub fn rasterise_grid_mask(
        &self,
        size: water_core::GridSize,
        cell_size: f32,
        source: water_core::ContactSource,
        mask: &mut [f32],
    ) -> Result<()> {
        self.rasterise_grid_mask_at(glam::Vec2::ZERO, size, cell_size, source, mask)
    }

    /// [`FloatingBody::rasterise_grid_mask`] on a grid whose corner is at `grid_origin` (world
    /// metres, horizontal: a [`water_core::FollowingWindow`]'s origin), the body in the world.
    ///
    /// # Errors
    /// As [`crate::rasterise_grid_mask`].
    pub fn rasterise_grid_mask_at(
        &self,
        grid_origin: glam::Vec2,
        size: water_core::GridSize,
        cell_size: f32,
        source: water_core::ContactSource,
        mask: &mut [f32],
    ) -> Result<()> {
        let pose = self.pose_in_grid(grid_origin);
        if source == water_core::ContactSource::Displacement {
            crate::rasterise_mask::check_len("contact mask", size.cells(), mask.len())?;
            // Bodies over the same cell press with their weights together.
            for (i, head) in self.weight_heads_in(&pose, size, cell_size)? {
                mask[i] += head;
            }
            return Ok(());
        }
        crate::rasterise_grid_mask(
            &self.hulls,
            &pose,
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
