//! Dispersive water: every wavelength at its own speed, by Airy's relation, so long waves outrun
//! short ones and a moving body leaves the Kelvin wedge rather than a Mach cone.

use std::f64::consts::PI;

use crate::airy::AiryDispersion;
use crate::allocation_probe::probe_allocation;
use crate::boundary::Boundary;
use crate::contact_masks::{ContactMasks, ContactSource};
use crate::depth::Depth;
use crate::error::{positive, Result, WaterError};
use crate::field::WaveField;
use crate::grid_water::{signed_field_methods, GridMode, GridWater};
use crate::impulse::Impulse;
use crate::kernels::mean_level::MeanLevelKeeper;
use crate::kernels::spectral_depth::{spectral_depth_step, SpectralDepth};
use crate::kernels::spectral_step::{largest_wavenumber, spectral_step, SpectralStep};
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::params::Damping;
use crate::sample::HeightView;
use crate::size::GridSize;

/// Cells of the absorbing sponge along each edge of an absorbing dispersive grid (fewer on a
/// grid under 8 sponges wide): wide enough that the long waves it must take see a slow ramp.
pub const SPONGE_CELLS: usize = 24;

/// The sponge's damping at the outermost cell, per step (it falls off as the square of the
/// distance into the grid).
const SPONGE_STRENGTH: f32 = 0.25;

/// Signed grid water stepped exactly for every Fourier mode ([`crate::kernels::spectral_step`]):
/// each mode of wavenumber `k` oscillates at Airy's `omega(k)` ([`AiryDispersion`]).
///
/// Edges: `periodic`, or `absorbing` (a sponge of [`SPONGE_CELLS`] cells along each edge
/// damps what reaches it; `docs/math.md`, section 13, measures its reflection). Land is held at
/// 0 after each step, as on the other grids, so it reflects. Stable for any `dt` below
/// `pi / omega_max`, the period limit of the fastest resolved mode.
///
/// ```
/// use water_core::{AiryDispersion, Boundary, Damping, DispersiveGrid, GridSize, GridWater};
/// let airy = AiryDispersion::gravity_waves(9.81)?;
/// let mut sea = DispersiveGrid::new(GridSize::new(64, 64)?, 0.5, 0.05, Damping::NONE, airy, Boundary::Periodic)?;
/// sea.step();
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DispersiveGrid {
    size: GridSize,
    cell_size: f64,
    dt: f64,
    damping: f32,
    airy: AiryDispersion,
    boundary: Boundary,
    field: WaveField,
    spectral: SpectralStep,
    /// Per-cell sponge factor of an absorbing grid.
    sponge: Option<Vec<f32>>,
    /// The land as stepped: the caller's and the depth map's dry cells (None: no land).
    land: Option<LandMask>,
    /// The caller's land ([`GridWater::set_land`]).
    placed: LandMask,
    /// The depth map's faces and reference depths ([`DispersiveGrid::set_depth`]).
    depth: Option<Box<SpectralDepth>>,
    /// The depth map's dry cells.
    dry: LandMask,
    parallelism: Parallelism,
    steps: u64,
    /// Holds the mean level where the exact recurrence puts it on undamped periodic water
    /// without land ([`MeanLevelKeeper`]): the spectral step keeps the mean in exact arithmetic
    /// (its multiplier at `k = 0` is 1), but each step's f32 transforms kick it.
    keeper: MeanLevelKeeper,
}

impl DispersiveGrid {
    /// Still water of `size` cells of `cell_size` m, stepped by `dt` s.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] / [`WaterError::NotPositive`] for `cell_size` or `dt`; bad
    /// damping; [`WaterError::BoundaryNotOffered`] for fixed or reflective edges;
    /// [`WaterError::DispersiveUnstable`] when `dt >= pi / omega_max` (naming that limit).
    pub fn new(
        size: GridSize,
        cell_size: f64,
        dt: f64,
        damping: Damping,
        airy: AiryDispersion,
        boundary: Boundary,
    ) -> Result<Self> {
        positive("cell_size", cell_size)?;
        positive("dt", dt)?;
        damping.validate_at(dt)?;
        if !matches!(boundary, Boundary::Periodic | Boundary::Absorbing) {
            return Err(WaterError::BoundaryNotOffered {
                boundary: boundary.name(),
                model: "dispersive",
                offered: "periodic or absorbing",
            });
        }
        check_dispersive_dt(cell_size, dt, &airy)?;
        // The tables are built in many places: the allocator is asked for the whole build
        // (both levels, two land masks of a byte a cell, the tables, the sponge) once, so a grid that does not fit is an error
        // naming the bytes rather than an abort half-way.
        probe_allocation(
            "a dispersive grid's levels and spectral tables",
            Self::bytes(size, boundary),
        )?;
        let spectral = SpectralStep::new(size, cell_size, dt, &airy);
        let sponge = (boundary == Boundary::Absorbing).then(|| sponge_factors(size));
        Ok(Self {
            size,
            cell_size,
            dt,
            damping: damping.per_step_factor(dt) as f32,
            airy,
            boundary,
            field: WaveField::try_at_rest(size)?,
            spectral,
            sponge,
            land: None,
            placed: LandMask::empty(size),
            depth: None,
            dry: LandMask::empty(size),
            parallelism: Parallelism::Auto,
            steps: 0,
            keeper: MeanLevelKeeper::new(size),
        })
    }

