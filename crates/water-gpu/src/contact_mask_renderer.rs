//! Contact masks drawn on the GPU from hull meshes, so a body's wake never leaves the device.
//!
//! The demo's trick, as `shaders/rasterise_grid_mask.wgsl` explains: an orthographic camera under
//! the still water looks up, one pixel per cell; where the nearest face above a cell centre is a
//! back face the centre is inside that hull, and the cell gets the hull's speed. That is the
//! CPU's `water_buoyancy::rasterise_grid_mask` (a point-in-hull test at every cell centre)
//! computed by the rasteriser, for any closed mesh. Where hulls overlap, both give the largest
//! speed: each hull is drawn in its own band of depth, faster hulls nearer (the plain trick would
//! give the nearest surface's speed, and a hull above another's waterline would black it out).
//!
//! The renderer keeps `C_new` and `C_old`: each [`ContactMaskRenderer::render`] turns the last
//! mask into `C_old` and draws a new `C_new`, as `water_core::ContactMasks::advance` does, so
//! [`ContactMaskRenderer::step`] can drive a [`GpuGrid`] with masks that stay on the GPU.

use std::mem::{offset_of, size_of};

use bytemuck::{Pod, Zeroable};
use glam::{Affine3A, Mat4, Vec3};
use water_core::{GridSize, WaterError};

use crate::device_calls::{
    check_limit, check_storage_bytes, record_compute_pass, submitted, texture_2d, validated,
};
use crate::error::GpuError;
use crate::gpu_backend::GpuBackend;
use crate::gpu_grid::GpuGrid;
use crate::gpu_grid_water::GpuGridWater;
use crate::hull_mesh::HullMesh;
use crate::pipelines::compute_pipeline;
use crate::readback::{f32s, read_texture};
use crate::shaders;
use crate::uniforms::ContactMaskUniforms;

/// Texel format of the masks: one f32 speed factor per cell, what
/// [`crate::FragmentGrid::step_with_contact_textures`] reads.
pub const MASK_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;

/// Most hulls one mask draws. Each hull gets `1 / n` of the depth range; at this many a band still
/// holds about 16 000 steps of a 32-bit float depth near 1, enough to tell a hull's faces apart
/// wherever they are more than a ten-thousandth of its height apart.
pub const MAX_CONTACT_HULLS: usize = 1024;

const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Share of its band a hull's heights `[0, top]` take: the gap keeps neighbouring bands apart
/// even where rounding puts a vertex a little above the bound `top`.
const BAND_FILL: f32 = 0.98;

/// Cells per workgroup edge of the texture-to-buffer copy (`@workgroup_size(16, 16)`).
const TILE: u32 = 16;

/// One hull in one frame's contact mask.
#[derive(Debug, Clone, Copy)]
pub struct ContactHull<'a> {
    /// The hull's surface, uploaded once.
    pub mesh: &'a HullMesh,
    /// Local-to-world transform this frame. World: the grid's frame, metres, `x` and `y` across
    /// the grid from its corner, `z` up, still water at `z = 0`.
    pub transform: Affine3A,
    /// Speed factor written where the hull cuts the water (`>= 0`; 0 writes nothing).
    pub speed: f32,
}

/// Per-hull vertex data (instance step mode) of `vs_main` in `shaders/rasterise_grid_mask.wgsl`,
/// its WGSL twin `HullInstance` in `shaders/shared/hull_instance.wgsl`: locations 1 to 4 the
/// transform's columns, location 5 the depth band and the speed.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
struct HullInstance {
    model: [[f32; 4]; 4],
    /// Depth at height 0, depth per metre of height, speed, unused.
    band_and_speed: [f32; 4],
}

const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 5] = {
    let column = size_of::<[f32; 4]>() as u64;
    let model = offset_of!(HullInstance, model) as u64;
    [
        attribute(1, model),
        attribute(2, model + column),
        attribute(3, model + 2 * column),
        attribute(4, model + 3 * column),
        attribute(5, offset_of!(HullInstance, band_and_speed) as u64),
    ]
};

