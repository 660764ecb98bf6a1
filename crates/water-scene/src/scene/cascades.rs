//! Cascades ([`Scene::set_cascades`]): coarser grids around the scene's grid, each of the same
//! cell count with twice the cell size of the one inside it, centred on the same point, each
//! stepping the grid's model at its own cell size and the scene's `dt`. `docs/math.md`, section
//! 17, derives the method and what it loses.
//!
//! - **Handoff.** After each step every cascade is relaxed toward the one inside it: where the
//!   finer grid covers a coarse cell (away from its absorbing edge), both time levels of that
//!   cell move toward the mean of the 2 x 2 finer cells over it, by a weight that rises from 0
//!   at the finer grid's absorbing band to 1 over [`CASCADE_BLEND_CELLS`] of its cells. Inside,
//!   the coarse water is the finer water; the waves that leave the finer grid's interior go on
//!   in the coarser one, which carries them as the finer grid's edge takes them away.
//! - **Sources.** An impulse lands in every cascade whose cells its radius spans at least
//!   [`CASCADE_IMPULSE_MIN_CELLS`] of; every body's hulls are drawn into every cascade's own
//!   contact masks, so a wake is made wherever a body is, also beyond the finest grid.
//! - **Surface.** [`Scene::cascade_height_at`] takes each point from the finest cascade covering
//!   it, blended into the next coarser one across the same band, so no seam shows; bodies and
//!   [`Scene::surface_at`] read the same blended surface (bodies with the default
//!   [`crate::BodyWater::Current`]).

use glam::{DVec2, I64Vec2, Vec2};
use rayon::prelude::*;
use water_core::{
    ContactMasks, FollowingWindow, GridMode, HeightSource, Impulse, LandMask, WaveParams,
};
use water_gpu::{CascadeOverlap, GpuBackend, GpuGrid, GridSpec};

use super::cascade_land::coarse_land;
use super::foam::{raise_cascade_foam, FinerGrid, FoamLayer};
use super::masks::Masks;
use super::nested_water::{CascadeHeights, NestedWater};
use super::Scene;
use crate::backend::Backend;
use crate::backend_grid::BackendGrid;
use crate::body::SceneBody;
use crate::error::SceneError;
use crate::water::{Water, WaterGrid};

/// The most cascades a scene takes (the scene's grid counted): the coarsest's cells are
/// `2^7 = 128` times the finest's.
pub const MAX_CASCADES: usize = 8;

/// A cascade's cells, inside its absorbing band, over which it hands over to the next coarser
/// one: the relaxation's weight and the surface's blend rise from 0 to 1 across them.
pub const CASCADE_BLEND_CELLS: f32 = 16.0;

/// An impulse lands in a cascade whose cells its radius spans at least this many of (a
/// narrower one would be a spike of one or two cells there).
pub const CASCADE_IMPULSE_MIN_CELLS: f32 = 2.0;

/// One coarser grid: cascade `k >= 1`.
#[derive(Debug)]
pub(super) struct Cascade {
    /// Its grid: the scene's, at `2^k` times the cell size.
    pub(super) spec: GridSpec,
    pub(super) water: BackendGrid,
    pub(super) window: FollowingWindow,
    contacts: ContactMasks,
    /// The mask being drawn, reused every step.
    scratch: Vec<f32>,
    /// The last step drew hulls into the masks: a step without bodies must draw them empty
    /// once, so the hulls' cut leaves the water as stern events and no stale mask is left.
    drawn: bool,
    /// A body was added since the masks were last drawn: the next drawing goes into both.
    pub(super) settle: bool,
    /// Its foam, with the scene's ([`Scene::set_foam`]).
    pub(super) foam: Option<FoamLayer>,
    /// Its land where it is now: the scene's land seen through it ([`coarse_land`]).
    land: LandMask,
    /// Finest cells to one of its cells, `2^k`.
    scale: i64,
}

/// The cascades beyond the scene's grid, finest first.
#[derive(Debug, Default)]
pub(super) struct SceneCascades {
    pub(super) levels: Vec<Cascade>,
}

