//! Grid water drawn in 3-D on the caller's device: a displaced mesh with its own resolution,
//! lit, refracting a floor, faded toward the rim and flat inside hulls, with floating bodies
//! drawn flat. The shader is `shaders/render_grid_surface.wgsl`; it reads the surface texture
//! of [`GpuGrid::update_normal_height`](water_gpu::GpuGridWater::update_normal_height).

use glam::Vec3;
use water_core::GridSize;

use crate::body_renderer::{BodyDraw, BodyRenderer};
use crate::camera::Camera;
use crate::foam_texture::FoamTexture;
use crate::frame_target::FrameTarget;
use crate::hull_mask::HullMaskTexture;
use crate::render_pipeline::{
    bind_group_0, one_group_layout, unfilterable_texture, uniform_binding, SurfacePipeline,
};
use crate::rgba_image::RgbaImage;
use crate::uniforms::{uniform_buffer_of, SurfaceRenderUniforms};
use crate::{
    check_colour, check_direction, check_finite, check_grid_texture, check_non_negative,
    check_positive, check_range, SurfaceView,
};
use water_gpu::device_calls::validated;
use water_gpu::shaders;
use water_gpu::GpuError;

/// Most quads along one side of the mesh: 2048 x 2048 quads take 25 M indices (100 MB).
pub const MAX_MESH_QUADS: u32 = 2048;

/// How the grid water looks.
#[derive(Debug, Clone, PartialEq)]
pub struct GridSurfaceStyle {
    /// Quads along the grid's longer side (1 to [`MAX_MESH_QUADS`]); the shorter side gets
    /// the same quad size. Independent of the grid's cells.
    pub mesh_quads: u32,
    /// Drawn metres per unit of height (1 for f32 grids in metres; small, such as 1e-4, for
    /// the classic integer field).
    pub height_scale: f32,
    /// Width of the band along the rim over which heights fade to zero, metres, measured from
    /// the centres of the rim cells, where they reach zero (0: no fade).
    pub rim_fade: f32,
    /// Depth of the floor under still water, metres (> 0).
    pub floor_depth: f32,
    /// Size of one repeat of the floor texture, metres (> 0).
    pub floor_tile: f32,
    /// Colour of deep water, linear RGB in `[0, 1]`.
    pub water_colour: Vec3,
    /// How fast the water hides the floor, per metre of path (>= 0).
    pub absorption: f32,
    /// Sky colour at the horizon, linear RGB in `[0, 1]`.
    pub sky_colour: Vec3,
    /// Direction toward the sun (normalised when drawn; not zero).
    pub sun_direction: Vec3,
    /// Specular exponent of the sun's highlight (> 0).
    pub shininess: f32,
    /// What the pixels show.
    pub view: SurfaceView,
}

impl Default for GridSurfaceStyle {
    fn default() -> Self {
        Self {
            mesh_quads: 256,
            height_scale: 1.0,
            rim_fade: 0.0,
            floor_depth: 1.0,
            floor_tile: 2.0,
            water_colour: Vec3::new(0.01, 0.08, 0.12),
            absorption: 0.6,
            sky_colour: Vec3::new(0.65, 0.75, 0.85),
            sun_direction: Vec3::new(0.4, 0.3, 0.85),
            shininess: 400.0,
            view: SurfaceView::Lit,
        }
    }
}

impl GridSurfaceStyle {
    /// Checks every field.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), GpuError> {
        check_range(
            "mesh_quads",
            self.mesh_quads,
            1,
            MAX_MESH_QUADS,
            "1 to 2048",
        )?;
        check_finite("height_scale", self.height_scale)?;
        check_non_negative("rim_fade", self.rim_fade)?;
        check_positive("floor_depth", self.floor_depth)?;
        check_positive("floor_tile", self.floor_tile)?;
        check_positive("shininess", self.shininess)?;
        check_non_negative("absorption", self.absorption)?;
        check_colour("water_colour", self.water_colour)?;
        check_colour("sky_colour", self.sky_colour)?;
        check_direction("sun_direction", self.sun_direction)?;
        Ok(())
    }
}

/// Draws one grid's water (and the bodies on it) into the caller's colour and depth targets.
#[derive(Debug)]
pub struct GridSurfaceRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    size: GridSize,
    cell_size: f32,
    style: GridSurfaceStyle,
    quads: (u32, u32),
    uniforms: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    water: wgpu::RenderPipeline,
    bodies: BodyRenderer,
    floor: wgpu::TextureView,
    sampler: wgpu::Sampler,
    no_mask: HullMaskTexture,
    /// The grid's foam ([`GridSurfaceRenderer::set_foam`]), or none (`no_foam` bound).
    foam: Option<wgpu::TextureView>,
    no_foam: FoamTexture,
    /// The bind group [`GridSurfaceRenderer::prepare`] set up for
    /// [`GridSurfaceRenderer::draw`].
    prepared: Option<wgpu::BindGroup>,
}