const fn attribute(location: u32, offset: u64) -> wgpu::VertexAttribute {
    wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset,
        shader_location: location,
    }
}

/// Draws contact masks for a grid on the caller's device and keeps the last two.
///
/// ```no_run
/// # // no_run: doc tests do not assume a GPU; water-testkit's tests run this for real.
/// use glam::{Affine3A, Vec3};
/// use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
/// use water_gpu::{ContactHull, ContactMaskRenderer, GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec, HullMesh};
/// let gpu = GpuContext::headless()?;
/// let size = GridSize::new(128, 128)?;
/// let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerStep(0.999))?;
/// let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
/// let mut water = GpuGrid::new(GpuBackend::Compute, &gpu.device, &gpu.queue, spec)?;
/// let mut masks = ContactMaskRenderer::new(&gpu.device, &gpu.queue, size, 0.1, GpuBackend::Compute)?;
/// // A tetrahedron, counter-clockwise seen from outside.
/// let vertices = [Vec3::new(-0.5, -0.5, -0.5), Vec3::new(0.5, -0.5, -0.5), Vec3::new(0.0, 0.5, -0.5), Vec3::new(0.0, 0.0, 0.5)];
/// let hull = HullMesh::new(&gpu.device, &vertices, &[[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]])?;
/// for frame in 0..100 {
///     let at = Vec3::new(3.0 + 0.02 * frame as f32, 6.4, 0.0);
///     masks.render(&[ContactHull { mesh: &hull, transform: Affine3A::from_translation(at), speed: 1.0 }])?;
///     masks.step(&mut water, 0.05)?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ContactMaskRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    size: GridSize,
    cell_size: f32,
    backend: GpuBackend,
    masks: [wgpu::Texture; 2],
    views: [wgpu::TextureView; 2],
    /// Index of `C_new` in `masks` (and `buffers`); the other is `C_old`.
    newest: usize,
    depth: wgpu::TextureView,
    /// Binds the projection's uniforms (the bind group keeps their buffer alive).
    draw_group: wgpu::BindGroup,
    /// Front faces: depth only.
    front_pipeline: wgpu::RenderPipeline,
    /// Back faces: speed and depth.
    back_pipeline: wgpu::RenderPipeline,
    /// The compute backend's storage buffers, the copy pipeline and a bind group per mask.
    buffers: Option<(
        [wgpu::Buffer; 2],
        wgpu::ComputePipeline,
        [wgpu::BindGroup; 2],
    )>,
}

