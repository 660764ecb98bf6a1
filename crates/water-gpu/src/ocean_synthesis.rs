//! [`OceanSynthesis`]: the ambient sea synthesised on the GPU, `shaders/ocean_synthesis.wgsl`'s
//! host. CPU twin: `water_core::ocean::ocean_synthesis` (the same modes, multipliers and
//! transforms; the seeded amplitudes are uploaded once, so a seed is the same sea here).
//!
//! Each frame's phases `exp(-i omega t)` are computed on the host in f64 (one complex number a
//! mode) and reach the GPU through a copy recorded in the caller's encoder, so any number of
//! frames recorded into one encoder each see their own time (as `recording.rs` explains).

use water_core::ocean::{AmbientSea, CHOPPY_FIELDS, PLAIN_FIELDS};

use crate::device_calls::{
    check_limit, check_storage_bytes, filled_storage_buffer, storage_buffer, uniform_buffer,
    validated,
};
use crate::error::GpuError;
use crate::fft_twiddles::twiddles;
use crate::pipelines::{compute_buffer_entries, compute_pipelines_sharing};
use crate::readback::{f32s, PendingReadback};
use crate::recording::record_buffer_write;
use crate::shaders;

/// The texture format of [`OceanSynthesis::displacement`] and [`OceanSynthesis::normals`].
pub const OCEAN_TEXTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The kernels, in dispatch order.
const KERNELS: [&str; 4] = [
    "ocean_spectrum",
    "ocean_rows",
    "ocean_columns",
    "ocean_pack",
];
/// `ocean_spectrum` and `ocean_pack` cover 16 x 16 samples a workgroup.
const TILE: u32 = 16;
/// A bin without a mode (`NO_MODE` in the shader).
const NO_MODE: u32 = u32::MAX;

/// The ambient sea's tiles on the GPU: the field planes and the two textures drawing reads.
#[derive(Debug)]
pub struct OceanSynthesis {
    cells: u32,
    tiles: u32,
    pairs: u32,
    fields: usize,
    /// Each mode's omega, rad/s, for the host's phases.
    omegas: Vec<f64>,
    /// Each tile's side, metres.
    lengths: Vec<f32>,
    pipelines: [wgpu::ComputePipeline; 4],
    group: wgpu::BindGroup,
    rotations: wgpu::Buffer,
    planes: wgpu::Buffer,
    displacement: wgpu::Texture,
    normals: wgpu::Texture,
}