impl GridSurfaceRenderer {
    /// A renderer for grids of `size` cells of `cell_size` metres, drawing into targets of
    /// `target_format` with depth in [`DEPTH_FORMAT`](super::DEPTH_FORMAT). The floor starts as
    /// [`RgbaImage::pebbles`].
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a bad style or cell size; pipeline creation failures.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target_format: wgpu::TextureFormat,
        size: GridSize,
        cell_size: f32,
        style: GridSurfaceStyle,
    ) -> Result<Self, GpuError> {
        style.validate()?;
        check_positive("cell_size", cell_size)?;
        let water = validated(device, || pipeline(device, target_format))?;
        let uniforms =
            uniform_buffer_of::<SurfaceRenderUniforms>(device, "water surface render uniforms");
        let floor = RgbaImage::pebbles(256, 256, 28, 1)
            .upload(
                device,
                queue,
                wgpu::TextureFormat::Rgba8UnormSrgb,
                "water floor",
            )
            .create_view(&Default::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("water floor sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        // Bound when the caller has no mask; the shader never reads it then.
        let no_mask = HullMaskTexture::new(device, GridSize::new(3, 3)?);
        no_mask.write(queue, &[0.0; 9])?;
        let quads = mesh_quads(size, style.mesh_quads);
        let (indices, index_count) = mesh_indices(device, quads);
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            size,
            cell_size,
            style,
            quads,
            uniforms,
            indices,
            index_count,
            water,
            bodies: BodyRenderer::new(device, queue, target_format)?,
            floor,
            sampler,
            no_mask,
            foam: None,
            no_foam: FoamTexture::new(device, GridSize::new(3, 3)?),
            prepared: None,
        })
    }

    /// The style in use.
    #[must_use]
    pub fn style(&self) -> &GridSurfaceStyle {
        &self.style
    }

    /// Changes the style (a new mesh when its resolution changes).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming a bad field; the old style stays.
    pub fn set_style(&mut self, style: GridSurfaceStyle) -> Result<(), GpuError> {
        style.validate()?;
        let quads = mesh_quads(self.size, style.mesh_quads);
        if quads != self.quads {
            (self.indices, self.index_count) = mesh_indices(&self.device, quads);
            self.quads = quads;
        }
        self.style = style;
        Ok(())
    }

    /// Quads of the mesh along x and y.
    #[must_use]
    pub fn mesh_size(&self) -> (u32, u32) {
        self.quads
    }

    /// Replaces the floor texture (display-encoded sRGB bytes).
    pub fn set_floor(&mut self, image: &RgbaImage) {
        self.floor = image
            .upload(
                &self.device,
                &self.queue,
                wgpu::TextureFormat::Rgba8UnormSrgb,
                "water floor",
            )
            .create_view(&Default::default());
    }

    /// Draws `foam` white from the next [`GridSurfaceRenderer::prepare`] on: a grid's foam
    /// coverage ([`FoamTexture::view`], the grid's size); `None`: no foam.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a texture of another size; the foam drawn stays.
    pub fn set_foam(&mut self, foam: Option<&wgpu::TextureView>) -> Result<(), GpuError> {
        if let Some(view) = foam {
            check_grid_texture("foam texture size", view, self.size)?;
        }
        self.foam = foam.cloned();
        Ok(())
    }

    /// Sets up the next [`GridSurfaceRenderer::draw`]: the camera, the surface texture of the
    /// grid (from [`GpuGrid::update_normal_height`](water_gpu::GpuGridWater::update_normal_height), the grid's size), an optional hull mask
    /// (one `R32Float` texel per cell, non-zero where a hull cuts the water, such as
    /// [`water_gpu::ContactMaskRenderer::new_view`]) and the bodies.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a surface or mask of another size, a non-finite body
    /// transform, or a body mesh made on another device.
    pub fn prepare(
        &mut self,
        camera: &Camera,
        surface: &wgpu::TextureView,
        hull_mask: Option<&wgpu::TextureView>,
        bodies: &[BodyDraw<'_>],
    ) -> Result<(), GpuError> {
        check_grid_texture("surface texture size", surface, self.size)?;
        if let Some(mask) = hull_mask {
            check_grid_texture("hull mask size", mask, self.size)?;
        }
        self.bodies
            .prepare(camera, self.style.sun_direction.normalize(), bodies)?;
        self.queue.write_buffer(
            &self.uniforms,
            0,
            bytemuck::bytes_of(&self.uniform_values(camera, hull_mask.is_some())),
        );
        self.prepared = Some(bind_group_0(
            &self.device,
            "water surface render",
            &self.water,
            &self.uniforms,
            [
                wgpu::BindingResource::TextureView(surface),
                wgpu::BindingResource::TextureView(hull_mask.unwrap_or(self.no_mask.view())),
                wgpu::BindingResource::TextureView(&self.floor),
                wgpu::BindingResource::Sampler(&self.sampler),
                wgpu::BindingResource::TextureView(
                    self.foam.as_ref().unwrap_or(self.no_foam.view()),
                ),
            ],
        ));
        Ok(())
    }

    /// Draws what [`GridSurfaceRenderer::prepare`] set up into a render pass of the caller's
    /// (colour in the renderer's format, depth in [`DEPTH_FORMAT`](super::DEPTH_FORMAT)). Draws nothing before the
    /// first `prepare`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some(group) = &self.prepared else {
            return;
        };
        pass.set_pipeline(&self.water);
        pass.set_bind_group(0, group, &[]);
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..1);
        self.bodies.draw(pass);
    }

    /// [`GridSurfaceRenderer::prepare`] and [`GridSurfaceRenderer::draw`] in a pass of their
    /// own that first clears the frame's colour to its `clear` colour and its depth to the far
    /// plane.
    ///
    /// # Errors
    /// As [`GridSurfaceRenderer::prepare`].
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        frame: FrameTarget<'_>,
        camera: &Camera,
        surface: &wgpu::TextureView,
        hull_mask: Option<&wgpu::TextureView>,
        bodies: &[BodyDraw<'_>],
    ) -> Result<(), GpuError> {
        self.prepare(camera, surface, hull_mask, bodies)?;
        let mut pass = frame.clearing_pass(encoder);
        self.draw(&mut pass);
        Ok(())
    }

    fn uniform_values(&self, camera: &Camera, has_mask: bool) -> SurfaceRenderUniforms {
        let s = &self.style;
        SurfaceRenderUniforms {
            view_proj: camera.view_proj.to_cols_array_2d(),
            eye: camera.eye_uniform(),
            view_dir: camera.forward.extend(0.0).to_array(),
            sun: s.sun_direction.normalize().extend(s.shininess).to_array(),
            water_colour: s.water_colour.extend(s.absorption).to_array(),
            sky_colour: s.sky_colour.extend(s.floor_tile).to_array(),
            grid: [
                self.size.width() as f32,
                self.size.height() as f32,
                self.cell_size,
                s.height_scale,
            ],
            mesh: [
                self.quads.0 as f32,
                self.quads.1 as f32,
                s.rim_fade,
                s.floor_depth,
            ],
            flags: [
                s.view.code(),
                u32::from(has_mask),
                u32::from(self.foam.is_some()),
                0,
            ],
        }
    }
}

