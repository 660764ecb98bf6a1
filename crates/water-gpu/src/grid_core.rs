//! One GPU grid water over two level stores: what [`crate::ComputeGrid`] (levels in buffers,
//! f32 or f16 words) and [`crate::FragmentGrid`] (levels in textures) share, written once.
//!
//! [`GridCore`] is the state: the device, the spec, the time levels' ring, the land and the
//! depth's dry cells, the step count, the step uniforms and the surface texture. [`LevelStore`]
//! is what a store does its own way (record steps, read and write a level's words, add
//! per-cell amounts, run the mean-level keeper), and the functions below are the operations built
//! on it once: stepping in runs between the mean-level keeper's corrections, submitting or
//! recording; replacing the land. `GpuGridWater` itself is one blanket implementation for every
//! `LevelStore`, which writes an impulse and a step with contact events in place; what a store
//! does its own way behind the public operations comes through `LevelIo`, `DepthStore`,
//! `ShiftStore` and `SurfaceStore`.

use water_core::{Boundary, ContactMasks, ContactSource, GridMode, GridSize, Impulse, LandMask};

use crate::depth_faces::LandParts;
use crate::device_calls::uniform_buffer;
use crate::error::GpuError;
use crate::gpu_grid_water::{sealed::GridTargets, GpuGridWater};
use crate::keeper::carried::record_in_runs;
use crate::keeper::KeeperPlan;
use crate::normal_height::NormalHeightTexture;
use crate::recording::{record_buffer_write, submit_recorded};
use crate::spec::{settled_level, GridSpec};
use crate::time_levels::TimeLevels;
use crate::uniforms::{GridUniforms, ImpulseCell};
use crate::window_shift::ShiftPlan;

/// The state every GPU grid keeps, whatever holds its levels.
#[derive(Debug)]
pub(crate) struct GridCore {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// What the grid simulates.
    pub spec: GridSpec,
    /// Which slot is previous, current and spare: four buffers for the compute grid's fused
    /// steps, three textures for the fragment grid.
    pub levels: TimeLevels,
    /// The land as stepped: the caller's and the depth's dry cells.
    pub land_mask: LandMask,
    pub land_parts: LandParts,
    /// Whether a depth is set (the step kernels then read the depth's faces).
    pub has_depth: bool,
    /// The step uniforms, and a copy the contact steps read (their amplitude recorded into it).
    pub uniforms_plain: wgpu::Buffer,
    pub uniforms_contacts: wgpu::Buffer,
    pub base_uniforms: GridUniforms,
    /// The normal-and-height texture, made on first use.
    pub surface: Option<NormalHeightTexture>,
    /// Steps taken so far.
    pub steps: u64,
}

impl GridCore {
    /// The state of still water on `spec` with no land and no depth, its levels in a ring of
    /// `slots`; writes the uniforms.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, spec: GridSpec, slots: usize) -> Self {
        let size = spec.size;
        let base_uniforms = GridUniforms::new(
            size.width() as u32,
            size.height() as u32,
            spec.boundary,
            spec.mode,
            spec.coefficients(),
            spec.classic_shift,
        );
        let uniform =
            |label: &str| uniform_buffer(device, label, bytemuck::bytes_of(&base_uniforms));
        Self {
            device: device.clone(),
            queue: queue.clone(),
            spec,
            levels: TimeLevels::new(slots),
            land_mask: LandMask::empty(size),
            land_parts: LandParts::none(&spec),
            has_depth: false,
            uniforms_plain: uniform("water uniforms"),
            uniforms_contacts: uniform("water uniforms with contacts"),
            base_uniforms,
            surface: None,
            steps: 0,
        }
    }

    /// Records the copy of the contact amplitude into the uniforms the contact steps read.
    pub fn record_contact_uniforms(&self, encoder: &mut wgpu::CommandEncoder, amplitude: f32) {
        let uniforms = GridUniforms {
            contact_amplitude: amplitude,
            has_contacts: 1,
            ..self.base_uniforms
        };
        record_buffer_write(
            &self.device,
            encoder,
            &self.uniforms_contacts,
            bytemuck::bytes_of(&uniforms),
        );
    }

    /// The uniforms a step reads: with contact events or without.
    pub fn step_uniforms(&self, contacts: bool) -> &wgpu::Buffer {
        if contacts {
            &self.uniforms_contacts
        } else {
            &self.uniforms_plain
        }
    }

    /// Whether the mean-level keeper whose plan is `plan` runs now: the spec conserves volume
    /// and no land is set (and, as on the CPU, not over varying depth at a marginal
    /// checkerboard).
    pub fn keeps_level(&self, plan: Option<&KeeperPlan>) -> bool {
        plan.is_some_and(|k| self.land_mask.is_empty() && !(self.has_depth && k.checker()))
    }
}