impl OceanSynthesis {
    /// The sea `sea` on `device`: its amplitudes, bins and twiddles uploaded through `queue`.
    ///
    /// # Errors
    /// [`GpuError::OceanTiles`] for tiles of different sample counts or one outside 16 to 2048
    /// (a power of two); [`GpuError::TooLarge`] past the device's limits;
    /// [`GpuError::Validation`] if wgpu refuses a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        sea: &AmbientSea,
    ) -> Result<Self, GpuError> {
        let n = sea.tiles().first().map_or(0, |t| t.cells);
        if !n.is_power_of_two()
            || !(16..=crate::SPECTRAL_MAX_SIDE).contains(&n)
            || sea.tiles().iter().any(|t| t.cells != n)
        {
            return Err(GpuError::OceanTiles {
                counts: sea.tiles().iter().map(|t| t.cells).collect(),
                max: crate::SPECTRAL_MAX_SIDE,
            });
        }
        let tiles = sea.tiles().len();
        let fields = if sea.choppiness() > 0.0 {
            CHOPPY_FIELDS
        } else {
            PLAIN_FIELDS
        };
        let pairs = fields.div_ceil(2);
        let cells = n * n;
        let plane_bytes = (tiles * pairs * cells * 8) as u64;
        check_storage_bytes(device, plane_bytes)?;
        let limits = device.limits();
        check_limit(
            "texture array layers",
            tiles as u64,
            u64::from(limits.max_texture_array_layers),
        )?;
        check_limit(
            "texture side (texels)",
            n as u64,
            u64::from(limits.max_texture_dimension_2d),
        )?;
        let mut modes: Vec<[f32; 4]> = Vec::new();
        let mut omegas = Vec::new();
        let mut mode_of_bin = vec![NO_MODE; tiles * cells];
        for (t, tile) in sea.tiles().iter().enumerate() {
            for m in &tile.modes {
                let bin = m.index.1 as usize * n + m.index.0 as usize;
                mode_of_bin[t * cells + bin] = modes.len() as u32;
                modes.push([
                    m.amplitude[0] as f32,
                    m.amplitude[1] as f32,
                    m.omega as f32,
                    0.0,
                ]);
                omegas.push(m.omega);
            }
        }
        // Buffers may not be empty: a sea without modes keeps one unused entry.
        if modes.is_empty() {
            modes.push([0.0; 4]);
        }
        let lengths: Vec<f32> = sea.tiles().iter().map(|t| t.length as f32).collect();
        let table: Vec<[f32; 2]> = twiddles(n).collect();
        let uniforms = [
            n.trailing_zeros(),
            tiles as u32,
            pairs as u32,
            (sea.choppiness() as f32).to_bits(),
        ];
        let filled = |label: &str, bytes: &[u8]| filled_storage_buffer(device, queue, label, bytes);
        let texture = |label: &str| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: n as u32,
                    height: n as u32,
                    depth_or_array_layers: tiles as u32,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: OCEAN_TEXTURE_FORMAT,
                usage: wgpu::TextureUsages::STORAGE_BINDING
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            })
        };
        let (pipelines, group, rotations, planes, displacement, normals) =
            validated(device, || {
                let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some("water ocean synthesis"),
                    entries: &layout_entries(),
                });
                let pipelines = compute_pipelines_sharing(
                    device,
                    "ocean_synthesis",
                    shaders::OCEAN_SYNTHESIS,
                    &layout,
                    KERNELS,
                );
                let rotations =
                    storage_buffer(device, "water ocean phases", (modes.len() * 8) as u64);
                let planes = storage_buffer(device, "water ocean planes", plane_bytes);
                let displacement = texture("water ocean displacement");
                let normals = texture("water ocean normals");
                let uniforms = uniform_buffer(
                    device,
                    "water ocean uniforms",
                    bytemuck::cast_slice(&uniforms),
                );
                let modes = filled("water ocean modes", bytemuck::cast_slice(&modes));
                let bins = filled("water ocean bins", bytemuck::cast_slice(&mode_of_bin));
                let table = filled("water ocean twiddles", bytemuck::cast_slice(&table));
                let lengths_buffer =
                    filled("water ocean tile lengths", bytemuck::cast_slice(&lengths));
                let array_view = |t: &wgpu::Texture| {
                    t.create_view(&wgpu::TextureViewDescriptor {
                        dimension: Some(wgpu::TextureViewDimension::D2Array),
                        ..Default::default()
                    })
                };
                let (d_view, n_view) = (array_view(&displacement), array_view(&normals));
                let buffers = [
                    &uniforms,
                    &modes,
                    &rotations,
                    &bins,
                    &planes,
                    &table,
                    &lengths_buffer,
                ];
                let mut entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
                    .iter()
                    .zip(0..)
                    .map(|(b, binding)| wgpu::BindGroupEntry {
                        binding,
                        resource: b.as_entire_binding(),
                    })
                    .collect();
                for (binding, view) in [(7, &d_view), (8, &n_view)] {
                    entries.push(wgpu::BindGroupEntry {
                        binding,
                        resource: wgpu::BindingResource::TextureView(view),
                    });
                }
                let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("water ocean synthesis"),
                    layout: &layout,
                    entries: &entries,
                });
                (pipelines, group, rotations, planes, displacement, normals)
            })?;
        Ok(Self {
            cells: n as u32,
            tiles: tiles as u32,
            pairs: pairs as u32,
            fields,
            omegas,
            lengths,
            pipelines,
            group,
            rotations,
            planes,
            displacement,
            normals,
        })
    }

    /// Records the sea at time `t` (s) into `encoder`: this frame's phases (a copy recorded in
    /// the encoder), then the four kernels. The textures hold it once the encoder's work ran.
    pub fn encode(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, t: f64) {
        let phases: Vec<[f32; 2]> = if self.omegas.is_empty() {
            vec![[0.0; 2]]
        } else {
            self.omegas
                .iter()
                .map(|w| {
                    let (s, c) = (w * t).rem_euclid(std::f64::consts::TAU).sin_cos();
                    [c as f32, -s as f32]
                })
                .collect()
        };
        record_buffer_write(
            device,
            encoder,
            &self.rotations,
            bytemuck::cast_slice(&phases),
        );
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("water ocean synthesis"),
            timestamp_writes: None,
        });
        pass.set_bind_group(0, &self.group, &[]);
        let squares = self.cells.div_ceil(TILE);
        let planes = self.tiles * self.pairs;
        let grids: [(u32, u32, u32); 4] = [
            (squares, squares, self.tiles),
            (self.cells, planes, 1),
            (self.cells, planes, 1),
            (squares, squares, self.tiles),
        ];
        for (pipeline, (x, y, z)) in self.pipelines.iter().zip(grids) {
            pass.set_pipeline(pipeline);
            pass.dispatch_workgroups(x, y, z);
        }
    }

    /// Synthesises the sea at time `t` (s) and submits it.
    pub fn synthesise(&self, device: &wgpu::Device, queue: &wgpu::Queue, t: f64) {
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("water ocean synthesis"),
        });
        self.encode(device, &mut encoder, t);
        queue.submit([encoder.finish()]);
    }

    /// `(Dx, Dy, h, det J)` per sample, one array layer per tile ([`OCEAN_TEXTURE_FORMAT`]):
    /// the horizontal displacement (m), the height (m) and the Jacobian's determinant of the
    /// undisplaced point of each sample (the CPU's `SeaField` values).
    #[must_use]
    pub fn displacement(&self) -> &wgpu::Texture {
        &self.displacement
    }

    /// `(nx, ny, nz, dh/dt)` per sample, one layer per tile: the unit normal of the displaced
    /// surface at each undisplaced sample, and the height's rate there (m/s).
    #[must_use]
    pub fn normals(&self) -> &wgpu::Texture {
        &self.normals
    }

    /// Each tile's side, metres, in layer order.
    #[must_use]
    pub fn tile_lengths(&self) -> &[f32] {
        &self.lengths
    }

    /// Samples along a tile's side.
    #[must_use]
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// Reads every tile's fields back (blocking): `[tile][field][y * cells + x]`, fields in
    /// `SeaField`'s order, as the CPU twin's `TileFields::fields`.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn read_fields(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<Vec<Vec<f32>>>, GpuError> {
        let bytes =
            PendingReadback::start(device, queue, &self.planes, self.planes.size())?.wait()?;
        let values = f32s(&bytes);
        let cells = (self.cells * self.cells) as usize;
        Ok((0..self.tiles as usize)
            .map(|tile| {
                (0..self.fields)
                    .map(|f| {
                        let plane = (tile * self.pairs as usize + f / 2) * cells;
                        (0..cells)
                            .map(|i| values[2 * (plane + i) + f % 2])
                            .collect()
                    })
                    .collect()
            })
            .collect())
    }
}

/// The bindings of `shaders/ocean_synthesis.wgsl`, all visible to compute.
fn layout_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    use wgpu::BufferBindingType::{Storage, Uniform};
    let read = Storage { read_only: true };
    let kinds = [
        Uniform,
        read,
        read,
        read,
        Storage { read_only: false },
        read,
        read,
    ];
    let mut entries = compute_buffer_entries(&kinds);
    for binding in [7, 8] {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::StorageTexture {
                access: wgpu::StorageTextureAccess::WriteOnly,
                format: OCEAN_TEXTURE_FORMAT,
                view_dimension: wgpu::TextureViewDimension::D2Array,
            },
            count: None,
        });
    }
    entries
}