/// The cells along a grid's edges that its absorbing treatment owns: the dispersive model's
/// sponge, or the wave model's Mur rim (and its neighbour, which the rim's reflection reaches
/// first). No blend or relaxation reads them.
pub(super) fn edge_cells(spec: &GridSpec) -> f32 {
    if spec.dispersion.is_some() && spec.boundary == water_core::Boundary::Absorbing {
        water_core::sponge_width(spec.size) as f32
    } else {
        2.0
    }
}

/// The hand-over weight at `distance` cells (from a point to a grid's nearest edge, in that
/// grid's cells): 0 within the edge band, a smoothstep up to 1 over [`CASCADE_BLEND_CELLS`].
#[must_use]
pub fn cascade_weight(distance: f32, edge: f32) -> f32 {
    let t = ((distance - edge) / CASCADE_BLEND_CELLS).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The refusal of `count` cascades (more than one) on `backend`, where they are not offered:
/// [`Scene::set_cascades`] says it, and a caller can ask before making a scene.
pub(crate) fn cascades_refused_on(backend: Backend, count: usize) -> Option<SceneError> {
    (count > 1 && backend == Backend::GpuFragment).then(|| SceneError::Cascades {
        count,
        reason: format!("cascades run on the cpu and gpu (compute) backends, not {backend}"),
    })
}

impl Scene {
    /// Puts `count - 1` coarser grids around the scene's grid (`count = 1`: the grid alone,
    /// the default): cascade `k` has the grid's cell count, `2^k` times its cell size, and
    /// follows the grid's centre. They start still; see the module docs for how they step.
    ///
    /// # Errors
    /// [`SceneError::Cascades`] for `count` of 0 or past [`MAX_CASCADES`], for edges that do
    /// not absorb, and where cascades are not offered yet: the fragment backend, split and
    /// classic modes, masks drawn on the GPU; a cell size past the model's range (named by
    /// the grid's check); memory the allocator or the device refuses. A depth map set on the
    /// scene's grid stays its own: the cascades step at the spec's uniform depth.
    ///
    /// On the compute backend (`gpu`) every cascade is a grid on the scene's device, each
    /// stepped and handed over there (`shaders/relax_toward.wgsl`); the bodies (with
    /// [`crate::BodyWater::Current`]) and the surface queries then read every cascade's heights
    /// back each step they read the water (a wait), not a patch a frame late. With
    /// [`crate::BodyWater::OneStepLate`] the bodies read the scene's grid's patches alone, one
    /// step late, on every backend.
    pub fn set_cascades(&mut self, count: usize) -> Result<(), SceneError> {
        let refuse = |reason: &str| SceneError::Cascades {
            count,
            reason: reason.into(),
        };
        if count == 0 || count > MAX_CASCADES {
            return Err(refuse(&format!("must be 1 to {MAX_CASCADES}")));
        }
        if count == 1 {
            self.cascades = None;
            return Ok(());
        }
        if let Some(refused) = cascades_refused_on(self.settings.backend, count) {
            return Err(refused);
        }
        if self.spec.mode != GridMode::Signed {
            return Err(refuse(&format!(
                "cascades take signed mode (the wave or dispersive model), not {}",
                self.spec.mode.name()
            )));
        }
        if self.spec.boundary != water_core::Boundary::Absorbing {
            return Err(refuse(&format!(
                "cascades take absorbing edges, which let waves go on outward, not {}",
                self.spec.boundary.name()
            )));
        }
        if matches!(self.masks, Masks::Gpu { .. }) {
            return Err(refuse("cascades need contact masks drawn on the CPU"));
        }
        let amplitude = self.settings.contact_amplitude;
        let mut levels = Vec::with_capacity(count - 1);
        for k in 1..count {
            let spec = self.cascade_spec(k)?;
            let water = self.cascade_water(spec)?;
            let window = FollowingWindow::new(spec.size, spec.params.cell_size())?;
            let contacts =
                ContactMasks::new(spec.size, amplitude)?.with_source(self.settings.contact_source);
            levels.push(Cascade {
                spec,
                water,
                window,
                contacts,
                scratch: still_mask(spec.size.cells())?,
                drawn: false,
                settle: false,
                foam: self
                    .foam
                    .as_ref()
                    .map(|f| FoamLayer::new(spec.size, f.settings.half_life))
                    .transpose()?,
                land: LandMask::empty(spec.size),
                scale: 1 << k,
            });
        }
        let mut cascades = SceneCascades { levels };
        let anchor = self.cascade_anchor();
        let world_land = &self.following.world_land;
        for level in &mut cascades.levels {
            follow(level, anchor, world_land)?;
            // Where it starts, also where it did not move.
            take_land(level, world_land)?;
        }
        self.cascades = Some(cascades);
        Ok(())
    }

    /// Still water of `spec` for a cascade, on the scene's grid's backend (on a GPU, on its
    /// device).
    fn cascade_water(&self, spec: GridSpec) -> Result<BackendGrid, SceneError> {
        match (self.water.gpu(), self.patches.gpu()) {
            (None, _) => BackendGrid::new(spec, LandMask::empty(spec.size), Backend::Cpu, None),
            (Some(_), None) => Err(SceneError::NoGpu {
                backend: self.settings.backend,
            }),
            (Some(_), Some((device, queue))) => {
                let grid = GpuGrid::new(GpuBackend::Compute, device, queue, spec)?;
                Ok(BackendGrid::Gpu(Box::new(grid)))
            }
        }
    }

    /// Cascades, the scene's grid counted (1 without coarser ones).
    #[must_use]
    pub fn cascade_count(&self) -> usize {
        1 + self.cascades.as_ref().map_or(0, |c| c.levels.len())
    }

    /// Cascade `k`'s grid (`k = 0`: the scene's): for `k` up to [`MAX_CASCADES`] - 1 what it
    /// is or would be, so a caller can check cell sizes before [`Scene::set_cascades`].
    ///
    /// # Errors
    /// [`SceneError::NoCascade`] for `k` of [`MAX_CASCADES`] or more; the cell size's range.
    pub fn cascade_spec(&self, k: usize) -> Result<GridSpec, SceneError> {
        if k == 0 {
            return Ok(self.spec);
        }
        if k >= MAX_CASCADES {
            return Err(SceneError::NoCascade {
                k,
                count: self.cascade_count(),
            });
        }
        let p = self.spec.params;
        let scale = f64::from(1u32 << k);
        let params = WaveParams::new(p.cell_size() * scale, p.wave_speed(), p.dt(), p.damping())?;
        Ok(GridSpec {
            params,
            ..self.spec
        })
    }

    /// Where cascade `k`'s corner is in the world (m): the scene's grid's for `k = 0`.
    ///
    /// # Errors
    /// [`SceneError::NoCascade`] for a `k` past the last cascade.
    pub fn cascade_origin(&self, k: usize) -> Result<DVec2, SceneError> {
        Ok(self.cascade_window(k)?.origin())
    }

    /// Cascade `k`'s land where it is now (`k = 0`: the scene's grid's): the scene's land
    /// seen through it, a cell dry where any finest cell under it is.
    ///
    /// # Errors
    /// [`SceneError::NoCascade`] for a `k` past the last cascade.
    pub fn cascade_land(&self, k: usize) -> Result<&LandMask, SceneError> {
        if k == 0 {
            return Ok(self.window_land());
        }
        Ok(&self.cascade_level(k)?.land)
    }

    /// Cascade `k`'s heights, row-major (m; `k = 0`: the scene's grid).
    ///
    /// # Errors
    /// [`SceneError::NoCascade`] for a `k` past the last cascade; a failed GPU readback.
    pub fn cascade_heights(&self, k: usize) -> Result<Vec<f32>, SceneError> {
        if k == 0 {
            return self.water.heights();
        }
        self.cascade_level(k)?.water.heights()
    }

    /// The interactive water's height (m, without the ambient sea) at world point `xy` (the
    /// water's frame, m): from the finest cascade covering it, blended into the next coarser
    /// one across the finer one's hand-over band ([`cascade_weight`]); `None` beyond the
    /// coarsest cascade's edge or at a point that is not finite. Reads every cascade's heights
    /// (a readback on a GPU backend).
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn cascade_height_at(&mut self, xy: Vec2) -> Result<Option<f32>, SceneError> {
        if !xy.is_finite() {
            return Ok(None);
        }
        let point = xy.extend(0.0);
        let corner = self.grid_origin();
        if let Some(cascades) = &self.cascades {
            let heights = CascadeHeights::read((&self.water, &self.spec, corner), cascades)?;
            return Ok(heights.nested()?.level_at(point).map(|l| l.point.z));
        }
        let (spec, cell) = (self.spec, self.cell_size());
        let view = self.water.heights_view(cell, &mut self.heights)?;
        Ok(NestedWater::single(view, &spec, corner)
            .level_at(point)
            .map(|l| l.point.z))
    }

    /// The interactive water's height (m, without the ambient sea) at the centre of every
    /// cell of a grid of `size` cells of `cell` metres with its corner at `corner` (the water's
    /// frame, m), row-major, as [`Scene::cascade_height_at`] blends it (0 where it gives
    /// `None`): the cascades resampled onto one grid, for drawing them. Reads every cascade's
    /// heights once.
    ///
    /// # Errors
    /// [`water_core::WaterError::OutOfRange`] for a cell size not above 0 or not finite, or a
    /// corner not finite; a failed GPU readback.
    pub fn cascade_heights_over(
        &mut self,
        corner: Vec2,
        cell: f32,
        size: water_core::GridSize,
    ) -> Result<Vec<f32>, SceneError> {
        if !(cell.is_finite() && cell > 0.0) {
            return Err(water_core::WaterError::OutOfRange {
                name: "resampled cell size",
                value: f64::from(cell),
                range: "above 0 and finite, m",
            }
            .into());
        }
        if !corner.is_finite() {
            return Err(water_core::WaterError::OutOfRange {
                name: "resampled grid's corner",
                value: f64::from(if corner.x.is_finite() {
                    corner.y
                } else {
                    corner.x
                }),
                range: "finite, m",
            }
            .into());
        }
        let origin = self.grid_origin();
        let sample = |nested: &NestedWater<'_>| {
            (0..size.cells())
                .into_par_iter()
                .map(|i| {
                    let c = Vec2::new((i % size.width()) as f32, (i / size.width()) as f32);
                    let xy = corner + (c + Vec2::splat(0.5)) * cell;
                    nested.level_at(xy.extend(0.0)).map_or(0.0, |l| l.point.z)
                })
                .collect()
        };
        if let Some(cascades) = &self.cascades {
            let heights = CascadeHeights::read((&self.water, &self.spec, origin), cascades)?;
            return Ok(sample(&heights.nested()?));
        }
        let (spec, h) = (self.spec, self.cell_size());
        let view = self.water.heights_view(h, &mut self.heights)?;
        Ok(sample(&NestedWater::single(view, &spec, origin)))
    }

    fn cascade_window(&self, k: usize) -> Result<&FollowingWindow, SceneError> {
        if k == 0 {
            return Ok(&self.following.window);
        }
        Ok(&self.cascade_level(k)?.window)
    }

    pub(super) fn cascade_level(&self, k: usize) -> Result<&Cascade, SceneError> {
        self.cascades
            .as_ref()
            .and_then(|c| c.levels.get(k.wrapping_sub(1)))
            .ok_or_else(|| SceneError::NoCascade {
                k,
                count: self.cascade_count(),
            })
    }

    /// The world point (m) every cascade keeps in its centre cell: the centre of the scene's
    /// grid's centre cell, so that the cascades nest around it wherever the grid goes.
    fn cascade_anchor(&self) -> DVec2 {
        let window = &self.following.window;
        let size = self.spec.size;
        let centre = I64Vec2::new((size.width() / 2) as i64, (size.height() / 2) as i64);
        (window.origin_cells() + centre).as_dvec2() * window.cell_size()
            + DVec2::splat(0.5 * window.cell_size())
    }

    /// One step of every cascade, after the scene's grid stepped: each follows the grid, draws
    /// the bodies' hulls into its masks, steps and raises its foam (the cascades side by side,
    /// on the scene's threads), then each is relaxed toward the cascade inside it, finest
    /// first.
    pub(super) fn step_cascades(&mut self) -> Result<(), SceneError> {
        let Some(mut cascades) = self.cascades.take() else {
            return Ok(());
        };
        let result = self.step_cascade_levels(&mut cascades);
        self.cascades = Some(cascades);
        result
    }

    fn step_cascade_levels(&mut self, cascades: &mut SceneCascades) -> Result<(), SceneError> {
        let anchor = self.cascade_anchor();
        let (step, dt, t) = (self.step, self.spec.params.dt(), self.time());
        let count = cascades.levels.len() + 1;
        // Where each cascade lies once it has followed the anchor (an anchor the windows
        // refuse is refused here, before any cascade moves). Each moves its water, masks and
        // foam there in its own step below, side by side with the others.
        let followed: Vec<FollowingWindow> = cascades
            .levels
            .iter()
            .map(|level| {
                let mut window = level.window;
                window.follow_with(anchor, |_, _| Ok::<(), SceneError>(()))?;
                Ok(window)
            })
            .collect::<Result<_, SceneError>>()?;
        // The finer grid inside each cascade, where its foam shows instead (where it will be).
        let finer_grids: Vec<FinerGrid> = (1..=cascades.levels.len())
            .map(|k| {
                let (spec, origin) = if k == 1 {
                    (self.spec, self.following.window.origin())
                } else {
                    (cascades.levels[k - 2].spec, followed[k - 2].origin())
                };
                let cell = spec.params.cell_size() as f32;
                FinerGrid {
                    corner: origin.as_vec2(),
                    extent: Vec2::new(spec.size.width() as f32, spec.size.height() as f32) * cell,
                    cell,
                    edge: edge_cells(&spec),
                }
            })
            .collect();
        let foam = self
            .foam
            .as_ref()
            .filter(|_| cascades.levels.iter().any(|level| level.foam.is_some()));
        let sea = match (
            &mut self.ocean,
            foam.and_then(|f| f.settings.jacobian_threshold),
        ) {
            (Some(ocean), Some(_)) => Some(ocean.frame_at(step, dt).clone()),
            _ => None,
        };
        // Each cascade's own step (its masks, its water, its foam) reads nothing of another's:
        // the cascades take them side by side, each with the bits it would have alone.
        let bodies = self.bodies.as_slice();
        let world_land = &self.following.world_land;
        let stepped: Vec<Result<(), SceneError>> = cascades
            .levels
            .par_iter_mut()
            .zip(finer_grids)
            .enumerate()
            .map(|(i, (level, finer))| {
                follow(level, anchor, world_land)?;
                let masks_advanced = step_level(level, bodies, step)?;
                if let (Some(layer), Some(foam)) = (&mut level.foam, foam) {
                    let place = (
                        level.spec.params.cell_size() as f32,
                        level.window.origin().as_vec2(),
                        Some(finer),
                    );
                    raise_cascade_foam(
                        layer,
                        &foam.settings,
                        (i + 1, step),
                        masks_advanced.then_some(&level.contacts),
                        sea.as_deref(),
                        place,
                        t,
                    )?;
                }
                Ok(())
            })
            .collect();
        stepped.into_iter().collect::<Result<(), SceneError>>()?;
        // The hand-over runs finest first: each cascade is relaxed toward the one inside it as
        // that one was just relaxed.
        for k in 1..=cascades.levels.len() {
            let (inner, outer) = if k == 1 {
                (
                    (
                        &self.water,
                        &self.spec,
                        self.following.window.origin_cells(),
                    ),
                    &mut cascades.levels[0],
                )
            } else {
                let (finer, coarser) = cascades.levels.split_at_mut(k - 1);
                let finer = &finer[k - 2];
                (
                    (&finer.water, &finer.spec, finer.window.origin_cells()),
                    &mut coarser[0],
                )
            };
            relax_toward(inner, outer, count)?;
        }
        Ok(())
    }
}