    /// The dispersion relation.
    #[must_use]
    pub fn airy(&self) -> &AiryDispersion {
        &self.airy
    }

    /// The time step, s.
    #[must_use]
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The largest stable time step, s: `pi / omega_max`.
    #[must_use]
    pub fn max_stable_dt(&self) -> f64 {
        max_stable_dt(self.spectral.omega_max())
    }

    /// The two time levels.
    #[must_use]
    pub fn field(&self) -> &WaveField {
        &self.field
    }

    /// The two time levels, to edit (land is zeroed again at the next step; the mean-level
    /// keeper takes what it finds at the next step as its reference).
    pub fn field_mut(&mut self) -> &mut WaveField {
        self.keeper.invalidate();
        &mut self.field
    }

    /// Whether the mean level is held to the exact recurrence's ([`MeanLevelKeeper`]): on
    /// undamped periodic water without land or dry cells, where the step conserves volume.
    #[must_use]
    pub fn keeps_mean_level(&self) -> bool {
        self.boundary == Boundary::Periodic && self.damping == 1.0 && self.land.is_none()
    }

    /// The keeper's anchoring (`before_step`) or its correction when one is due.
    fn keep_level(&mut self, before_step: bool) {
        if self.keeps_mean_level() && self.keeper.wanted(self.steps, before_step) {
            let (cur, old) = self.field.levels_mut();
            self.keeper
                .keep_mean_only(self.size, self.steps, (cur, old), self.parallelism);
        }
    }

