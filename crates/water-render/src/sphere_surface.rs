//! Sphere water drawn as the displaced icosphere with area-weighted vertex normals, on the
//! caller's device. `shaders/render_sphere_surface.wgsl` builds the vertices from either sphere
//! backend's heights in a compute pass, then draws them with the icosphere's triangles.

use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use water_sphere::rest_tilt;
use water_sphere::Adjacency;
use water_sphere::Icosphere;

use crate::camera::Camera;
use crate::frame_target::FrameTarget;
use crate::render_pipeline::{bind_group_0, SurfacePipeline};
use crate::uniforms::{uniform_buffer_of, SphereSurfaceUniforms};
use crate::{check_colour, check_direction, check_finite, check_positive, SurfaceView};
use water_gpu::device_calls::{record_compute_pass, validated};
use water_gpu::pipelines::compute_pipeline;
use water_gpu::shaders;
use water_gpu::GpuError;
use water_gpu::GpuSphere;
use water_gpu::PendingReadback;

/// Invocations per workgroup of the vertex pass (`@workgroup_size(64)`).
const WORKGROUP: u32 = 64;

/// How sphere water looks.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereSurfaceStyle {
    /// Drawn metres per metre of height: waves are tiny beside a planet, so pictures
    /// exaggerate them (finite).
    pub height_scale: f32,
    /// Colour of deep water, linear RGB in `[0, 1]`.
    pub water_colour: Vec3,
    /// Sky colour reflected at grazing angles, linear RGB in `[0, 1]`.
    pub sky_colour: Vec3,
    /// Direction toward the sun (normalised when drawn; not zero).
    pub sun_direction: Vec3,
    /// Specular exponent of the sun's highlight (> 0).
    pub shininess: f32,
    /// What the pixels show.
    pub view: SurfaceView,
}

impl Default for SphereSurfaceStyle {
    fn default() -> Self {
        Self {
            height_scale: 1.0,
            water_colour: Vec3::new(0.02, 0.15, 0.3),
            sky_colour: Vec3::new(0.6, 0.75, 0.9),
            sun_direction: Vec3::new(0.5, -0.6, 0.6),
            shininess: 200.0,
            view: SurfaceView::Lit,
        }
    }
}

impl SphereSurfaceStyle {
    /// Checks every field.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), GpuError> {
        check_finite("height_scale", self.height_scale)?;
        check_colour("water_colour", self.water_colour)?;
        check_colour("sky_colour", self.sky_colour)?;
        check_positive("shininess", self.shininess)?;
        check_direction("sun_direction", self.sun_direction)?;
        Ok(())
    }
}

/// One drawn vertex, as the vertex pass writes it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SurfaceVertex {
    /// xyz: displaced position (m); w: drawn height (m, times the height scale).
    pub position: [f32; 4],
    /// xyz: unit normal; w: 0.
    pub normal: [f32; 4],
}

/// Draws one sphere's water into the caller's colour and depth targets.
#[derive(Debug)]
pub struct SphereSurfaceRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    radius: f32,
    vertex_count: u32,
    style: SphereSurfaceStyle,
    uniforms: wgpu::Buffer,
    rest_positions: wgpu::Buffer,
    rings: wgpu::Buffer,
    tilt: wgpu::Buffer,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    from_buffer: wgpu::ComputePipeline,
    from_texture: wgpu::ComputePipeline,
    draw_pipeline: wgpu::RenderPipeline,
    draw_group: wgpu::BindGroup,
}