/// One cascade's step at scene step `step`: the bodies' hulls drawn into its contact masks
/// (once more empty after the last body left), then its water stepped with them. Gives whether
/// its masks advanced this step.
fn step_level(level: &mut Cascade, bodies: &[SceneBody], step: u64) -> Result<bool, SceneError> {
    let masks_advanced = !bodies.is_empty() || level.drawn;
    if !masks_advanced {
        level.water.step_many(1)?;
        return Ok(false);
    }
    let corner = level.window.origin().as_vec2();
    let cell = level.spec.params.cell_size() as f32;
    level.scratch.fill(0.0);
    let source = level.contacts.source();
    for b in bodies {
        b.body
            .rasterise_grid_mask_at(corner, level.spec.size, cell, source, &mut level.scratch)
            .map_err(|source| SceneError::body(&b.name, step, source))?;
    }
    if level.settle {
        // A body just added: in C_old and C_new alike, so no entry event fires (as the scene's
        // grid draws it twice). A body removed since the last draw stays in both too (its cut
        // is the current C_new's), so this step still sees it leave. The others' last cuts are
        // in both as well: this one step they make their stern events but not their bow events
        // (the grid settles between steps and loses neither).
        let mut both = level.contacts.new_mask().to_vec();
        for (m, s) in both.iter_mut().zip(&level.scratch) {
            *m = m.max(*s);
        }
        level.contacts.advance(&both)?;
        level.settle = false;
    }
    level.contacts.advance(&level.scratch)?;
    level.water.step_with_contacts(&level.contacts)?;
    level.drawn = !bodies.is_empty();
    Ok(true)
}