/// What holds a grid's levels and how it steps them: the part of a GPU grid that differs
/// between buffers and textures.
pub(crate) trait LevelStore: LevelIo + DepthStore + ShiftStore + SurfaceStore {
    fn core(&self) -> &GridCore;
    fn core_mut(&mut self) -> &mut GridCore;
    /// The mean-level keeper's schedule and plan, when the spec conserves volume.
    fn keeper_plan(&self) -> Option<&KeeperPlan>;
    /// Records `steps` steps (with the contact uniforms and masks when `contacts`) and
    /// advances the ring and the step count.
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool);
    /// The keeper's anchoring or correction, when one is wanted. **Submits and waits.**
    fn keep_level(&mut self, before_step: bool) -> Result<(), GpuError>;
    /// The keeper's work recorded into the caller's encoder, never waiting.
    fn record_keep_level(&mut self, encoder: &mut wgpu::CommandEncoder, before_step: bool);
    /// Forgets the keeper's reference: the levels were changed from outside.
    fn invalidate_level(&mut self);
    /// Records adding `cells`' amounts (at least one cell) to the current level, and to the
    /// previous one too for a `displacement`; [`add_cell_amounts`] is what calls it.
    fn record_cell_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        cells: &[ImpulseCell],
        displacement: bool,
    ) -> Result<(), GpuError>;
    /// Records the copies of both contact masks into the store's own mask buffers or textures.
    fn record_contact_masks(&mut self, encoder: &mut wgpu::CommandEncoder, contacts: &ContactMasks);
    /// Refuses the displacement contact source where the store cannot take it (every store
    /// takes it but the compute grid's f16 words).
    fn check_displacement(&self) -> Result<(), GpuError> {
        Ok(())
    }
    /// Writes the land as one `u32` flag a cell.
    fn write_land_flags(&self, flags: &[u32]);
    /// The words of the level in `slot`, as stored. **Submits and waits.**
    fn read_level_words(&self, slot: usize) -> Result<Vec<u32>, GpuError>;
    /// Sets the level in `slot` to `words`, as stored. **Queues a write.**
    fn write_level_words(&self, slot: usize, words: &[u32]);
    /// Zeroes the `land` cells of a level's `words`, as stored.
    fn clear_land_words(&self, words: &mut [u32], land: &LandMask);

    /// Whether the keeper runs now ([`GridCore::keeps_level`]).
    fn keeps_level(&self) -> bool {
        self.core().keeps_level(self.keeper_plan())
    }

    /// How many of `left` steps run before the keeper's next correction (all of them when the
    /// keeper is idle).
    fn keeper_run(&self, left: u64) -> u64 {
        match (self.keeper_plan(), self.keeps_level()) {
            (Some(plan), true) => plan.segment(self.core().steps, left),
            _ => left,
        }
    }
}