/// Quads along x and y: `longest` along the longer side, the same quad size along the other.
fn mesh_quads(size: GridSize, longest: u32) -> (u32, u32) {
    let (w, h) = (size.width() as f64, size.height() as f64);
    let per_metre = f64::from(longest) / w.max(h);
    let along = |cells: f64| ((cells * per_metre).round() as u32).clamp(1, longest);
    (along(w), along(h))
}

/// Two triangles per quad over a `(qx + 1) x (qy + 1)` vertex lattice, row-major.
fn mesh_indices(device: &wgpu::Device, (qx, qy): (u32, u32)) -> (wgpu::Buffer, u32) {
    use wgpu::util::DeviceExt;
    let mut indices = Vec::with_capacity(qx as usize * qy as usize * 6);
    let row = qx + 1;
    for y in 0..qy {
        for x in 0..qx {
            let a = y * row + x;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            indices.extend_from_slice(&[a, b, d, a, d, c]);
        }
    }
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("water surface mesh indices"),
        contents: bytemuck::cast_slice(&indices),
        usage: wgpu::BufferUsages::INDEX,
    });
    (buffer, indices.len() as u32)
}

fn pipeline(device: &wgpu::Device, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
    let module = water_gpu::pipelines::shader_module(
        device,
        "render_grid_surface",
        shaders::RENDER_GRID_SURFACE,
    );
    let layout = one_group_layout(
        device,
        "water surface render",
        &[
            uniform_binding(),
            unfilterable_texture(),
            unfilterable_texture(),
            wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            unfilterable_texture(),
        ],
    );
    SurfacePipeline {
        label: "water surface",
        layout: Some(&layout),
        module: &module,
        vertex: "vs_main",
        fragment: "fs_main",
        buffers: &[],
        primitive: wgpu::PrimitiveState::default(),
        depth: (true, wgpu::CompareFunction::Less),
        format,
    }
    .create(device)
}