impl ContactMaskRenderer {
    /// Empty masks (nothing in the water) for a `size` grid of `cell_size` metre cells, in the
    /// form `backend` reads: R32Float textures for both, and for [`GpuBackend::Compute`] also
    /// storage buffers of one f32 per cell, row-major.
    ///
    /// # Errors
    /// [`GpuError::Invalid`] for a cell size that is not finite and positive;
    /// [`GpuError::TooLarge`] when the grid exceeds the device's texture or buffer limits;
    /// [`GpuError::Validation`] if wgpu rejects a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        size: GridSize,
        cell_size: f32,
        backend: GpuBackend,
    ) -> Result<Self, GpuError> {
        let h = f64::from(cell_size);
        if !cell_size.is_finite() {
            return Err(WaterError::NotFinite {
                name: "contact mask cell size",
                value: h,
            }
            .into());
        }
        if cell_size <= 0.0 {
            return Err(WaterError::NotPositive {
                name: "contact mask cell size",
                value: h,
            }
            .into());
        }
        let limits = device.limits();
        let max_dim = u64::from(limits.max_texture_dimension_2d);
        check_limit("texture width (texels)", size.width() as u64, max_dim)?;
        check_limit("texture height (texels)", size.height() as u64, max_dim)?;
        let (width, height) = (size.width() as u32, size.height() as u32);
        let extent = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label: &str, format, usage| {
            texture_2d(device, label, (extent.width, extent.height), format, usage)
        };
        let mask_usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC;
        let projection = ContactMaskUniforms {
            ndc_scale: [
                2.0 / (width as f32 * cell_size),
                -2.0 / (height as f32 * cell_size),
            ],
            ndc_offset: [-1.0, 1.0],
        };
        let (masks, depth, draw_group, front_pipeline, back_pipeline) = validated(device, || {
            use wgpu::util::DeviceExt;
            let masks = [0, 1]
                .map(|i| texture(&format!("water contact mask {i}"), MASK_FORMAT, mask_usage));
            let depth = texture(
                "water contact mask depth",
                DEPTH_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            );
            let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water contact mask uniforms"),
                contents: bytemuck::bytes_of(&projection),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let (front, back, layout) = hull_pipelines(device);
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water contact mask draw"),
                layout: &layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniforms.as_entire_binding(),
                }],
            });
            (masks, depth, group, front, back)
        })?;
        let views = [0, 1].map(|i| masks[i].create_view(&Default::default()));
        let buffers = match backend {
            GpuBackend::Fragment => None,
            GpuBackend::Compute => Some(copy_buffers(device, size, &views)?),
        };
        // Textures start zeroed in wgpu, and so do buffers: both masks start empty.
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            size,
            cell_size,
            backend,
            masks,
            views,
            newest: 0,
            depth: depth.create_view(&Default::default()),
            draw_group,
            front_pipeline,
            back_pipeline,
            buffers,
        })
    }

    /// The grid the masks cover.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Cell size `h`, metres.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The backend whose grid the masks are made for.
    #[must_use]
    pub fn backend(&self) -> GpuBackend {
        self.backend
    }

    /// `C_new`: the mask of the last [`ContactMaskRenderer::render`] (R32Float, texel `(x, y)`
    /// = cell `(x, y)`), for [`crate::FragmentGrid::step_with_contact_textures`] or the
    /// caller's own passes. Which texture it is changes with every render.
    #[must_use]
    pub fn new_view(&self) -> &wgpu::TextureView {
        &self.views[self.newest]
    }

    /// `C_old`: the mask of the render before.
    #[must_use]
    pub fn old_view(&self) -> &wgpu::TextureView {
        &self.views[1 - self.newest]
    }

    /// `C_new` as a storage buffer (one f32 per cell, row-major) for
    /// [`crate::ComputeGrid::step_with_contact_buffers`]; `None` unless made for
    /// [`GpuBackend::Compute`].
    #[must_use]
    pub fn new_buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffers.as_ref().map(|(b, _, _)| &b[self.newest])
    }

    /// `C_old` as a storage buffer; `None` unless made for [`GpuBackend::Compute`].
    #[must_use]
    pub fn old_buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffers.as_ref().map(|(b, _, _)| &b[1 - self.newest])
    }

    /// Starts a frame: `C_new` becomes `C_old`, and `hulls` are drawn into a new `C_new`, whose
    /// cells hold the largest speed of the hulls cutting the still water `z = 0` at their
    /// centre, 0 elsewhere. **Submits** one command buffer.
    ///
    /// # Errors
    /// As [`ContactMaskRenderer::encode`]; [`GpuError::DeviceLost`].
    pub fn render(&mut self, hulls: &[ContactHull<'_>]) -> Result<(), GpuError> {
        let device = self.device.clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("water contact mask"),
        });
        self.encode(&mut encoder, hulls)?;
        submitted(&device, || {
            self.queue.submit([encoder.finish()]);
        })
    }

    /// As [`ContactMaskRenderer::render`], recorded into the caller's encoder. **Records only.**
    /// The masks swap now, in recording order, so several frames may be recorded into one
    /// encoder, each followed by its [`ContactMaskRenderer::encode_step`].
    ///
    /// # Errors
    /// [`GpuError::BadContactHull`] for a negative or non-finite speed or a non-finite
    /// transform (nothing is recorded then); [`GpuError::HullOnOtherDevice`] for a mesh uploaded to
    /// another device; [`GpuError::TooLarge`] for more than [`MAX_CONTACT_HULLS`] hulls cutting
    /// the water over the grid.
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        hulls: &[ContactHull<'_>],
    ) -> Result<(), GpuError> {
        let drawn = self.instances(hulls)?;
        let device = self.device.clone();
        validated(&device, || {
            use wgpu::util::DeviceExt;
            // A buffer per frame, not one rewritten with queue.write_buffer: the writes would
            // all land before the first of several frames recorded into one encoder.
            let instances = (!drawn.is_empty()).then(|| {
                let data: Vec<HullInstance> = drawn.iter().map(|d| d.1).collect();
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("water contact hulls"),
                    contents: bytemuck::cast_slice(&data),
                    usage: wgpu::BufferUsages::VERTEX,
                })
            });
            self.newest = 1 - self.newest;
            self.encode_draws(encoder, hulls, &drawn, instances.as_ref());
            if let Some((_, pipeline, groups)) = &self.buffers {
                record_compute_pass(
                    encoder,
                    "water contact mask to buffer",
                    pipeline,
                    [&groups[self.newest]],
                    [
                        (self.size.width() as u32).div_ceil(TILE),
                        (self.size.height() as u32).div_ceil(TILE),
                        1,
                    ],
                );
            }
        })
    }

    /// The render pass: clear, then per hull (slowest first) front faces, then back faces.
    fn encode_draws(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        hulls: &[ContactHull<'_>],
        drawn: &[(usize, HullInstance)],
        instances: Option<&wgpu::Buffer>,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("water contact mask"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.views[self.newest],
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let Some(instances) = instances else {
            return;
        };
        pass.set_bind_group(0, &self.draw_group, &[]);
        let stride = size_of::<HullInstance>() as u64;
        for (k, &(hull, _)) in drawn.iter().enumerate() {
            let mesh = hulls[hull].mesh;
            let at = k as u64 * stride;
            pass.set_vertex_buffer(0, mesh.vertices.slice(..));
            pass.set_vertex_buffer(1, instances.slice(at..at + stride));
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
            for pipeline in [&self.front_pipeline, &self.back_pipeline] {
                pass.set_pipeline(pipeline);
                pass.draw_indexed(0..mesh.index_count, 0, 0..1);
            }
        }
    }

    /// Checks the hulls and gives those that cut the water over the grid with their per-hull
    /// data, slowest first, each in its own depth band (the fastest nearest).
    fn instances(&self, hulls: &[ContactHull<'_>]) -> Result<Vec<(usize, HullInstance)>, GpuError> {
        let extent = [
            self.size.width() as f32 * self.cell_size,
            self.size.height() as f32 * self.cell_size,
        ];
        let mut cutting = Vec::new();
        for (i, hull) in hulls.iter().enumerate() {
            if !(hull.speed.is_finite() && hull.speed >= 0.0) {
                return Err(GpuError::BadContactHull {
                    hull: i,
                    what: "speed",
                    value: hull.speed,
                    requirement: "finite and >= 0",
                });
            }
            let columns = hull.transform.to_cols_array();
            if let Some(&value) = columns.iter().find(|v| !v.is_finite()) {
                return Err(GpuError::BadContactHull {
                    hull: i,
                    what: "transform",
                    value,
                    requirement: "finite",
                });
            }
            if !hull.mesh.is_on(&self.device) {
                return Err(GpuError::HullOnOtherDevice { hull: i });
            }
            // A world coordinate of the hull is the translation's plus a row of the linear part
            // dotted with a local vertex, so it lies within |row| * reach of the translation.
            let m = hull.transform.matrix3;
            let t = Vec3::from(hull.transform.translation);
            let reach = |row: Vec3| row.length() * hull.mesh.reach;
            let half = Vec3::new(
                reach(m.row(0).into()),
                reach(m.row(1).into()),
                reach(m.row(2).into()),
            );
            let (low, high) = (t - half, t + half);
            let misses = hull.speed == 0.0 // writes nothing, as on the CPU
                || high.z <= 0.0 || low.z > 0.0 // under or above the water
                || high.x < 0.0 || low.x > extent[0]
                || high.y < 0.0 || low.y > extent[1];
            if !misses {
                // A hull reaching only a hair above the water would make the depth per metre
                // overflow; any bound above its true top keeps it in its band.
                cutting.push((i, high.z.max(1e-6)));
            }
        }
        check_limit(
            "hulls cutting the water in one contact mask",
            cutting.len() as u64,
            MAX_CONTACT_HULLS as u64,
        )?;
        // Slowest first, so each faster hull is drawn later and nearer.
        cutting.sort_by(|a, b| hulls[a.0].speed.total_cmp(&hulls[b.0].speed));
        let n = cutting.len() as f32;
        Ok(cutting
            .iter()
            .enumerate()
            .map(|(rank, &(i, top))| {
                let band_start = (n - 1.0 - rank as f32) / n;
                let instance = HullInstance {
                    model: Mat4::from(hulls[i].transform).to_cols_array_2d(),
                    band_and_speed: [band_start, BAND_FILL / (n * top), hulls[i].speed, 0.0],
                };
                (i, instance)
            })
            .collect())
    }

    /// One step of `grid` with bow and stern events of amplitude `amplitude` (metres per unit of
    /// speed factor) from `C_new` and `C_old`, without the masks leaving the GPU. **Submits**
    /// one command buffer (what [`ContactMaskRenderer::encode_step`] records).
    ///
    /// # Errors
    /// As [`ContactMaskRenderer::encode_step`]; [`GpuError::DeviceLost`].
    pub fn step(&self, grid: &mut GpuGrid, amplitude: f32) -> Result<(), GpuError> {
        let device = self.device.clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("water contact mask step"),
        });
        self.encode_step(&mut encoder, grid, amplitude)?;
        submitted(&device, || {
            self.queue.submit([encoder.finish()]);
        })
    }

    /// Records one step of `grid` with the masks' bow and stern events (as
    /// [`ContactMaskRenderer::step`]) into the caller's encoder. **Records only.** With
    /// [`ContactMaskRenderer::encode`] before it in the same encoder, a frame's masks and step
    /// need one submission: the step reads the masks drawn by the commands recorded before it.
    ///
    /// # Errors
    /// [`GpuError::Invalid`] for a non-finite amplitude; [`GpuError::MaskSizeMismatch`] or [`GpuError::MaskBackendMismatch`] when the grid
    /// has another size, or is a compute grid and the masks were made for the fragment backend;
    /// what the grid's own `encode_` step reports. Nothing is recorded then.
    pub fn encode_step(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        grid: &mut GpuGrid,
        amplitude: f32,
    ) -> Result<(), GpuError> {
        if !amplitude.is_finite() {
            return Err(WaterError::NotFinite {
                name: "contact amplitude",
                value: f64::from(amplitude),
            }
            .into());
        }
        let grid_size = grid.spec().size;
        if grid_size != self.size {
            return Err(GpuError::MaskSizeMismatch {
                masks: self.size,
                grid: grid_size,
            });
        }
        match grid {
            GpuGrid::Compute(g) => {
                let (Some(new), Some(old)) = (self.new_buffer(), self.old_buffer()) else {
                    return Err(GpuError::MaskBackendMismatch {
                        masks: self.backend,
                        grid: GpuBackend::Compute,
                    });
                };
                g.encode_step_with_contact_buffers(encoder, new, old, amplitude)
            }
            GpuGrid::Fragment(g) => g.encode_step_with_contact_textures(
                encoder,
                self.new_view(),
                self.old_view(),
                amplitude,
            ),
        }
    }

    /// Reads `C_new` back: one value per cell, row-major. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn read_new_mask(&self) -> Result<Vec<f32>, GpuError> {
        self.read(self.newest)
    }

    /// Reads `C_old` back: one value per cell, row-major. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn read_old_mask(&self) -> Result<Vec<f32>, GpuError> {
        self.read(1 - self.newest)
    }

    fn read(&self, index: usize) -> Result<Vec<f32>, GpuError> {
        let bytes = read_texture(&self.device, &self.queue, &self.masks[index], 4)?;
        Ok(f32s(&bytes))
    }
}

