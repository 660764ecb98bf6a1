//! Waves on the sphere: the demo's mean stepper and the physically scaled Laplace-Beltrami
//! stepper, both leapfrog like the grid:
//!
//! ```text
//! z_new = d * (2 z - z_old + k * (K z))      (K z)_i = sum_j w_ij (z_j - z_i)
//! ```
//!
//! Mean: `w_ij = 1/deg(i)`, `k = a`, which is the demo's `a*mean(z_k) + (2 - a)*z - z_old`.
//! Laplace-Beltrami: cotangent weights over lumped area (1/m^2), `k = (c dt)^2`, so waves run at
//! `c` m/s on a sphere of radius `R` m, and the degree-`l` spherical harmonic oscillates at
//! `c sqrt(l(l+1))/R`.
//!
//! Stable when `k * rho(-K) <= 4` (`rho`: spectral radius, by power iteration; see
//! [`GraphOperator::spectral_radius`]).
//!
//! The heights live in one of two [`SphereLayout`]s, which give the same bits: ten rhombus
//! patches stepped a row at a time (the default, [`crate::rhombus`]), or vertex order with a
//! gather of six neighbour slots per vertex ([`crate::sphere_step`]). Either way the public
//! levels are in the mesh's vertex order.

use water_core::kernels::mean_level::{LevelSums, MeanLevelKeeper};
use water_core::Damping;
use water_core::Parallelism;

use crate::adjacency::{Adjacency, NO_NEIGHBOUR, SLOTS};
use crate::error::SphereError;
use crate::icosphere::Icosphere;
use crate::levels::Levels;
use crate::operator::GraphOperator;
use crate::rhombus::RhombusLayout;
use crate::sphere_impulse::SphereImpulse;
use crate::sphere_layout::SphereLayout;
use crate::sphere_step::SlotTable;

/// Power-iteration steps for the spectral radius.
pub const POWER_ITERATIONS: usize = 600;
/// The power iteration approaches the spectral radius from below; the limit uses it raised by
/// this fraction so an unconverged estimate never admits an unstable setting.
pub const SPECTRAL_MARGIN: f64 = 0.01;

/// Bytes sphere water holds per vertex, generously (about 260 counted: the adjacency's slots
/// and lists, the operator's f64 weights and masses, the per-slot indices and weights of the
/// step, the rhombus layout's tables, and two levels with halos).
const SPHERE_WATER_BYTES_PER_VERTEX: u64 = 320;

/// Which operator steps the water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SphereStepper {
    /// The demo's neighbour mean with coefficient `a` (dimensionless).
    Mean {
        /// The demo's `a`.
        a: f64,
    },
    /// Cotangent Laplace-Beltrami with wave speed `c` (m/s) and step `dt` (s).
    LaplaceBeltrami {
        /// Wave speed, m/s.
        wave_speed: f64,
        /// Time step, s.
        dt: f64,
    },
}

/// Water on an icosphere.
#[derive(Debug, Clone)]
pub struct SphereWater {
    sphere: Icosphere,
    adjacency: Adjacency,
    operator: GraphOperator,
    /// Neighbours in six slots per vertex, slot-major; a pentagon's sixth slot points at the
    /// vertex itself with weight 0, which adds exactly nothing, so every vertex runs the same
    /// loop. f32 weights, as the stepper (and its shader) read them. A six-neighbour vertex's
    /// slot `s` is its neighbour in direction `s` of its rhombus, so the rhombus stencil sums in
    /// the same order.
    slots: SlotTable,
    /// Where each vertex lives in the rhombus layout.
    rhombi: RhombusLayout,
    parallelism: Parallelism,
    stepper: SphereStepper,
    coefficient: f32,
    damping: f32,
    spectral_radius: f64,
    /// Lumped area of each vertex, m^2.
    areas: Vec<f64>,
    /// Still water's normal tilt, subtracted from the normals (see `surface::rest_tilt`).
    rest_tilt: Vec<glam::Vec3>,
    levels: Levels,
    steps: u64,
    /// The weights of the sum the stepper conserves, `sum w_i z_i`: the vertex degree for the
    /// mean stepper (`1 / fl(1/deg)`, exactly what its f32 weights conserve), the lumped area
    /// (m^2) for Laplace-Beltrami (`docs/math.md`, section 9).
    conserved: Vec<f64>,
    /// Holds `sum w_i z_i` to the exact recurrence's prediction when undamped.
    keeper: MeanLevelKeeper,
}