impl SphereSurfaceRenderer {
    /// A renderer for water on `sphere` (the mesh the water was made on), drawing into targets
    /// of `target_format` with depth in [`DEPTH_FORMAT`](super::DEPTH_FORMAT).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a bad style; [`GpuError::TooLarge`] past the
    /// device's buffer limits; pipeline creation failures.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target_format: wgpu::TextureFormat,
        sphere: &Icosphere,
        style: SphereSurfaceStyle,
    ) -> Result<Self, GpuError> {
        use wgpu::util::DeviceExt;
        style.validate()?;
        let n = sphere.positions().len();
        let limit = device.limits().max_storage_buffer_binding_size;
        water_gpu::device_calls::check_limit(
            "sphere surface vertex buffer (bytes)",
            (n * size_of::<SurfaceVertex>()) as u64,
            limit,
        )?;
        let rest: Vec<[f32; 4]> = sphere
            .positions()
            .iter()
            .map(|p| p.extend(0.0).to_array())
            .collect();
        let tilt: Vec<[f32; 4]> = rest_tilt(sphere)
            .iter()
            .map(|t| t.extend(0.0).to_array())
            .collect();
        let rings: Vec<u32> = Adjacency::new(sphere)
            .table()
            .into_iter()
            .flatten()
            .collect();
        let faces: Vec<u32> = sphere.faces().iter().flatten().copied().collect();
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let (from_buffer, from_texture, draw_pipeline) = validated(device, || {
            (
                compute_pipeline(
                    device,
                    shaders::RENDER_SPHERE_SURFACE,
                    "sphere surface vertices",
                    "main",
                ),
                compute_pipeline(
                    device,
                    shaders::RENDER_SPHERE_SURFACE,
                    "sphere surface vertices",
                    "main_texture",
                ),
                draw_pipeline(device, target_format),
            )
        })?;
        let uniforms =
            uniform_buffer_of::<SphereSurfaceUniforms>(device, "water sphere surface uniforms");
        let draw_group = bind_group_0(
            device,
            "water sphere surface draw",
            &draw_pipeline,
            &uniforms,
            [],
        );
        let vertices = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("water sphere surface vertices"),
            size: (n * size_of::<SurfaceVertex>()) as u64,
            usage: storage | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Ok(Self {
            rest_positions: init(
                "water sphere rest positions",
                bytemuck::cast_slice(&rest),
                storage,
            ),
            rings: init("water sphere rings", bytemuck::cast_slice(&rings), storage),
            tilt: init(
                "water sphere rest tilt",
                bytemuck::cast_slice(&tilt),
                storage,
            ),
            indices: init(
                "water sphere faces",
                bytemuck::cast_slice(&faces),
                wgpu::BufferUsages::INDEX,
            ),
            index_count: faces.len() as u32,
            device: device.clone(),
            queue: queue.clone(),
            radius: sphere.radius(),
            vertex_count: n as u32,
            style,
            uniforms,
            vertices,
            from_buffer,
            from_texture,
            draw_pipeline,
            draw_group,
        })
    }

    /// The style in use.
    #[must_use]
    pub fn style(&self) -> &SphereSurfaceStyle {
        &self.style
    }

    /// Changes the style.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming a bad field; the old style stays.
    pub fn set_style(&mut self, style: SphereSurfaceStyle) -> Result<(), GpuError> {
        style.validate()?;
        self.style = style;
        Ok(())
    }

    /// Records the vertex pass from `water`'s current heights (either backend) and sets the
    /// camera for the next [`SphereSurfaceRenderer::draw`].
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when `water` has another vertex count than the mesh.
    pub fn prepare(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        camera: &Camera,
        water: &GpuSphere,
    ) -> Result<(), GpuError> {
        let texture_width = match water {
            GpuSphere::Compute(w) => {
                let count = w.current_buffer().size() / 4;
                if count != u64::from(self.vertex_count) {
                    return Err(self.wrong_count(count));
                }
                0
            }
            GpuSphere::Fragment(w) => {
                let t = w.current_view().texture();
                let texels = u64::from(t.width()) * u64::from(t.height());
                if texels < u64::from(self.vertex_count) {
                    return Err(self.wrong_count(texels));
                }
                w.texture_width()
            }
        };
        let s = &self.style;
        let values = SphereSurfaceUniforms {
            view_proj: camera.view_proj.to_cols_array_2d(),
            eye: camera.eye.extend(1.0).to_array(),
            sun: s.sun_direction.normalize().extend(s.shininess).to_array(),
            water_colour: s.water_colour.extend(1.0).to_array(),
            sky_colour: s.sky_colour.extend(1.0).to_array(),
            shape: [
                self.radius,
                s.height_scale,
                self.vertex_count as f32,
                texture_width as f32,
            ],
            flags: [s.view.code(), 0, 0, 0],
        };
        self.queue
            .write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&values));
        let common = [
            (0, self.uniforms.as_entire_binding()),
            (1, self.rest_positions.as_entire_binding()),
            (2, self.rings.as_entire_binding()),
            (3, self.tilt.as_entire_binding()),
            (4, self.vertices.as_entire_binding()),
        ];
        let (pipeline, heights) = match water {
            GpuSphere::Compute(w) => (
                &self.from_buffer,
                (5, w.current_buffer().as_entire_binding()),
            ),
            GpuSphere::Fragment(w) => (
                &self.from_texture,
                (6, wgpu::BindingResource::TextureView(w.current_view())),
            ),
        };
        let entries: Vec<wgpu::BindGroupEntry<'_>> = common
            .into_iter()
            .chain([heights])
            .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource })
            .collect();
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("water sphere surface vertices"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        record_compute_pass(
            encoder,
            "water sphere surface vertices",
            pipeline,
            [&group],
            [self.vertex_count.div_ceil(WORKGROUP), 1, 1],
        );
        Ok(())
    }

    /// Draws the vertices of the last [`SphereSurfaceRenderer::prepare`] into the caller's
    /// render pass (colour in the renderer's format, depth in [`DEPTH_FORMAT`](super::DEPTH_FORMAT)).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.draw_pipeline);
        pass.set_bind_group(0, &self.draw_group, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..1);
    }

    /// [`SphereSurfaceRenderer::prepare`] and [`SphereSurfaceRenderer::draw`] in a pass of
    /// their own that first clears the frame's colour to its `clear` colour and its depth.
    ///
    /// # Errors
    /// As [`SphereSurfaceRenderer::prepare`].
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        frame: FrameTarget<'_>,
        camera: &Camera,
        water: &GpuSphere,
    ) -> Result<(), GpuError> {
        self.prepare(encoder, camera, water)?;
        let mut pass = frame.clearing_pass(encoder);
        self.draw(&mut pass);
        Ok(())
    }

    /// Reads back the vertices of the last [`SphereSurfaceRenderer::prepare`] (submitted by
    /// the caller), waiting for the GPU.
    ///
    /// # Errors
    /// A lost device or a failed readback.
    pub fn read_vertices(&self) -> Result<Vec<SurfaceVertex>, GpuError> {
        let bytes = PendingReadback::start(
            &self.device,
            &self.queue,
            &self.vertices,
            self.vertices.size(),
        )?
        .wait()?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    fn wrong_count(&self, count: u64) -> GpuError {
        GpuError::BadRenderSetting {
            what: "sphere water vertices",
            value: count.to_string(),
            requirement: "the vertex count of the renderer's icosphere",
        }
    }
}

fn draw_pipeline(device: &wgpu::Device, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
    let module = water_gpu::pipelines::shader_module(
        device,
        "render_sphere_surface",
        shaders::RENDER_SPHERE_SURFACE,
    );
    let attributes = wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4];
    SurfacePipeline {
        label: "water sphere surface",
        layout: None,
        module: &module,
        vertex: "vs_main",
        fragment: "fs_main",
        buffers: &[wgpu::VertexBufferLayout {
            array_stride: size_of::<SurfaceVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        }],
        primitive: wgpu::PrimitiveState {
            // Counter-clockwise seen from outside: the far side of the sphere is culled.
            cull_mode: Some(wgpu::Face::Back),
            ..Default::default()
        },
        depth: (true, wgpu::CompareFunction::Less),
        format,
    }
    .create(device)
}
