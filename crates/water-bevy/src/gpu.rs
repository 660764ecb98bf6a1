//! The GPU backends inside the plugin: the water steps on Bevy's own `RenderDevice` and
//! `RenderQueue`; its normal-and-height texture is copied into the surface's texture on the
//! GPU (the heights never visit the CPU to be drawn); gameplay heights arrive by an asynchronous
//! readback of patches around the points gameplay asks about, a frame or more after the step
//! they show.

use bevy::prelude::*;
use bevy::render::render_asset::RenderAssets;
use bevy::render::renderer::{RenderAdapter, RenderDevice, RenderQueue};
use bevy::render::texture::GpuImage;
use bevy::render::{Extract, ExtractSchedule, Render, RenderApp, RenderSystems};
use std::sync::{Mutex, MutexGuard, PoisonError};

use water_scene::water_core::{CellRect, GridSize, HeightPatches, HeightView};
use water_scene::water_gpu::{GpuContext, GpuError, GpuGridWater, PatchReader, PendingPatches};
use water_scene::{wgpu, SceneError};

use crate::simulation::WaterSimulation;
use crate::surface::WaterSurface;

/// The device, queue and adapter of Bevy's renderer as the scene takes them, when the app has
/// a renderer (`RenderPlugin`, in `DefaultPlugins`) or inserted those resources itself.
pub(crate) fn bevy_gpu(
    device: Option<&RenderDevice>,
    queue: Option<&RenderQueue>,
    adapter: Option<&RenderAdapter>,
) -> Option<GpuContext> {
    Some(GpuContext::new(
        (**adapter?.0).clone(),
        device?.wgpu_device().clone(),
        (**queue?.0).clone(),
    ))
}

/// Radius, in cells, of the disc each asked point's patch answers in (the patch adds the cells
/// sampling needs around it: at most 21 x 21 cells, 1,764 bytes). A point asked in one frame
/// is gathered after that frame's fixed steps and its patch is there two frames later (one
/// more on a slow device), so a point asked every frame is answered every frame while it
/// moves less than this in two frames: 4 cells a frame, 24 m/s on 0.1 m cells at 60 frames a
/// second.
pub(crate) const PATCH_RADIUS_CELLS: f32 = 8.0;

/// Heights for gameplay on a GPU backend: patches around the points gameplay asked about
/// (through [`crate::WaterQuery`]), the last readback that arrived and the one on its way,
/// gathered on the device (`water_gpu::PatchReader`, 4 bytes a cell). The whole field is read
/// only when the asked points' patches would hold more cells than it.
#[derive(Debug)]
pub(crate) struct GpuHeights {
    /// The device the readbacks are polled on.
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The gather, made on the first readback.
    reader: Option<PatchReader>,
    /// Patches of water step `step`, the grid's corner at `origin` (the water's z-up frame,
    /// metres), each with the disc it answers in (grid-local metres: centre, radius).
    patches: Option<(HeightPatches, Vec<(Vec2, f32)>)>,
    step: Option<u64>,
    origin: Vec2,
    /// The readback started after step `.1`, the grid's corner at `.2`, its discs `.3`.
    pending: Option<(PendingPatches, u64, Vec2, Vec<(Vec2, f32)>)>,
    /// Points asked about since the last readback started (the water's frame, metres): the
    /// next one gathers the patches around them.
    asked: Mutex<Vec<Vec2>>,
    /// The grid's size and cell size (metres).
    size: GridSize,
    cell_size: f32,
    /// Cells of one point's patch away from the grid's rim.
    patch_cells: usize,
}

impl GpuHeights {
    /// None yet, for a grid of `size` cells of `cell_size` metres on `device` and `queue`.
    pub(crate) fn new(
        device: wgpu::Device,
        queue: wgpu::Queue,
        size: GridSize,
        cell_size: f32,
    ) -> Self {
        Self {
            device,
            queue,
            reader: None,
            patches: None,
            step: None,
            origin: Vec2::ZERO,
            pending: None,
            asked: Mutex::new(Vec::new()),
            size,
            cell_size,
            patch_cells: CellRect::around(
                size,
                cell_size,
                Vec2::new(size.width() as f32, size.height() as f32) * cell_size * 0.5,
                PATCH_RADIUS_CELLS * cell_size,
            )
            .cells(),
        }
    }