impl SphereWater {
    /// Still water on `sphere` stepped by `stepper`, with `damping` (per step, or per second for
    /// the Laplace-Beltrami stepper, whose step has a duration), in the default
    /// [`SphereLayout::Rhombus`].
    ///
    /// # Errors
    /// [`SphereError::Unstable`] naming the largest stable `a` or `dt`;
    /// [`SphereError::Invalid`] for non-finite or non-positive parameters or bad damping, and
    /// for buffers the allocator refuses ([`water_core::WaterError::OutOfMemory`], asked before
    /// any of them is allocated).
    ///
    /// ```
    /// use water_core::Damping;
    /// use water_sphere::{Icosphere, SphereStepper, SphereWater};
    /// let sphere = Icosphere::new(3, 1.0)?; // the demo's 642 vertices
    /// let water = SphereWater::new(sphere, SphereStepper::Mean { a: 0.5 }, Damping::PerStep(0.995))?;
    /// assert!(water.max_stable_coefficient() > 0.5);
    /// # Ok::<(), water_sphere::SphereError>(())
    /// ```
    pub fn new(
        sphere: Icosphere,
        stepper: SphereStepper,
        damping: Damping,
    ) -> Result<Self, SphereError> {
        water_core::probe_allocation(
            "sphere water's operator and levels",
            (sphere.positions().len() as u64).saturating_mul(SPHERE_WATER_BYTES_PER_VERTEX),
        )?;
        let adjacency = Adjacency::new(&sphere);
        let (operator, coefficient, dt) = match stepper {
            SphereStepper::Mean { a } => {
                positive("a", a)?;
                (GraphOperator::mean(&adjacency), a, None)
            }
            SphereStepper::LaplaceBeltrami { wave_speed, dt } => {
                positive("wave_speed", wave_speed)?;
                positive("dt", dt)?;
                let k = wave_speed * dt;
                (
                    GraphOperator::laplace_beltrami(&sphere, &adjacency),
                    k * k,
                    Some(dt),
                )
            }
        };
        let d = match (damping, dt) {
            (Damping::PerSecond(_), None) => return Err(SphereError::DampingPerSecond),
            (damping, dt) => {
                let dt = dt.unwrap_or(1.0);
                damping.validate_at(dt)?;
                damping.per_step_factor(dt)
            }
        };
        let rho = operator.spectral_radius(POWER_ITERATIONS) * (1.0 + SPECTRAL_MARGIN);
        let limit = 4.0 / rho;
        if coefficient > limit {
            return Err(match stepper {
                SphereStepper::Mean { a } => SphereError::Unstable {
                    name: "a",
                    value: a,
                    limit,
                },
                SphereStepper::LaplaceBeltrami { wave_speed, dt } => SphereError::Unstable {
                    name: "dt",
                    value: dt,
                    limit: limit.sqrt() / wave_speed,
                },
            });
        }
        let n = sphere.positions().len();
        let areas = sphere.vertex_areas();
        let rhombi = RhombusLayout::new(&sphere, &adjacency);
        let slots = padded_slots(&operator, rhombi.first_neighbours());
        let conserved: Vec<f64> = match stepper {
            // `c_i = 1 / w_i` with the f32 weight `w_i = fl(1/deg(i))` the step reads: then
            // `c_i w_i = 1` on every edge, both ways, and `sum c_i (K z)_i = 0` exactly. With
            // `c_i = deg(i)` (the pentagons' `fl(1/5)` and the hexagons' `fl(1/6)` round
            // differently) the keeper holds a sum the step does not quite conserve: 1.2e-7 of
            // max |z| over 1e6 steps on the demo's sphere, against 7.8e-8.
            SphereStepper::Mean { .. } => slots.weights()[0]
                .iter()
                .map(|&w| 1.0 / f64::from(w))
                .collect(),
            SphereStepper::LaplaceBeltrami { .. } => areas.clone(),
        };
        let levels = Levels::new(
            SphereLayout::default(),
            &rhombi,
            &slots,
            vec![0.0; n],
            vec![0.0; n],
        );
        Ok(Self {
            slots,
            rhombi,
            levels,
            parallelism: Parallelism::Auto,
            areas,
            conserved,
            keeper: MeanLevelKeeper::with_cells(n),
            rest_tilt: crate::displaced_surface::rest_tilt(&sphere),
            sphere,
            adjacency,
            operator,
            stepper,
            coefficient: coefficient as f32,
            damping: d as f32,
            spectral_radius: rho,
            steps: 0,
        })
    }