impl SceneCascades {
    /// Lands `impulses` (world cells of the finest grid) in every cascade whose cells their
    /// radius spans at least [`CASCADE_IMPULSE_MIN_CELLS`] of, where each cascade is now: as
    /// they land on the scene's grid, before the bodies read the water; sets `reached[i]` where
    /// `impulses[i]` covered a cell of one.
    pub(super) fn land(
        &mut self,
        impulses: &[Impulse],
        reached: &mut [bool],
    ) -> Result<(), SceneError> {
        for (k, level) in (1..).zip(self.levels.iter_mut()) {
            let scale = (1u32 << k) as f32;
            let origin = level.window.origin_cells().as_vec2();
            let size = level.spec.size;
            for (impulse, reached) in impulses.iter().zip(reached.iter_mut()) {
                let radius = impulse.radius() / scale;
                if radius < CASCADE_IMPULSE_MIN_CELLS {
                    continue;
                }
                // World cell centres of the finest grid, `(c + 1/2) h`, in this cascade's cells.
                let centre = (impulse.centre() + Vec2::splat(0.5)) / scale - Vec2::splat(0.5);
                let moved = Impulse::new(
                    centre - origin,
                    radius,
                    impulse.amplitude(),
                    impulse.shape(),
                )?
                .with_displacement(impulse.displacement());
                *reached |= moved.reaches(size);
                level.water.add_impulse(&moved)?;
            }
        }
        Ok(())
    }
}