/// A store's whole levels to and from the host (each grid's `level_io.rs`): the work behind
/// [`crate::GpuGridWater`]'s uploads and readbacks, as its docs say. The grid's mode is
/// checked before any of these is called ([`check_mode`]), and uploaded levels come settled
/// on the land; the store checks their lengths.
pub(crate) trait LevelIo {
    /// Behind [`crate::GpuGridWater::upload_f32`]: signed or split water.
    fn upload_f32_levels(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError>;
    /// Behind [`crate::GpuGridWater::upload_i16`]: classic water.
    fn upload_i16_levels(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError>;
    /// Behind [`crate::GpuGridWater::heights`]: any mode.
    fn read_heights(&self) -> Result<Vec<f32>, GpuError>;
    /// Behind [`crate::GpuGridWater::channels`]: signed or split water.
    fn read_channels(&self) -> Result<Vec<f32>, GpuError>;
    /// Behind [`crate::GpuGridWater::classic_heights`]: classic water.
    fn read_classic_heights(&self) -> Result<Vec<i16>, GpuError>;
}

/// Refuses `operation` on a grid of the other kind: `classic` operations take classic grids
/// alone, the others signed and split ones (`instead` names what the grid's mode takes).
fn check_mode(
    spec: &GridSpec,
    operation: &'static str,
    classic: bool,
    instead: &'static str,
) -> Result<(), GpuError> {
    if (spec.mode == GridMode::Classic) == classic {
        return Ok(());
    }
    Err(GpuError::WrongMode {
        operation,
        mode: spec.mode,
        instead,
    })
}

/// Checks that an uploaded level (`what`: the current or the previous one) holds `expected`
/// values (cells times channels, or stored words): the uploads' refusal,
/// [`water_core::WaterError::SizeMismatch`], for lengths other than the one value a cell that
/// [`GridSize::check_len`] checks.
pub(crate) fn check_level_len(
    size: GridSize,
    what: &'static str,
    expected: usize,
    actual: usize,
) -> Result<(), GpuError> {
    if actual == expected {
        return Ok(());
    }
    Err(water_core::WaterError::SizeMismatch {
        what,
        width: size.width(),
        height: size.height(),
        expected,
        actual,
    }
    .into())
}

/// Both levels with the land's cells (and a fixed or classic rim) at 0, as the steps keep
/// them.
fn settled<T: Copy + Default>(core: &GridCore, current: &[T], previous: &[T]) -> [Vec<T>; 2] {
    [current, previous].map(|level| settled_level(&core.spec, &core.land_mask, level))
}

/// A store's depth: the faces' wave speeds and the dry cells (each grid's `varying_depth.rs`),
/// behind [`crate::GpuGridWater::set_depth`].
pub(crate) trait DepthStore {
    fn take_depth(&mut self, depth: &water_core::Depth) -> Result<(), GpuError>;
}

/// A store's passes moving the window (each grid's `window_shift.rs`), recorded by
/// [`encode_shift_window`] in their place among the steps both stores share.
pub(crate) trait ShiftStore {
    /// Makes what the moves need before anything moves (the compute grid's kernel, on first
    /// use), so that an error leaves the grid as it was.
    fn prepare_shift(&mut self) -> Result<(), GpuError> {
        Ok(())
    }
    /// Records both moves of `plan` ([`ShiftPlan::moves`]): each level shifted into its new
    /// slot, with still water where none comes in.
    fn record_level_moves(&mut self, encoder: &mut wgpu::CommandEncoder, plan: &ShiftPlan);
    /// Records the copy of the moved land, one `u32` flag a cell, into the store's land buffer
    /// or texture.
    fn record_land_flags(&self, encoder: &mut wgpu::CommandEncoder, flags: &[u32]);
}

/// A store's pass drawing the normal-and-height texture (each grid's `surface.rs`), behind
/// [`crate::GpuGridWater::encode_update_normal_height`].
pub(crate) trait SurfaceStore {
    fn encode_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError>;
}

/// [`crate::GpuGridWater::step_many`]: runs cut where the keeper corrects, each submitted, each
/// cut followed by the correction (which waits).
pub(crate) fn step_many(grid: &mut impl LevelStore, steps: u64) -> Result<(), GpuError> {
    let core = grid.core();
    let (device, queue) = (core.device.clone(), core.queue.clone());
    grid.keep_level(true)?;
    let mut left = steps;
    while left > 0 {
        let run = grid.keeper_run(left);
        submit_recorded(&device, &queue, "water steps", |encoder| {
            grid.encode_steps(encoder, run, false);
            Ok(())
        })?;
        left -= run;
        grid.keep_level(false)?;
    }
    Ok(())
}

/// [`crate::GpuGridWater::encode_step_many`]: the same runs and the keeper's recorded work,
/// into the caller's encoder.
pub(crate) fn encode_step_many<G: LevelStore>(
    grid: &mut G,
    encoder: &mut wgpu::CommandEncoder,
    steps: u64,
) {
    record_in_runs(
        grid,
        encoder,
        steps,
        |grid, left| grid.keeper_run(left),
        G::record_keep_level,
        |grid, encoder, run| grid.encode_steps(encoder, run, false),
    );
}

/// [`crate::GpuGridWater::encode_shift_window`]: the plan both stores follow (`window_shift.rs`),
/// the store's moves of both levels, then the ring's new roles and the moved land, recorded
/// in order with the rest of the encoder.
pub(crate) fn encode_shift_window(
    grid: &mut impl LevelStore,
    encoder: &mut wgpu::CommandEncoder,
    dx: isize,
    dy: isize,
) -> Result<(), GpuError> {
    grid.prepare_shift()?;
    let core = grid.core_mut();
    let plan = ShiftPlan::new(&core.spec, &core.levels, &mut core.land_parts, (dx, dy))?;
    grid.invalidate_level();
    grid.record_level_moves(encoder, &plan);
    grid.core_mut().levels.after_shift();
    grid.record_land_flags(encoder, &plan.land_flags);
    grid.core_mut().land_mask = plan.land;
    Ok(())
}

/// [`crate::GpuGridWater::set_land`]: the land written and its cells zeroed in both levels
/// through the host.
pub(crate) fn set_land(grid: &mut impl LevelStore, land: LandMask) -> Result<(), GpuError> {
    let core = grid.core_mut();
    core.spec.size.check_len("land mask", land.cells().len())?;
    core.land_parts.placed = land;
    let land = core.land_parts.combined()?;
    grid.invalidate_level();
    let flags: Vec<u32> = land.cells().iter().map(|&l| u32::from(l)).collect();
    grid.write_land_flags(&flags);
    let levels = grid.core().levels;
    for slot in [levels.previous(), levels.current()] {
        let mut words = grid.read_level_words(slot)?;
        grid.clear_land_words(&mut words, &land);
        grid.write_level_words(slot, &words);
    }
    grid.core_mut().land_mask = land;
    Ok(())
}

/// Per-cell amounts added by the store ([`LevelStore::record_cell_amounts`]), for an impulse
/// and for the displacement contact source alike: the keeper forgets its reference first (the
/// amounts change the levels from outside, even when every cell was land and none is left),
/// and no cells record nothing.
fn add_cell_amounts(
    grid: &mut impl LevelStore,
    encoder: &mut wgpu::CommandEncoder,
    cells: &[ImpulseCell],
    displacement: bool,
) -> Result<(), GpuError> {
    grid.invalidate_level();
    if cells.is_empty() {
        return Ok(());
    }
    grid.record_cell_amounts(encoder, cells, displacement)
}

/// The pressure patch's per-cell amounts after a step, as the CPU grids add them
/// ([`ContactMasks::displacements`]): on a fixed boundary interior cells only, no land cells.
fn displacement_cells(
    contacts: &ContactMasks,
    size: GridSize,
    boundary: Boundary,
    land: &LandMask,
) -> Vec<ImpulseCell> {
    let (w, h) = (size.width(), size.height());
    let on_rim = |i: usize| {
        let (x, y) = (i % w, i / w);
        boundary == Boundary::Fixed && (x == 0 || y == 0 || x == w - 1 || y == h - 1)
    };
    contacts
        .displacements()
        .filter(|&(i, _)| !land.cells()[i] && !on_rim(i))
        .map(|(i, amount)| ImpulseCell {
            index: i as u32,
            amount,
        })
        .collect()
}

/// The impulse's per-cell amounts as the CPU grids would add them: interior cells only on a
/// fixed boundary, no land cells, classic amounts rounded and saturated to i16 first.
fn impulse_cells(
    impulse: &Impulse,
    size: GridSize,
    boundary: Boundary,
    mode: GridMode,
    land: &LandMask,
) -> Vec<ImpulseCell> {
    let mut cells = Vec::new();
    let interior_only = boundary == Boundary::Fixed || mode == GridMode::Classic;
    impulse.for_each_cell(size, interior_only, Some(land), |index, amount| {
        let amount = if mode == GridMode::Classic {
            f32::from(amount.round() as i16)
        } else {
            amount
        };
        cells.push(ImpulseCell {
            index: index as u32,
            amount,
        });
    });
    cells
}

impl<T: LevelStore> GridTargets for T {
    fn device(&self) -> &wgpu::Device {
        &self.core().device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.core().queue
    }

    fn normal_height(&mut self) -> Option<&mut NormalHeightTexture> {
        self.core_mut().surface.as_mut()
    }

    fn normal_height_ref(&self) -> Option<&NormalHeightTexture> {
        self.core().surface.as_ref()
    }
}

// Both grids' `GpuGridWater`, written once: the shared operations above, and each store's own
// work through `LevelIo`, `DepthStore`, `ShiftStore` and `SurfaceStore`.
impl<T: LevelStore> GpuGridWater for T {
    fn spec(&self) -> &GridSpec {
        &self.core().spec
    }

    fn steps_taken(&self) -> u64 {
        self.core().steps
    }

    fn land(&self) -> &LandMask {
        &self.core().land_mask
    }

    fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        set_land(self, land)
    }

    fn set_depth(&mut self, depth: &water_core::Depth) -> Result<(), GpuError> {
        self.take_depth(depth)
    }

    fn encode_shift_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        dx: isize,
        dy: isize,
    ) -> Result<(), GpuError> {
        encode_shift_window(self, encoder, dx, dy)
    }