    /// The mesh.
    #[must_use]
    pub fn sphere(&self) -> &Icosphere {
        &self.sphere
    }

    /// Ordered neighbours.
    #[must_use]
    pub fn adjacency(&self) -> &Adjacency {
        &self.adjacency
    }

    /// The operator's weights.
    #[must_use]
    pub fn operator(&self) -> &GraphOperator {
        &self.operator
    }

    /// The stepper.
    #[must_use]
    pub fn stepper(&self) -> SphereStepper {
        self.stepper
    }

    /// The slot-major neighbour table and f32 weights the step reads (GPU backends upload it).
    /// Slot `s` of a six-neighbour vertex is its neighbour in direction `s` of its rhombus
    /// ([`crate::rhombus::DIRECTIONS`]); the rings stay counter-clockwise.
    #[must_use]
    pub fn slot_table(&self) -> &SlotTable {
        &self.slots
    }

    /// The step's coefficient `k` (`a`, or `(c dt)^2`) and damping factor `d`, as f32.
    #[must_use]
    pub fn step_coefficients(&self) -> (f32, f32) {
        (self.coefficient, self.damping)
    }

    /// The rhombus layout of the mesh (used by [`SphereLayout::Rhombus`]).
    #[must_use]
    pub fn rhombus_layout(&self) -> &RhombusLayout {
        &self.rhombi
    }

    /// How the heights are kept and stepped.
    #[must_use]
    pub fn layout(&self) -> SphereLayout {
        self.levels.layout()
    }

    /// Moves the heights into `layout`. The water is unchanged, and steps give the same bits in
    /// either layout.
    pub fn set_layout(&mut self, layout: SphereLayout) {
        if layout != self.layout() {
            let (cur, old) = (self.heights().to_vec(), self.previous().to_vec());
            self.levels = Levels::new(layout, &self.rhombi, &self.slots, cur, old);
        }
    }

    /// Previous heights (the level before [`SphereWater::heights`]), in vertex order.
    #[must_use]
    pub fn previous(&self) -> &[f32] {
        self.levels.previous(&self.rhombi)
    }

    /// Spectral radius of `-K` used for the limit (margin included).
    #[must_use]
    pub fn spectral_radius(&self) -> f64 {
        self.spectral_radius
    }

    /// Largest stable coefficient `k` (`a` for the mean stepper, `(c dt)^2` for
    /// Laplace-Beltrami): `4 / rho`.
    #[must_use]
    pub fn max_stable_coefficient(&self) -> f64 {
        4.0 / self.spectral_radius
    }

    /// Heights along the radius at each vertex, metres, in the vertex order of the mesh (in the
    /// rhombus layout, copied out of the patches on the first call after a change).
    #[must_use]
    pub fn heights(&self) -> &[f32] {
        self.levels.current(&self.rhombi)
    }

