//! Floating bodies drawn flat shaded over any of the 3-D water renderers, one hull mesh an
//! instance, with depth in [`DEPTH_FORMAT`](super::DEPTH_FORMAT). The shader is `shaders/render_bodies.wgsl`.

use glam::{Affine3A, Mat4, Vec3};

use crate::camera::Camera;
use crate::render_pipeline::{bind_group_0, SurfacePipeline};
use crate::uniforms::{uniform_buffer_of, ViewUniforms};
use water_gpu::device_calls::validated;
use water_gpu::shaders;
use water_gpu::GpuError;
use water_gpu::HullMesh;

/// A floating body to draw with the water.
#[derive(Debug, Clone, Copy)]
pub struct BodyDraw<'a> {
    /// Its hull mesh (the one its contact masks are drawn from).
    pub mesh: &'a HullMesh,
    /// Local-to-world transform (the water's frame, as [`water_gpu::ContactHull::transform`]).
    pub transform: Affine3A,
    /// Colour, linear RGB.
    pub colour: Vec3,
}

/// Per-body data of `vs_hull` (its WGSL twin `HullInstance` in
/// `shaders/shared/hull_instance.wgsl`): the model matrix's columns and the colour.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct HullInstance {
    model: [[f32; 4]; 4],
    colour: [f32; 4],
}

/// Draws floating bodies into the caller's render pass.
#[derive(Debug)]
pub(crate) struct BodyRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    group: wgpu::BindGroup,
    instances: wgpu::Buffer,
    /// `(mesh's vertex buffer, its index buffer, index count)` per body, in instance order.
    bodies: Vec<(wgpu::Buffer, wgpu::Buffer, u32)>,
}

impl BodyRenderer {
    /// A renderer drawing into targets of `format`.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if wgpu refuses the pipeline.
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
    ) -> Result<Self, GpuError> {
        let pipeline = validated(device, || pipeline(device, format))?;
        let uniforms = uniform_buffer_of::<ViewUniforms>(device, "water body view");
        let group = bind_group_0(device, "water body view", &pipeline, &uniforms, []);
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            pipeline,
            uniforms,
            group,
            instances: instance_buffer(device, 16),
            bodies: Vec::new(),
        })
    }

    /// Sets up the next [`BodyRenderer::draw`]: `bodies` seen by `camera`, lit from `sun`
    /// (unit, toward the sun).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a non-finite transform or colour, or a mesh made on
    /// another device.
    pub(crate) fn prepare(
        &mut self,
        camera: &Camera,
        sun: Vec3,
        bodies: &[BodyDraw<'_>],
    ) -> Result<(), GpuError> {
        let mut instances = Vec::with_capacity(bodies.len());
        for body in bodies {
            let model = Mat4::from(body.transform);
            if !model.is_finite() || !body.colour.is_finite() {
                return Err(GpuError::BadRenderSetting {
                    what: "body transform or colour",
                    value: format!("{:?}, {}", body.transform, body.colour),
                    requirement: "finite",
                });
            }
            if !body.mesh.is_on(&self.device) {
                return Err(GpuError::BadRenderSetting {
                    what: "body mesh",
                    value: "made on another device".to_owned(),
                    requirement: "made on the renderer's device",
                });
            }
            instances.push(HullInstance {
                model: model.to_cols_array_2d(),
                colour: body.colour.extend(1.0).to_array(),
            });
        }
        let needed = (instances.len() * size_of::<HullInstance>()) as u64;
        if needed > self.instances.size() {
            self.instances = instance_buffer(&self.device, instances.len().next_power_of_two());
        }
        self.queue
            .write_buffer(&self.instances, 0, bytemuck::cast_slice(&instances));
        let view = ViewUniforms {
            view_proj: camera.view_proj.to_cols_array_2d(),
            eye: camera.eye_uniform(),
            view_dir: camera.forward.extend(0.0).to_array(),
            sun: sun.extend(0.0).to_array(),
        };
        self.queue
            .write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&view));
        self.bodies = bodies
            .iter()
            .map(|b| {
                (
                    b.mesh.vertices().clone(),
                    b.mesh.indices().clone(),
                    b.mesh.index_count(),
                )
            })
            .collect();
        Ok(())
    }

    /// Draws what [`BodyRenderer::prepare`] set up.
    pub(crate) fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.bodies.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(1, self.instances.slice(..));
        for (i, (vertices, indices, count)) in self.bodies.iter().enumerate() {
            let i = i as u32;
            pass.set_vertex_buffer(0, vertices.slice(..));
            pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..*count, 0, i..i + 1);
        }
    }
}

fn instance_buffer(device: &wgpu::Device, bodies: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("water body instances"),
        size: (bodies.max(1) * size_of::<HullInstance>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn pipeline(device: &wgpu::Device, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
    let module =
        water_gpu::pipelines::shader_module(device, "render_bodies", shaders::RENDER_BODIES);
    let hull_vertex = wgpu::vertex_attr_array![0 => Float32x3];
    let instance = wgpu::vertex_attr_array![1 => Float32x4, 2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4];
    SurfacePipeline {
        label: "water bodies",
        layout: None,
        module: &module,
        vertex: "vs_hull",
        fragment: "fs_hull",
        buffers: &[
            wgpu::VertexBufferLayout {
                array_stride: 12,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &hull_vertex,
            },
            wgpu::VertexBufferLayout {
                array_stride: size_of::<HullInstance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &instance,
            },
        ],
        primitive: wgpu::PrimitiveState::default(),
        depth: (true, wgpu::CompareFunction::Less),
        format,
    }
    .create(device)
}