    /// Runs `f` on the patch of the last readback that holds `at` (the water's frame,
    /// metres; the view is grid-local, its corner at [`GpuHeights::origin`]); `None` before
    /// the first readback or when no patch holds `at`. Either way `at` is read by the next
    /// readback, so a point asked every frame is answered from the frame after its first.
    pub(crate) fn with_patch_at<R>(
        &self,
        at: Vec2,
        f: impl FnOnce(&HeightView<'_>) -> R,
    ) -> Option<R> {
        self.ask(at);
        let (patches, discs) = self.patches.as_ref()?;
        let local = at - self.origin;
        let held = discs
            .iter()
            .position(|&(centre, radius)| local.distance(centre) <= radius)?;
        Some(f(&patches.view(held)))
    }

    /// The points asked since the last readback started. (Nothing panics while holding them,
    /// so a poisoned lock still holds a whole list.)
    fn asked(&self) -> MutexGuard<'_, Vec<Vec2>> {
        self.asked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the points noted are so many that their patches would hold more cells than the
    /// grid (counted unclipped): the next readback takes the whole field, which answers every
    /// point, so no more need noting.
    fn whole_field(&self, noted: usize) -> bool {
        noted.saturating_mul(self.patch_cells) > self.size.cells()
    }

    /// Notes `at` for the next readback, in place of a point noted within a quarter of the
    /// patch's radius (the same point, moved: its newest place is the one to gather around).
    fn ask(&self, at: Vec2) {
        // A point with no place has no patch (and would never match one noted).
        if !at.is_finite() {
            return;
        }
        let mut asked = self.asked();
        if self.whole_field(asked.len()) {
            return;
        }
        let near = self.cell_size * PATCH_RADIUS_CELLS * 0.25;
        match asked.iter_mut().find(|p| p.distance(at) <= near) {
            Some(p) => *p = at,
            None => asked.push(at),
        }
    }

    /// Whether a point asked since the last readback started lies more than a quarter of the
    /// patch's radius from the centres of the readback on its way, or else of the heights
    /// held: a new readback is then worth starting even if the water has not changed. (A
    /// point that moves keeps its patch centred within a quarter radius of where it was two
    /// frames before, so it stays inside the disc the held patch answers in.)
    fn asked_uncovered(&self) -> bool {
        let (discs, origin) = match (&self.pending, &self.patches) {
            (Some((_, _, origin, discs)), _) => (discs, *origin),
            (None, Some((_, discs))) => (discs, self.origin),
            (None, None) => return !self.asked().is_empty(),
        };
        let covered = |p: &Vec2| {
            discs
                .iter()
                .any(|&(c, r)| (*p - origin).distance(c) <= 0.25 * r)
        };
        !self.asked().iter().all(covered)
    }

    /// The water step the heights are from.
    pub(crate) fn step(&self) -> Option<u64> {
        self.step
    }

    /// Where the grid's corner was when the heights were taken.
    pub(crate) fn origin(&self) -> Option<Vec2> {
        self.step.map(|_| self.origin)
    }

    /// The rectangles the next readback gathers, with the discs they answer in: one around
    /// each asked point, or the whole grid when those would hold more cells.
    fn next_rects(&self, origin: Vec2) -> Vec<(CellRect, Vec2, f32)> {
        let asked = std::mem::take(&mut *self.asked());
        let (size, cell_size) = (self.size, self.cell_size);
        if self.whole_field(asked.len()) {
            return vec![(CellRect::whole(size), Vec2::ZERO, f32::INFINITY)];
        }
        let radius = PATCH_RADIUS_CELLS * cell_size;
        let rects: Vec<(CellRect, Vec2, f32)> = asked
            .into_iter()
            .map(|p| p - origin)
            .map(|centre| {
                (
                    CellRect::around(size, cell_size, centre, radius),
                    centre,
                    radius,
                )
            })
            .collect();
        let cells: usize = rects.iter().map(|(rect, ..)| rect.cells()).sum();
        if cells > size.cells() {
            vec![(CellRect::whole(size), Vec2::ZERO, f32::INFINITY)]
        } else {
            rects
        }
    }

    /// Takes a readback that has arrived; then, when the water has stepped or moved past the
    /// heights held or on their way, or a point was asked outside their patches, updates the
    /// normal-and-height texture and starts the next readback (with a readback still on its
    /// way, it updates the texture alone, for drawing, when the water changed). `origin`:
    /// where the grid's corner is now.
    pub(crate) fn refresh(
        &mut self,
        grid: &mut dyn GpuGridWater,
        origin: Vec2,
    ) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::Poll)
            .map_err(|e| GpuError::DeviceLost(e.to_string()))?;
        if let Some((pending, ..)) = &self.pending {
            if let Some(patches) = pending.try_take() {
                let patches = patches?;
                let Some((_, step, taken_at, discs)) = self.pending.take() else {
                    unreachable!("checked above")
                };
                self.patches = Some((patches, discs));
                self.step = Some(step);
                self.origin = taken_at;
            }
        }
        // A shift moves the heights without a step (a focus that moved between steps).
        let now = (grid.steps_taken(), origin);
        let asked = match &self.pending {
            Some((_, step, at, _)) => Some((*step, *at)),
            None => self.step.map(|step| (step, self.origin)),
        };
        let changed = asked != Some(now);
        if !changed && !self.asked_uncovered() {
            return Ok(());
        }
        if self.pending.is_none() {
            if self.reader.is_none() {
                self.reader = Some(PatchReader::new(&self.device)?);
            }
            let Some(reader) = &self.reader else {
                unreachable!("made above")
            };
            let (rects, discs): (Vec<CellRect>, Vec<(Vec2, f32)>) = self
                .next_rects(origin)
                .into_iter()
                .map(|(rect, centre, radius)| (rect, (centre, radius)))
                .unzip();
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("water gameplay heights"),
                });
            if rects.is_empty() {
                // The gather updates the surface texture (which the surface draws from); with
                // nothing to gather, update it here.
                grid.encode_update_normal_height(&mut encoder)?;
            }
            let pending = reader.encode_read(grid, &mut encoder, rects)?;
            self.queue.submit([encoder.finish()]);
            self.pending = Some((pending, now.0, origin, discs));
        } else if changed {
            grid.update_normal_height()?;
        }
        Ok(())
    }
}