    /// Steps taken.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        self.steps
    }

    /// Sets both levels to `heights`: the water starts at rest in that shape.
    ///
    /// # Errors
    /// [`water_core::WaterError::SizeMismatch`] for the wrong number of values.
    pub fn set_at_rest(&mut self, heights: &[f32]) -> Result<(), SphereError> {
        let n = self.areas.len();
        if heights.len() != n {
            return Err(water_core::WaterError::SizeMismatch {
                what: "sphere heights",
                width: n,
                height: 1,
                expected: n,
                actual: heights.len(),
            }
            .into());
        }
        self.levels.set_both(&self.rhombi, heights);
        self.keeper.invalidate();
        Ok(())
    }

    /// Both levels in vertex order, mutably: `(current, previous)`. Changes take effect from the
    /// next step. In the rhombus layout this copies both levels out of the patches and, at the
    /// next step, back in; [`SphereWater::heights_mut`] copies only the current one.
    pub fn levels_mut(&mut self) -> (&mut [f32], &mut [f32]) {
        self.keeper.invalidate();
        self.levels.both_mut(&self.rhombi)
    }

    /// The current heights in vertex order, mutably (what [`SphereWater::heights`] returns).
    /// Changes take effect from the next step.
    pub fn heights_mut(&mut self) -> &mut [f32] {
        self.keeper.invalidate();
        self.levels.current_mut(&self.rhombi)
    }

    /// Area-weighted volume above the rest sphere, `sum A_i z_i`, m^3.
    #[must_use]
    pub fn volume(&self) -> f64 {
        self.weighted_sum(&self.areas)
    }

    /// `sum w_i z_i` of the current heights, in f64.
    fn weighted_sum(&self, weights: &[f64]) -> f64 {
        self.heights()
            .iter()
            .zip(weights)
            .map(|(&z, w)| f64::from(z) * w)
            .sum()
    }

    /// Lumped area of each vertex, m^2.
    #[must_use]
    pub fn vertex_areas(&self) -> &[f64] {
        &self.areas
    }

    /// Adds a click to the current heights (before the next step): a wave goes out, and the
    /// sum the stepper conserves ([`SphereWater::conserved_weights`]) does not change, so the
    /// mean level neither moves nor starts moving. The click is a kick (only the current level
    /// changes), so a change in that sum would be a rate: with area weights under the mean
    /// stepper the level rose 0.42 m in 2e5 steps after one click of the demo's sphere.
    ///
    /// The mean-level keeper keeps its reference through a click (the click's intended change of
    /// the sum is zero), so the f32 rounding of the click's heights is corrected too.
    pub fn add_impulse(&mut self, click: &SphereImpulse) {
        // Anchored before the click, so the reference's rate is the water's, not the click's
        // f32 rounding (a rate of 1.5e-8 m a step on the demo's sphere, 3e-4 of max |z| in 1e6
        // steps).
        self.keep_level(true);
        let dz = click.heights(&self.sphere, &self.conserved);
        self.levels.add_to_current(&self.rhombi, &dz);
    }

    /// The weights `w_i` of the sum `sum w_i z_i` the stepper conserves in exact arithmetic
    /// when undamped: each vertex's degree (the mean stepper's `(K z)_i` is a mean over
    /// `deg(i)` symmetric differences; exactly `1 / fl(1/deg(i))`, the inverse of the f32 weight
    /// the step reads) or its lumped area in m^2 (Laplace-Beltrami's is a symmetric cotangent
    /// sum over the lumped area).
    #[must_use]
    pub fn conserved_weights(&self) -> &[f64] {
        &self.conserved
    }

    /// `sum w_i z_i` of the current heights ([`SphereWater::conserved_weights`]).
    #[must_use]
    pub fn conserved_sum(&self) -> f64 {
        self.weighted_sum(&self.conserved)
    }

    /// Unit normals of the displaced surface (area-weighted face normals less the mesh's rest
    /// tilt; radial on still water).
    #[must_use]
    pub fn normals(&self) -> Vec<glam::Vec3> {
        crate::displaced_surface::vertex_normals_with(&self.sphere, self.heights(), &self.rest_tilt)
    }

    /// The vertex where a ray first meets the displaced water, if it does.
    #[must_use]
    pub fn pick(&self, origin: glam::Vec3, direction: glam::Vec3) -> Option<usize> {
        crate::displaced_surface::pick(&self.sphere, self.heights(), origin, direction)
    }

    /// How steps use threads: under [`Parallelism::Auto`], all of the current rayon pool's from
    /// [`water_core::kernels::PARALLEL_THRESHOLD_CELLS`] vertices up (rhombus rows in one band
    /// per thread, or blocks of vertices in the gather layout). Results do not depend on it.
    pub fn set_parallelism(&mut self, parallelism: Parallelism) {
        self.parallelism = parallelism;
    }

    /// One step. Undamped water keeps its conserved sum where the exact recurrence puts it:
    /// every [`MeanLevelKeeper::period`] steps the mean-level keeper measures both levels'
    /// weighted sums and adds the uniform amounts that restore them
    /// (`water_core::kernels::mean_level`, `docs/math.md` section 9).
    pub fn step(&mut self) {
        self.keep_level(true);
        self.step_inner();
        self.keep_level(false);
    }

    /// The keeper's anchoring or correction, when one is wanted.
    fn keep_level(&mut self, before_step: bool) {
        if self.damping != 1.0 || !self.keeper.wanted(self.steps, before_step) {
            return;
        }
        let (cur, old) = self.levels.both_mut(&self.rhombi);
        keep_weighted_level(&mut self.keeper, &self.conserved, self.steps, (cur, old));
    }

    fn step_inner(&mut self) {
        let threads = self.parallelism.threads(self.areas.len());
        self.levels.step(
            &self.rhombi,
            &self.slots,
            self.coefficient,
            self.damping,
            threads,
        );
        self.steps += 1;
    }

    /// `steps` steps.
    pub fn step_many(&mut self, steps: u64) {
        for _ in 0..steps {
            self.step();
        }
    }
}