    /// Samples the current heights.
    #[must_use]
    pub fn view(&self) -> HeightView<'_> {
        HeightView::from_validated(self.size, self.cell_size as f32, self.field.current())
    }

    /// Steps the water over `depth` (m per cell; cells at or below 0 m are land, beside the
    /// caller's): each cell's waves follow Airy's relation at the local depth, interpolated
    /// between reference depths ([`SpectralDepth`]; `docs/math.md`, section 13, gives the
    /// method and its error). The map replaces the relation's own depth. Costs `2K + 4`
    /// transforms a step for `K` reference depths ([`DispersiveGrid::depth_nodes`]) instead
    /// of 2.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for a map of another size; [`WaterError::DispersiveUnstable`] when
    /// `dt` is not below `pi / omega_max` at the map's deepest cell.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<()> {
        self.size.check_len("depth map", depth.cells().len())?;
        self.depth = Some(Box::new(SpectralDepth::checked(
            depth,
            self.cell_size,
            self.dt,
            &self.airy,
        )?));
        self.dry = depth.land();
        self.land_changed()
    }

    /// The reference depths (m) a depth map is stepped with, empty without one.
    #[must_use]
    pub fn depth_nodes(&self) -> &[f64] {
        self.depth.as_ref().map_or(&[], |d| d.nodes())
    }

    /// The largest relative error in omega that interpolating between the reference depths
    /// leaves ([`SpectralDepth::interpolation_error`]), `None` without a depth map.
    #[must_use]
    pub fn depth_interpolation_error(&self) -> Option<f64> {
        self.depth.as_ref().map(|d| d.interpolation_error())
    }

    /// The land as stepped made again from the caller's and the dry cells; both levels
    /// zeroed there.
    fn land_changed(&mut self) -> Result<()> {
        self.keeper.invalidate();
        if self.placed.is_empty() && self.dry.is_empty() {
            // No land to clear, and no union to allocate: a following grid at sea shifts (and
            // comes here) most steps.
            self.land = None;
            return Ok(());
        }
        let land = self.placed.union(&self.dry)?;
        let (cur, old) = self.field.levels_mut();
        land.clear(cur);
        land.clear(old);
        self.land = (!land.is_empty()).then_some(land);
        Ok(())
    }

    fn step_once(&mut self, contacts: Option<&ContactMasks>) {
        // Called from outside any thread pool (as `water run` and the scene call it), each of
        // the step's parallel phases would hand its work to the pool and wait for it. Moved
        // onto the pool once, the phases start from one of its workers instead (the
        // `grid-models/dispersive/outside-the-pool` bench: docs/benchmarks.md).
        let parallel = self.parallelism.threads(self.size.cells()) > 1;
        if parallel && rayon::current_thread_index().is_none() {
            rayon::scope(|_| self.step_on_this_thread(contacts));
        } else {
            self.step_on_this_thread(contacts);
        }
    }

    fn step_on_this_thread(&mut self, contacts: Option<&ContactMasks>) {
        self.keep_level(true);
        {
            let (cur, old) = self.field.levels_mut();
            match &mut self.depth {
                Some(depth) => {
                    let parallel = self.parallelism.threads(self.size.cells()) > 1;
                    spectral_depth_step(
                        &mut self.spectral,
                        depth,
                        (cur, old),
                        self.damping,
                        parallel,
                    );
                }
                None => spectral_step(
                    &mut self.spectral,
                    (cur, old),
                    self.damping,
                    self.parallelism,
                ),
            }
        }
        self.field.swap();
        let (cur, old) = self.field.levels_mut();
        // Events set heights on the new level now; the pressure patch moves both levels last.
        let (events, displacement) = match contacts {
            Some(c) if c.source() == ContactSource::Displacement => (None, Some(c)),
            events => (events, None),
        };
        if let Some(contacts) = events {
            contacts.apply_signed(cur);
        }
        if let Some(sponge) = &self.sponge {
            // Both levels, so the sponge takes the wave's speed as well as its height.
            for ((z, z_old), &s) in cur.iter_mut().zip(old.iter_mut()).zip(sponge) {
                *z *= s;
                *z_old *= s;
            }
        }
        // The pressure patch moves both levels after the whole step, sponge included, as the
        // GPU backends add it after theirs.
        if let Some(contacts) = displacement {
            contacts.apply_to_levels(cur, old);
        }
        if let Some(land) = &self.land {
            land.clear(cur);
            if displacement.is_some() {
                land.clear(old);
            }
        }
        self.steps += 1;
        if contacts.is_some() {
            // Contact events take and give water: anchored again before the next step.
            self.keeper.invalidate();
        }
        self.keep_level(false);
    }
}

/// Checks that `dt` s is below the dispersive model's limit `pi / omega_max` on cells of
/// `cell_size` m (`omega_max`: Airy's frequency at the diagonal Nyquist mode): what
/// [`DispersiveGrid::new`] and the GPU backend refuse.
///
/// # Errors
/// [`WaterError::NotPositive`] / [`WaterError::NotFinite`] for `cell_size` or `dt`;
/// [`WaterError::DispersiveUnstable`] naming the limit.
pub fn check_dispersive_dt(cell_size: f64, dt: f64, airy: &AiryDispersion) -> Result<()> {
    positive("cell_size", cell_size)?;
    positive("dt", dt)?;
    let omega_max = airy.omega(largest_wavenumber(cell_size));
    let limit = max_stable_dt(omega_max);
    if dt >= limit {
        return Err(WaterError::DispersiveUnstable {
            dt,
            max_stable_dt: limit,
            omega_max,
        });
    }
    Ok(())
}

/// `pi / omega_max`: at `omega dt = pi` a mode's two-step recurrence has a double root and
/// grows linearly; below it every mode is sampled faster than twice a period.
fn max_stable_dt(omega_max: f64) -> f64 {
    PI / omega_max
}

/// Cells of the absorbing sponge along each edge of a `size` grid: [`SPONGE_CELLS`], or an
/// eighth of the shorter side where that is less (at least 1).
#[must_use]
pub fn sponge_width(size: GridSize) -> usize {
    SPONGE_CELLS.min(size.width().min(size.height()) / 8).max(1)
}