/// A mask of `cells` zeros, allocated fallibly.
fn still_mask(cells: usize) -> Result<Vec<f32>, SceneError> {
    let mut mask = Vec::new();
    mask.try_reserve_exact(cells)
        .map_err(|_| water_core::WaterError::OutOfMemory {
            what: "a cascade's contact mask",
            bytes: cells as u64 * 4,
        })?;
    mask.resize(cells, 0.0);
    Ok(mask)
}

/// Moves a cascade so that `anchor` (world, m) lies in its centre cell.
fn follow(level: &mut Cascade, anchor: DVec2, world_land: &LandMask) -> Result<(), SceneError> {
    let Cascade {
        water,
        window,
        contacts,
        foam,
        ..
    } = level;
    let by = window.follow_with(anchor, |dx, dy| -> Result<(), SceneError> {
        water.shift_window(dx, dy)?;
        contacts.shift(dx, dy);
        if let Some(foam) = foam {
            foam.field.shift(dx, dy);
        }
        Ok(())
    })?;
    if by != I64Vec2::ZERO {
        take_land(level, world_land)?;
    }
    Ok(())
}

/// Gives `level` the scene's land seen through it where it is now, when that changed (the
/// grid zeroes both levels there, as the scene's grid does where land comes in).
fn take_land(level: &mut Cascade, world_land: &LandMask) -> Result<(), SceneError> {
    if world_land.is_empty() && level.land.is_empty() {
        return Ok(());
    }
    let origin = level.window.origin_cells();
    let land = coarse_land(world_land, origin, level.scale, level.spec.size)?;
    if land != level.land {
        level.water.set_land(land.clone())?;
        level.land = land;
    }
    Ok(())
}

