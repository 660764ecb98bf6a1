//! The surface texture for rendering: per cell the unit normal and the height (xyz = normal,
//! w = height in metres; classic grids: integer height units), from
//! `shaders/surface_normals.wgsl`, in two formats:
//!
//! - [`NORMAL_HEIGHT_FORMAT`] (`Rgba32Float`): exact, what readback and the CPU comparisons use. Bind
//!   it with `textureLoad` or a *non-filtering* (nearest) sampler: wgpu refuses a linear sampler
//!   on it unless the device has [`wgpu::Features::FLOAT32_FILTERABLE`].
//! - [`FILTERABLE_NORMAL_HEIGHT_FORMAT`] (`Rgba16Float`): the same texels rounded to binary16
//!   (`shaders/surface_filterable.wgsl`), filterable on every device: bind this one with a
//!   linear sampler. Binary16 keeps 11 significant bits, a relative step of 2^-10, e.g. 1 mm on
//!   a 1 m wave; its largest finite value is 65504, beyond which heights become infinite.

use water_core::GridMode;

use crate::device_calls::{made_on_first_use, texture_2d};
use crate::error::GpuError;
use crate::pipelines::{full_screen_pass, full_screen_pipeline};
use crate::readback::{f32s, read_texture, PendingReadback};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage::{f16_to_f32, StorageFormat};
use crate::uniforms::{mode_code, SurfaceUniforms};

/// Texel format of the surface texture: exact, not filterable by a linear sampler.
pub const NORMAL_HEIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// Texel format of the filterable copy of the surface: bind it with a linear sampler.
pub const FILTERABLE_NORMAL_HEIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// The normal-and-height texture of one grid and the uniforms its pass reads. Public in a
/// private module: the sealed [`crate::gpu_grid_water::sealed::GridTargets`] hands it out.
#[derive(Debug)]
pub struct NormalHeightTexture {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub uniforms: wgpu::Buffer,
    /// The `Rgba16Float` copy, made on first use.
    pub filterable: Option<FilterableCopy>,
}

/// The filterable copy of the surface and the pass that writes it.
#[derive(Debug)]
pub struct FilterableCopy {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pipeline: wgpu::RenderPipeline,
    /// Binds the `Rgba32Float` surface, which never changes, so one group serves every frame.
    group: wgpu::BindGroup,
}

impl NormalHeightTexture {
    /// A texture the size of the grid whose levels are stored as `format`; `storage` for the
    /// compute pass, `render` for the fragment pass.
    pub fn new(
        device: &wgpu::Device,
        spec: &GridSpec,
        format: StorageFormat,
        storage: bool,
    ) -> Self {
        use wgpu::util::DeviceExt;
        let usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | if storage {
                wgpu::TextureUsages::STORAGE_BINDING
            } else {
                wgpu::TextureUsages::RENDER_ATTACHMENT
            };
        let texture = texture_2d(
            device,
            "water normal and height",
            (spec.size.width() as u32, spec.size.height() as u32),
            NORMAL_HEIGHT_FORMAT,
            usage,
        );
        let view = texture.create_view(&Default::default());
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water surface uniforms"),
            contents: bytemuck::bytes_of(&SurfaceUniforms {
                width: spec.size.width() as u32,
                height: spec.size.height() as u32,
                mode: mode_code(spec.mode),
                cell_size: spec.params.cell_size() as f32,
                f16_words: u32::from(format == StorageFormat::F16),
                _pad0: 0,
                _pad1: 0,
                _pad2: 0,
            }),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        Self {
            texture,
            view,
            uniforms,
            filterable: None,
        }
    }

    /// Records the copy of the surface into its `Rgba16Float` twin (made on first use) and
    /// returns the twin's view. Record it after the pass that updates the surface.
    pub fn encode_filterable(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        let copy = made_on_first_use(device, &mut self.filterable, || {
            let texture = texture_2d(
                device,
                "water normal and height (filterable)",
                (self.texture.width(), self.texture.height()),
                FILTERABLE_NORMAL_HEIGHT_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
            );
            let pipeline = full_screen_pipeline(
                device,
                shaders::SURFACE_FILTERABLE,
                "surface_filterable",
                "fs_main",
                FILTERABLE_NORMAL_HEIGHT_FORMAT,
            );
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water surface (filterable)"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&self.view),
                }],
            });
            FilterableCopy {
                view: texture.create_view(&Default::default()),
                texture,
                pipeline,
                group,
            }
        })?;
        full_screen_pass(encoder, &copy.view, &copy.pipeline, &copy.group);
        Ok(&copy.view)
    }

    /// Reads the filterable copy back, widened exactly to f32: `[nx, ny, nz, height]` per
    /// cell, row-major; `None` before the first [`NormalHeightTexture::encode_filterable`].
    pub fn read_filterable(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Option<Vec<[f32; 4]>>, GpuError> {
        let Some(copy) = &self.filterable else {
            return Ok(None);
        };
        let bytes = read_texture(device, queue, &copy.texture, 8)?;
        let halves: Vec<u16> = bytemuck::pod_collect_to_vec(&bytes);
        Ok(Some(
            halves
                .chunks_exact(4)
                .map(|t| {
                    [
                        f16_to_f32(t[0]),
                        f16_to_f32(t[1]),
                        f16_to_f32(t[2]),
                        f16_to_f32(t[3]),
                    ]
                })
                .collect(),
        ))
    }

    /// The filterable copy's view; `None` before the first [`Self::encode_filterable`].
    pub fn filterable_view(&self) -> Option<&wgpu::TextureView> {
        self.filterable.as_ref().map(|copy| &copy.view)
    }

    /// The filterable copy's texture; `None` before the first [`Self::encode_filterable`].
    pub fn filterable_texture(&self) -> Option<&wgpu::Texture> {
        self.filterable.as_ref().map(|copy| &copy.texture)
    }

    /// The fragment pass's entry point for a mode (the compute pass has one, `main`, for
    /// every mode and storage).
    pub fn fragment_entry(mode: GridMode) -> &'static str {
        if mode == GridMode::Classic {
            "fs_classic"
        } else {
            "fs_main"
        }
    }

    /// Starts reading the texture back: the bytes of [`NormalHeightTexture::read`], when the
    /// readback completes.
    pub fn start_read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<PendingReadback, GpuError> {
        let texels = self.texture.width() as usize * self.texture.height() as usize;
        PendingReadback::start_texture(device, queue, &self.texture, 16, texels * 16)
    }

    /// Reads the texture back: one `[nx, ny, nz, height]` per cell, row-major.
    pub fn read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<[f32; 4]>, GpuError> {
        let values = f32s(&read_texture(device, queue, &self.texture, 16)?);
        Ok(values
            .chunks_exact(4)
            .map(|t| [t[0], t[1], t[2], t[3]])
            .collect())
    }
}