/// The absorbing sponge's per-step factor of each cell of a `size` grid, row-major:
/// `1 - s (1 - r / B)^2` at `r` cells from the nearest edge (`r < B`, `B` = [`SPONGE_CELLS`]
/// or less on a small grid), 1 inside. The GPU backend uploads the same factors.
#[must_use]
pub fn sponge_factors(size: GridSize) -> Vec<f32> {
    let (w, h) = (size.width(), size.height());
    let width = sponge_width(size);
    (0..size.cells())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let r = x.min(y).min(w - 1 - x).min(h - 1 - y);
            if r >= width {
                1.0
            } else {
                let t = 1.0 - r as f32 / width as f32;
                1.0 - SPONGE_STRENGTH * t * t
            }
        })
        .collect()
}

impl DispersiveGrid {
    /// Bytes a `size` grid with `boundary` edges holds: both levels, two land masks of a byte
    /// a cell, the spectral step's tables, and an absorbing grid's sponge factors.
    #[must_use]
    pub fn bytes(size: GridSize, boundary: Boundary) -> u64 {
        let sponge_bytes = if boundary == Boundary::Absorbing {
            size.cells() as u64 * 4
        } else {
            0
        };
        size.cells() as u64 * (8 + 2) + SpectralStep::table_bytes(size) + sponge_bytes
    }
}

impl GridWater for DispersiveGrid {
    fn step(&mut self) {
        self.step_once(None);
    }

    fn size(&self) -> GridSize {
        self.size
    }

    fn cell_size(&self) -> f64 {
        self.cell_size
    }

    fn set_parallelism(&mut self, parallelism: Parallelism) {
        self.parallelism = parallelism;
    }

    /// Signed: one f32 height a cell.
    fn mode(&self) -> GridMode {
        GridMode::Signed
    }

    /// Periodic or absorbing (a sponge).
    fn boundary(&self) -> Boundary {
        self.boundary
    }

    fn steps_taken(&self) -> u64 {
        self.steps
    }

    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<()> {
        self.size
            .check_len("contact mask", contacts.new_mask().len())?;
        self.step_once(Some(contacts));
        Ok(())
    }

    fn add_impulse(&mut self, impulse: &Impulse) {
        self.keeper.invalidate();
        let (cur, old) = self.field.levels_mut();
        let displacement = impulse.displacement();
        impulse.for_each_cell(self.size, false, self.land.as_ref(), |i, v| {
            cur[i] += v;
            if displacement {
                old[i] += v;
            }
        });
    }

    fn set_land(&mut self, land: LandMask) -> Result<()> {
        self.size.check_len("land mask", land.cells().len())?;
        self.placed = land;
        self.land_changed()
    }

    /// Moves the water and the land, a depth map's dry cells with it (as the signed grid and
    /// the GPU backends do); the depth map's wave speeds stay where they are: set the new
    /// place's depth after a shift.
    fn shift_window(&mut self, dx: isize, dy: isize) {
        self.keeper.invalidate();
        // An absorbing dispersive grid's edge is a sponge of water, not Mur's extrapolation.
        self.field.shift(self.size, dx, dy, false);
        self.placed.shift(dx, dy);
        self.dry.shift(dx, dy);
        // The union of lands of one size: cannot fail.
        let _ = self.land_changed();
    }

    signed_field_methods!();

    fn volume(&self) -> f64 {
        crate::diagnostics::volume(self.field.current(), self.cell_size)
    }

    /// The energy the spectral step conserves (m^2): each Fourier mode's
    /// `1/2 |Z - Z_old|^2 + (1 - cos(omega dt)) Re(Z conj Z_old)` ([`SpectralStep::energy`]).
    ///
    /// Over a depth map: `sum 1/2 (z - z_old)^2 + z L z_old` with the map's flux operator `L`
    /// ([`SpectralDepth`]), the same quantity in real space (kept to the interpolation's
    /// asymmetry, measured in `docs/math.md`, section 13).
    fn energy(&self) -> f64 {
        let (cur, old) = (self.field.current(), self.field.previous());
        let Some(depth) = &self.depth else {
            return self.spectral.energy(cur, old);
        };
        let (mut plan, mut depth) = (self.spectral.clone(), depth.as_ref().clone());
        let mut l_old = vec![0.0f32; cur.len()];
        depth.apply(&mut plan, old, &mut l_old, false);
        cur.iter()
            .zip(old)
            .zip(&l_old)
            .map(|((&z, &zo), &l)| {
                let (z, zo, l) = (f64::from(z), f64::from(zo), f64::from(l));
                0.5 * (z - zo).powi(2) + z * l
            })
            .sum()
    }
}