/// The operator as six slots per vertex, slot-major (see [`SphereWater`]'s `slots`), each ring
/// turned to start at the vertex's `first` neighbour (a pentagon's, whose `first` is
/// [`NO_NEIGHBOUR`], where the operator's does).
fn padded_slots(operator: &GraphOperator, first: &[u32]) -> SlotTable {
    let n = operator.len();
    let mut index: [Vec<u32>; SLOTS] = std::array::from_fn(|_| (0..n as u32).collect());
    let mut weight: [Vec<f32>; SLOTS] = std::array::from_fn(|_| vec![0.0; n]);
    for v in 0..n {
        let (s, e) = (
            operator.offsets()[v] as usize,
            operator.offsets()[v + 1] as usize,
        );
        let ring = &operator.indices()[s..e];
        let start = if first[v] == NO_NEIGHBOUR {
            0
        } else {
            ring.iter()
                .position(|&u| u == first[v])
                .expect("the first neighbour is in the ring")
        };
        for slot in 0..ring.len() {
            let k = s + (start + slot) % ring.len();
            index[slot][v] = operator.indices()[k];
            weight[slot][v] = operator.weights()[k] as f32;
        }
    }
    SlotTable::new(index, weight)
}

fn positive(name: &'static str, value: f64) -> Result<(), SphereError> {
    if !value.is_finite() {
        return Err(water_core::WaterError::NotFinite { name, value }.into());
    }
    if value <= 0.0 {
        return Err(water_core::WaterError::NotPositive { name, value }.into());
    }
    Ok(())
}

/// One correction of sphere water's two levels (`cur`, `old`, one height per vertex in the
/// mesh's order) after `steps` steps: their sums in the stepper's `conserved` weights
/// ([`SphereWater::conserved_weights`]) measured, planned by `keeper` and restored by uniform
/// amounts. What [`SphereWater`] runs every period, and the GPU backends on levels read back.
pub fn keep_weighted_level(
    keeper: &mut MeanLevelKeeper,
    conserved: &[f64],
    steps: u64,
    (cur, old): (&mut [f32], &mut [f32]),
) {
    let (cur_amount, old_amount) = weighted_level_amounts(keeper, conserved, steps, (&*cur, &*old));
    if cur_amount != 0.0 || old_amount != 0.0 {
        cur.iter_mut().for_each(|z| *z += cur_amount);
        old.iter_mut().for_each(|z| *z += old_amount);
    }
}

/// The uniform amounts (m) [`keep_weighted_level`] adds to the levels `cur` and `old` after
/// `steps` steps, `(cur, old)`, planned and settled by `keeper`; the levels are left as they
/// are. The GPU backends' record-only path adds them later, carried forward.
#[must_use]
pub fn weighted_level_amounts(
    keeper: &mut MeanLevelKeeper,
    conserved: &[f64],
    steps: u64,
    (cur, old): (&[f32], &[f32]),
) -> (f32, f32) {
    let sums = |level: &[f32]| {
        let (mut plain, mut peak) = (0.0f64, 0.0f32);
        for (&z, w) in level.iter().zip(conserved) {
            plain += f64::from(z) * w;
            peak = peak.max(z.abs());
        }
        LevelSums {
            plain,
            checker: 0.0,
            peak: f64::from(peak),
        }
    };
    let now = (sums(cur), sums(old));
    let total = conserved.iter().sum();
    let ((cur_amount, _), (old_amount, _)) = keeper.correct_weighted(total, steps, now);
    (cur_amount, old_amount)
}
