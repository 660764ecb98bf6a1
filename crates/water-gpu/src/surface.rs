//! The surface texture for rendering: per cell the unit normal and the height
//! (`Rgba32Float`: xyz = normal, w = height), from `shaders/surface_normals.wgsl`.

use water_core::GridMode;

use crate::error::GpuError;
use crate::readback::{f32s, read_texture};
use crate::spec::GridSpec;
use crate::uniforms::{mode_code, SurfaceUniforms};

/// Texel format of the surface texture.
pub const SURFACE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The surface texture of one grid and the uniforms its pass reads.
#[derive(Debug)]
pub(crate) struct Surface {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub uniforms: wgpu::Buffer,
}

impl Surface {
    /// A texture the size of the grid; `storage` for the compute pass, `render` for the
    /// fragment pass.
    pub fn new(device: &wgpu::Device, spec: &GridSpec, storage: bool) -> Self {
        use wgpu::util::DeviceExt;
        let usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | if storage {
                wgpu::TextureUsages::STORAGE_BINDING
            } else {
                wgpu::TextureUsages::RENDER_ATTACHMENT
            };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("water surface"),
            size: wgpu::Extent3d {
                width: spec.size.width() as u32,
                height: spec.size.height() as u32,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SURFACE_FORMAT,
            usage,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water surface uniforms"),
            contents: bytemuck::bytes_of(&SurfaceUniforms {
                width: spec.size.width() as u32,
                height: spec.size.height() as u32,
                mode: mode_code(spec.mode),
                cell_size: spec.params.cell_size() as f32,
            }),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        Self {
            texture,
            view,
            uniforms,
        }
    }

    /// Entry point for a mode: `(compute, fragment)`.
    pub fn entries(mode: GridMode) -> (&'static str, &'static str) {
        if mode == GridMode::Classic {
            ("main_classic", "fs_classic")
        } else {
            ("main", "fs_main")
        }
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