/// Keeps each GPU water's normal-and-height texture current and its gameplay heights coming,
/// once per frame after the fixed steps, and the gameplay sea at their step.
pub(crate) fn refresh_gpu_heights(mut water: Query<(Entity, &mut WaterSimulation)>) {
    for (entity, mut simulation) in &mut water {
        if let Err(source) = simulation.refresh_gpu_heights() {
            error!(
                "{}",
                crate::WaterBevyError::Scene {
                    entity,
                    source: SceneError::Gpu(source)
                }
            );
        }
        simulation.refresh_gameplay_sea();
    }
}

/// The render world's copies this frame: the water's normal-and-height texture into each GPU
/// surface's texture.
#[derive(Resource, Default)]
struct SurfaceCopies(Vec<(AssetId<Image>, wgpu::Texture)>);

/// Registers the render world's part: extract the textures, copy them before the frame draws.
pub(crate) fn build_render(app: &mut App) {
    let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    render_app
        .init_resource::<SurfaceCopies>()
        .add_systems(ExtractSchedule, extract_surface_copies)
        .add_systems(
            Render,
            copy_surfaces.in_set(RenderSystems::PrepareResources),
        );
}

fn extract_surface_copies(
    mut copies: ResMut<SurfaceCopies>,
    water: Extract<Query<(&WaterSimulation, &WaterSurface)>>,
) {
    copies.0.clear();
    for (simulation, surface) in &water {
        if let Some(texture) = simulation
            .scene()
            .water()
            .gpu()
            .and_then(|grid| grid.normal_height_texture())
        {
            copies.0.push((surface.heights.id(), texture.clone()));
        }
    }
}

/// Copies each GPU water's normal-and-height texture into its surface's texture (both
/// `Rgba32Float`, the size of the grid): a GPU-to-GPU copy, submitted before the frame's
/// passes draw the surface.
fn copy_surfaces(
    copies: Res<SurfaceCopies>,
    images: Res<RenderAssets<GpuImage>>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    if copies.0.is_empty() {
        return;
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("water surface copy"),
    });
    for (image, source) in &copies.0 {
        let Some(target) = images.get(*image) else {
            continue;
        };
        if target.texture.size() != source.size() || target.texture.format() != source.format() {
            error!(
                "water surface texture {:?} {:?} does not match the water's {:?} {:?}",
                target.texture.size(),
                target.texture.format(),
                source.size(),
                source.format()
            );
            continue;
        }
        encoder.copy_texture_to_texture(
            source.as_image_copy(),
            target.texture.as_image_copy(),
            source.size(),
        );
    }
    queue.submit([encoder.finish()]);
}