/// The two pipelines each hull is drawn with: front faces writing depth only, then back faces
/// writing speed and depth, behind the same depth test; and the layout of their bind group.
fn hull_pipelines(
    device: &wgpu::Device,
) -> (
    wgpu::RenderPipeline,
    wgpu::RenderPipeline,
    wgpu::BindGroupLayout,
) {
    let module = crate::pipelines::shader_module(
        device,
        "rasterise_grid_mask",
        shaders::RASTERISE_GRID_MASK,
    );
    let buffers = [
        wgpu::VertexBufferLayout {
            array_stride: size_of::<[f32; 3]>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3],
        },
        wgpu::VertexBufferLayout {
            array_stride: size_of::<HullInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &INSTANCE_ATTRIBUTES,
        },
    ];
    // Both pipelines share one layout, so one bind group serves both.
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("rasterise_grid_mask"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("rasterise_grid_mask"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = |label: &str, culled: wgpu::Face, writes: wgpu::ColorWrites| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: wgpu::PrimitiveState {
                // Counter-clockwise from outside in the world. The projection flips y (world
                // y = 0 is the first texture row) and the camera looks up +z from below, two
                // mirrorings that cancel: a face seen from outside and below still winds
                // counter-clockwise in NDC, so "front" is a face turned down, towards the camera.
                front_face: wgpu::FrontFace::Ccw,
                cull_mode: Some(culled),
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                // Strictly nearer: where a hull's front and back faces meet at a silhouette the
                // front face, drawn first, keeps the cell.
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: MASK_FORMAT,
                    blend: None,
                    write_mask: writes,
                })],
            }),
            multiview_mask: None,
            cache: None,
        })
    };
    (
        pipeline(
            "rasterise_grid_mask front faces",
            wgpu::Face::Back,
            wgpu::ColorWrites::empty(),
        ),
        pipeline(
            "rasterise_grid_mask back faces",
            wgpu::Face::Front,
            wgpu::ColorWrites::RED,
        ),
        layout,
    )
}

/// The compute backend's two mask buffers, the pipeline copying a mask texture into its buffer,
/// and a bind group per texture-buffer pair.
fn copy_buffers(
    device: &wgpu::Device,
    size: GridSize,
    views: &[wgpu::TextureView; 2],
) -> Result<
    (
        [wgpu::Buffer; 2],
        wgpu::ComputePipeline,
        [wgpu::BindGroup; 2],
    ),
    GpuError,
> {
    let bytes = size.cells() as u64 * 4;
    check_storage_bytes(device, bytes)?;
    validated(device, || {
        let buffers = [0, 1].map(|i| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("water contact mask buffer {i}")),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        let pipeline = compute_pipeline(
            device,
            shaders::RASTERISE_GRID_MASK,
            "rasterise_grid_mask copy",
            "copy_to_buffer",
        );
        let groups = [0, 1].map(|i| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water contact mask copy"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(&views[i]),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: buffers[i].as_entire_binding(),
                    },
                ],
            })
        });
        (buffers, pipeline, groups)
    })
}