    /// The amounts computed on the host as the CPU grids compute them, added by the store.
    fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError> {
        let core = self.core();
        let spec = &core.spec;
        let cells = impulse_cells(
            impulse,
            spec.size,
            spec.boundary,
            spec.mode,
            &core.land_mask,
        );
        add_cell_amounts(self, encoder, &cells, impulse.displacement())
    }

    /// Both masks and the amplitude copied in order with the rest of the encoder, then the
    /// step; for the displacement source, a plain step and then the masks' displacement on
    /// both levels.
    fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError> {
        let spec = self.core().spec;
        spec.size
            .check_len("contact mask", contacts.new_mask().len())?;
        spec.size
            .check_len("contact mask", contacts.old_mask().len())?;
        if contacts.source() == ContactSource::Displacement {
            // The pressure patch: a plain step, then the masks' displacement on both levels
            // (the CPU grids' `ContactMasks::apply_to_levels`).
            contacts.check_offered(spec.mode)?;
            self.check_displacement()?;
            self.encode_steps(encoder, 1, false);
            let land = &self.core().land_mask;
            let cells = displacement_cells(contacts, spec.size, spec.boundary, land);
            return add_cell_amounts(self, encoder, &cells, true);
        }
        // Contact events take and give water: the keeper re-anchors before its next step.
        self.invalidate_level();
        self.core()
            .record_contact_uniforms(encoder, contacts.amplitude());
        self.record_contact_masks(encoder, contacts);
        self.encode_steps(encoder, 1, true);
        Ok(())
    }

    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        encode_step_many(self, encoder, steps);
    }

    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        step_many(self, steps)
    }

    fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        check_mode(self.spec(), "upload_f32", false, "upload_i16")?;
        let [current, previous] = settled(self.core(), current, previous);
        self.upload_f32_levels(&current, &previous)
    }

    fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        check_mode(self.spec(), "upload_i16", true, "upload_f32")?;
        let [current, previous] = settled(self.core(), current, previous);
        self.upload_i16_levels(&current, &previous)
    }

    fn heights(&self) -> Result<Vec<f32>, GpuError> {
        self.read_heights()
    }

    fn channels(&self) -> Result<Vec<f32>, GpuError> {
        check_mode(self.spec(), "channels", false, "classic_heights")?;
        self.read_channels()
    }

    fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        check_mode(self.spec(), "classic_heights", true, "heights")?;
        self.read_classic_heights()
    }

    fn encode_update_normal_height(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        self.encode_surface(encoder)
    }
}