/// Relaxes `outer` (twice the cell size) toward `inner` where `inner` covers it: both time
/// levels of each coarse cell move toward the mean of the 2 x 2 inner cells over it by
/// [`cascade_weight`] of the coarse cell's centre's distance to the inner grid's edge. On the
/// compute backend its GPU twin, `shaders/relax_toward.wgsl`, does it on the device.
fn relax_toward(
    (inner, inner_spec, inner_origin): (&BackendGrid, &GridSpec, I64Vec2),
    outer: &mut Cascade,
    count: usize,
) -> Result<(), SceneError> {
    let edge = edge_cells(inner_spec);
    // Inner cell of the coarse cell (0, 0)'s lower corner: the corners are whole cells of each
    // grid, the coarse one's twice the size.
    let base = outer.window.origin_cells() * 2 - inner_origin;
    if let (Some(GpuGrid::Compute(inner)), Some(GpuGrid::Compute(water))) =
        (inner.gpu(), outer.water.gpu_mut())
    {
        // The GPU twin: shaders/relax_toward.wgsl.
        let overlap = CascadeOverlap {
            base,
            edge,
            blend_cells: CASCADE_BLEND_CELLS,
        };
        return Ok(water.relax_toward(inner, &overlap)?);
    }
    let inner_field = signed_field(inner, count)?;
    let (iw, ih) = (
        inner_spec.size.width() as i64,
        inner_spec.size.height() as i64,
    );
    let (ow, oh) = (outer.spec.size.width(), outer.spec.size.height());
    let outer_field = outer
        .water
        .cpu_mut()
        .and_then(|g| g.signed_field_mut())
        .ok_or_else(|| not_signed(count))?;
    let (cur, old) = outer_field.levels_mut();
    let (inner_cur, inner_old) = (inner_field.current(), inner_field.previous());
    let mean = |level: &[f32], i: usize, w: usize| {
        0.25 * ((level[i] + level[i + 1]) + (level[i + w] + level[i + w + 1]))
    };
    for cy in 0..oh {
        let fy = base.y + 2 * cy as i64;
        if fy < 0 || fy + 1 >= ih {
            continue;
        }
        for cx in 0..ow {
            let fx = base.x + 2 * cx as i64;
            if fx < 0 || fx + 1 >= iw {
                continue;
            }
            // The coarse cell's centre is the inner point (fx + 1, fy + 1).
            let distance = (fx + 1).min(iw - 1 - fx).min(fy + 1).min(ih - 1 - fy) as f32;
            let weight = cascade_weight(distance, edge);
            if weight == 0.0 {
                continue;
            }
            let i = (fy * iw + fx) as usize;
            let o = cy * ow + cx;
            if outer.land.is_land(cx, cy) {
                // Dry: the grid keeps it at 0, whatever the finer grid holds there.
                continue;
            }
            let w = iw as usize;
            let (to_cur, to_old) = (mean(inner_cur, i, w), mean(inner_old, i, w));
            if weight == 1.0 {
                // Deep inside, the coarse water is the finer water's mean, exactly.
                (cur[o], old[o]) = (to_cur, to_old);
            } else {
                cur[o] += weight * (to_cur - cur[o]);
                old[o] += weight * (to_old - old[o]);
            }
        }
    }
    Ok(())
}

/// The error for a grid that holds no signed CPU heights (cascades never run on one).
pub(super) fn not_signed(count: usize) -> SceneError {
    SceneError::Cascades {
        count,
        reason: "cascades take signed CPU grids".into(),
    }
}

/// The signed CPU heights of one of `count` cascades' grids.
pub(super) fn signed_field(
    water: &BackendGrid,
    count: usize,
) -> Result<&water_core::WaveField, SceneError> {
    water
        .cpu()
        .and_then(|g| g.signed_field())
        .ok_or_else(|| not_signed(count))
}
