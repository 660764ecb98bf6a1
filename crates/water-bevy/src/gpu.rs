//! The GPU backends inside the plugin: the water steps on Bevy's own `RenderDevice` and
//! `RenderQueue`; its normal-and-height texture is copied into the surface's texture on the
//! GPU (the heights never visit the CPU to be drawn); gameplay heights arrive by an asynchronous
//! readback, a frame or more after the step they show.

use bevy::prelude::*;
use bevy::render::render_asset::RenderAssets;
use bevy::render::renderer::{RenderAdapter, RenderDevice, RenderQueue};
use bevy::render::texture::GpuImage;
use bevy::render::{Extract, ExtractSchedule, Render, RenderApp, RenderSystems};
use water_scene::water_core::{CellRect, GridSize, HeightView};
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

/// Heights for gameplay on a GPU backend: the last readback that arrived, and the one on its
/// way (the heights alone, 4 bytes a cell, gathered on the device: `water_gpu::PatchReader`).
#[derive(Debug)]
pub(crate) struct GpuHeights {
    /// The device the readbacks are polled on.
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The gather, made on the first readback.
    reader: Option<PatchReader>,
    /// Heights (metres, row-major) of water step `step`, the grid's corner at `origin` (the
    /// water's z-up frame, metres).
    heights: Vec<f32>,
    step: Option<u64>,
    origin: Vec2,
    /// The readback started after step `.1`, the grid's corner at `.2`.
    pending: Option<(PendingPatches, u64, Vec2)>,
}

impl GpuHeights {
    /// None yet, on `device` and `queue`.
    pub(crate) fn new(device: wgpu::Device, queue: wgpu::Queue) -> Self {
        Self {
            device,
            queue,
            reader: None,
            heights: Vec::new(),
            step: None,
            origin: Vec2::ZERO,
            pending: None,
        }
    }

    /// Runs `f` on the heights that arrived last, or gives `None` before the first.
    pub(crate) fn with_view<R>(
        &self,
        size: GridSize,
        cell_size: f32,
        f: impl FnOnce(&HeightView<'_>) -> R,
    ) -> Option<R> {
        self.step?;
        HeightView::new(size, cell_size, &self.heights)
            .ok()
            .map(|view| f(&view))
    }

    /// The water step the heights are from.
    pub(crate) fn step(&self) -> Option<u64> {
        self.step
    }

    /// Where the grid's corner was when the heights were taken.
    pub(crate) fn origin(&self) -> Option<Vec2> {
        self.step.map(|_| self.origin)
    }

    /// Takes a readback that has arrived; then, when the water has stepped past the heights
    /// held or on their way, updates the normal-and-height texture and starts the next
    /// readback. Without a readback to start, it still updates the texture for drawing.
    /// `origin`: where the grid's corner is now.
    pub(crate) fn refresh(
        &mut self,
        grid: &mut dyn GpuGridWater,
        origin: Vec2,
    ) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::Poll)
            .map_err(|e| GpuError::DeviceLost(e.to_string()))?;
        if let Some((pending, step, taken_at)) = &self.pending {
            if let Some(patches) = pending.try_take() {
                self.heights.clear();
                self.heights.extend_from_slice(patches?.heights());
                self.step = Some(*step);
                self.origin = *taken_at;
                self.pending = None;
            }
        }
        // A shift moves the heights without a step (a focus that moved between steps).
        let now = (grid.steps_taken(), origin);
        let asked = match &self.pending {
            Some((_, step, at)) => Some((*step, *at)),
            None => self.step.map(|step| (step, self.origin)),
        };
        if asked == Some(now) {
            return Ok(());
        }
        if self.pending.is_none() {
            if self.reader.is_none() {
                self.reader = Some(PatchReader::new(&self.device)?);
            }
            let Some(reader) = &self.reader else {
                unreachable!("made above")
            };
            // The whole grid as one patch: its heights, after the surface texture's update
            // (which the surface draws from).
            let whole = CellRect::whole(grid.spec().size);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("water gameplay heights"),
                });
            let pending = reader.encode_read(grid, &mut encoder, vec![whole])?;
            self.queue.submit([encoder.finish()]);
            self.pending = Some((pending, now.0, origin));
        } else {
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
