//! The sea drawn to the horizon on the caller's device: the ambient sea of an
//! [`OceanSynthesis`] on a camera-centred [`RingMesh`], the interactive grid's heights added
//! where it lies, the sky behind and reflected, a haze with distance, foam drawn white (the
//! grid's coverage, and the open sea's breaking crests), and the floating bodies.
//! The shader is `shaders/render_ocean_surface.wgsl`.

use glam::{Vec2, Vec3, Vec4Swizzles};
use water_core::GridSize;

use crate::body_renderer::{BodyDraw, BodyRenderer};
use crate::camera::Camera;
use crate::foam_texture::FoamTexture;
use crate::frame_target::FrameTarget;
use crate::render_pipeline::{
    bind_group_0, one_group_layout, unfilterable_texture, uniform_binding, SurfacePipeline,
};
use crate::uniforms::{uniform_buffer_of, OceanRenderUniforms};
use crate::{
    check_colour, check_direction, check_finite, check_grid_texture, check_non_negative,
    check_positive, check_range, setting, SurfaceView,
};
use water_gpu::device_calls::validated;
use water_gpu::shaders;
use water_gpu::GpuError;
use water_gpu::OceanSynthesis;
use water_gpu::{
    level_centres, RingLayout, RingMesh, RingVertex, MAX_CAMERA_UNITS, MAX_HALF_QUADS, MAX_RINGS,
};

/// Most tiles the renderer draws (the ambient sea has at most
/// [`water_core::ocean::MAX_OCEAN_TILES`]).
pub const MAX_DRAWN_TILES: usize = 8;

/// How the sea looks.
#[derive(Debug, Clone, PartialEq)]
pub struct OceanSurfaceStyle {
    /// The mesh: its finest spacing, rings and skirt.
    pub layout: RingLayout,
    /// Distance over which the sea fades into the horizon's sky, metres (> 0): at this distance
    /// 63% of a point's colour is haze.
    pub haze_distance: f32,
    /// Band inside the interactive grid's rim over which its heights fade to zero, metres
    /// (>= 0), so the grid meets the open sea with no step.
    pub rim_fade: f32,
    /// Drawn metres per unit of the grid's height (1 for grids in metres).
    pub height_scale: f32,
    /// The heights view's range: heights of +- this many metres reach the ends of the colour
    /// map (> 0).
    pub heights_range: f32,
    /// Colour of deep water, linear RGB in `[0, 1]`.
    pub water_colour: Vec3,
    /// Sky colour at the horizon (and of the haze), linear RGB in `[0, 1]`.
    pub sky_colour: Vec3,
    /// Direction toward the sun (normalised when drawn; not zero).
    pub sun_direction: Vec3,
    /// Specular exponent of the sun's highlight (> 0).
    pub shininess: f32,
    /// What the pixels of the sea show.
    pub view: SurfaceView,
    /// The open sea is drawn white where its Jacobian `det(I + grad D)` falls below this (in
    /// `[-1, 1]`: the breaking crests of a choppy sea, as they break, with no decay), fading in
    /// over 0.15 below it; `None`: the sea draws no foam of its own. The grid's foam
    /// ([`InteractiveGrid::foam`]) is drawn either way.
    pub foam_jacobian: Option<f32>,
}

impl Default for OceanSurfaceStyle {
    fn default() -> Self {
        Self {
            layout: RingLayout {
                finest_spacing: 0.5,
                half_quads: 64,
                rings: 10,
                skirt: 16.0,
            },
            haze_distance: 6000.0,
            rim_fade: 8.0,
            height_scale: 1.0,
            heights_range: 2.0,
            water_colour: Vec3::new(0.01, 0.06, 0.1),
            sky_colour: Vec3::new(0.65, 0.75, 0.85),
            sun_direction: Vec3::new(0.4, 0.6, 0.45),
            shininess: 600.0,
            view: SurfaceView::Lit,
            foam_jacobian: None,
        }
    }
}

impl OceanSurfaceStyle {
    /// Checks every field.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), GpuError> {
        let l = &self.layout;
        check_positive("layout.finest_spacing", l.finest_spacing)?;
        check_range(
            "layout.half_quads",
            l.half_quads,
            4,
            MAX_HALF_QUADS,
            "even, 4 to 256",
        )?;
        setting(
            l.half_quads.is_multiple_of(2),
            "layout.half_quads",
            l.half_quads,
            "even, 4 to 256",
        )?;
        check_range("layout.rings", l.rings, 0, MAX_RINGS, "0 to 16")?;
        setting(
            l.skirt.is_finite() && l.skirt >= 1.0,
            "layout.skirt",
            l.skirt,
            "finite and >= 1",
        )?;
        setting(
            (l.reach() * l.skirt).is_finite(),
            "layout",
            format!("{l:?}"),
            "a reach (finest spacing x half quads x 2^rings x skirt) that is finite in f32",
        )?;
        check_positive("haze_distance", self.haze_distance)?;
        check_non_negative("rim_fade", self.rim_fade)?;
        check_finite("height_scale", self.height_scale)?;
        check_positive("heights_range", self.heights_range)?;
        check_positive("shininess", self.shininess)?;
        check_colour("water_colour", self.water_colour)?;
        check_colour("sky_colour", self.sky_colour)?;
        check_direction("sun_direction", self.sun_direction)?;
        if let Some(j) = self.foam_jacobian {
            setting(
                (-1.0..=1.0).contains(&j),
                "foam_jacobian",
                j,
                "from -1 to 1",
            )?;
        }
        Ok(())
    }
}

/// The interactive grid inside the sea: its surface texture
/// ([`GpuGridWater::update_normal_height`](water_gpu::GpuGridWater::update_normal_height), one
/// texel a cell, height in `w`) and where it lies.
#[derive(Debug, Clone, Copy)]
pub struct InteractiveGrid<'a> {
    /// The grid's surface texture.
    pub surface: &'a wgpu::TextureView,
    /// Its cells.
    pub size: GridSize,
    /// Its cell size, metres.
    pub cell_size: f32,
    /// Its corner (cell (0, 0)'s outer corner) in the world, metres.
    pub origin: Vec2,
    /// Its foam's coverage ([`super::FoamTexture`], the grid's size), drawn white; `None`:
    /// no foam on the grid.
    pub foam: Option<&'a wgpu::TextureView>,
    /// The water around it (a scene's coarser cascades, blended: [`SurroundingWater`]), drawn
    /// where the grid is not and faded into the grid across its rim; `None`: the grid alone.
    pub surrounding: Option<SurroundingWater<'a>>,
}

/// Interactive water around the grid, coarser than it: a surface texture of its own placement
/// (one texel a cell, the height in w: [`super::CpuSurfaceTexture`]), drawn where the grid is
/// not and faded to nothing toward its own rim over the style's `rim_fade`.
#[derive(Debug, Clone, Copy)]
pub struct SurroundingWater<'a> {
    /// Its surface texture.
    pub surface: &'a wgpu::TextureView,
    /// Its cells.
    pub size: GridSize,
    /// Its cell size, metres.
    pub cell_size: f32,
    /// Its corner in the world, metres.
    pub origin: Vec2,
}

/// Draws the sea to the horizon into the caller's colour and depth targets.
#[derive(Debug)]
pub struct OceanSurfaceRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    style: OceanSurfaceStyle,
    sky: wgpu::RenderPipeline,
    sea: wgpu::RenderPipeline,
    bodies: BodyRenderer,
    uniforms: wgpu::Buffer,
    no_grid: wgpu::TextureView,
    no_foam: FoamTexture,
    /// The mesh's buffers and the level centres they were made around.
    mesh: Option<MeshBuffers>,
    prepared: Option<wgpu::BindGroup>,
}

#[derive(Debug)]
struct MeshBuffers {
    centres: Vec<Vec2>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
}

impl OceanSurfaceRenderer {
    /// A renderer drawing into targets of `target_format` with depth in
    /// [`DEPTH_FORMAT`](super::DEPTH_FORMAT).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a bad style; pipeline creation failures.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target_format: wgpu::TextureFormat,
        style: OceanSurfaceStyle,
    ) -> Result<Self, GpuError> {
        style.validate()?;
        let (sky, sea) = validated(device, || pipelines(device, target_format))?;
        let uniforms =
            uniform_buffer_of::<OceanRenderUniforms>(device, "water ocean render uniforms");
        // Bound when there is no grid; the shader never reads it then.
        let no_grid = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("water ocean: no grid"),
                size: wgpu::Extent3d {
                    width: 1,
                    height: 1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba32Float,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            })
            .create_view(&Default::default());
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            style,
            sky,
            sea,
            bodies: BodyRenderer::new(device, queue, target_format)?,
            uniforms,
            no_grid,
            no_foam: FoamTexture::new(device, GridSize::new(3, 3)?),
            mesh: None,
            prepared: None,
        })
    }

    /// The style in use.
    #[must_use]
    pub fn style(&self) -> &OceanSurfaceStyle {
        &self.style
    }

    /// Changes the style (a new mesh when its layout changes).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming a bad field; the old style stays.
    pub fn set_style(&mut self, style: OceanSurfaceStyle) -> Result<(), GpuError> {
        style.validate()?;
        if style.layout != self.style.layout {
            self.mesh = None;
        }
        self.style = style;
        Ok(())
    }

    /// Sets up the next [`OceanSurfaceRenderer::draw`]: the camera (perspective) and the size
    /// of the target it draws into (pixels), the sea's tiles as `sea` last synthesised them,
    /// the interactive grid if any, and the bodies. The mesh is made anew only when the camera
    /// has moved past one of its levels' rounding ([`level_centres`](super::level_centres)).
    /// The camera's far plane should lie past the skirt's rim (finest spacing x half quads x
    /// 2^rings x skirt x sqrt 2), or the sea stops short of the horizon.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for an orthographic camera, one not finite or farther
    /// from the origin than [`MAX_CAMERA_UNITS`](super::MAX_CAMERA_UNITS) finest spacings, an
    /// empty target, a sea of
    /// more than [`MAX_DRAWN_TILES`] tiles, a grid texture of another size or a bad grid
    /// placement, the same of the water around the grid ([`SurroundingWater`]), and as the
    /// bodies' checks.
    pub fn prepare(
        &mut self,
        camera: &Camera,
        target: (u32, u32),
        sea: &OceanSynthesis,
        grid: Option<InteractiveGrid<'_>>,
        bodies: &[BodyDraw<'_>],
    ) -> Result<(), GpuError> {
        setting(camera.perspective, "camera", "orthographic", "perspective")?;
        let units = camera.eye.truncate().abs().max_element() / self.style.layout.finest_spacing;
        setting(
            camera.eye.is_finite() && camera.view_proj.is_finite() && units < MAX_CAMERA_UNITS,
            "camera position",
            camera.eye,
            "finite, and within 8e6 finest spacings of the origin in x and y (for the mesh's lattice to be exact in f32)",
        )?;
        setting(
            target.0 > 0 && target.1 > 0,
            "target size",
            format!("{}x{}", target.0, target.1),
            "at least 1x1",
        )?;
        let lengths = sea.tile_lengths();
        setting(
            lengths.len() <= MAX_DRAWN_TILES,
            "sea tiles",
            lengths.len(),
            "at most 8",
        )?;
        if let Some(grid) = &grid {
            check_grid_texture("grid surface texture size", grid.surface, grid.size)?;
            check_positive("grid cell_size", grid.cell_size)?;
            if let Some(foam) = grid.foam {
                check_grid_texture("grid foam texture size", foam, grid.size)?;
            }
            setting(
                grid.origin.is_finite(),
                "grid origin",
                grid.origin,
                "finite",
            )?;
            if let Some(around) = grid.surrounding {
                let t = around.surface.texture();
                setting(
                    (t.width(), t.height())
                        == (around.size.width() as u32, around.size.height() as u32),
                    "surrounding water's surface texture size",
                    format!("{}x{}", t.width(), t.height()),
                    "its size in cells",
                )?;
                check_positive("surrounding water's cell_size", around.cell_size)?;
                setting(
                    around.origin.is_finite(),
                    "surrounding water's origin",
                    around.origin,
                    "finite",
                )?;
            }
        }
        let sun = self.style.sun_direction.normalize();
        self.bodies.prepare(camera, sun, bodies)?;
        self.update_mesh(camera.eye.truncate());
        let uniforms = self.uniform_values(camera, target, sea, grid.as_ref());
        self.queue
            .write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&uniforms));
        let array_view = |t: &wgpu::Texture| {
            t.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            })
        };
        let (displacement, normals) = (array_view(sea.displacement()), array_view(sea.normals()));
        let views = [
            &displacement,
            &normals,
            grid.as_ref().map_or(&self.no_grid, |g| g.surface),
            grid.as_ref()
                .and_then(|g| g.foam)
                .unwrap_or(self.no_foam.view()),
            grid.as_ref()
                .and_then(|g| g.surrounding)
                .map_or(&self.no_grid, |s| s.surface),
        ];
        self.prepared = Some(bind_group_0(
            &self.device,
            "water ocean render",
            &self.sea,
            &self.uniforms,
            views.map(wgpu::BindingResource::TextureView),
        ));
        Ok(())
    }

    /// Draws what [`OceanSurfaceRenderer::prepare`] set up into a render pass of the caller's:
    /// the sky (every pixel), then the sea and the bodies. Draws nothing before the first
    /// `prepare`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let (Some(group), Some(mesh)) = (&self.prepared, &self.mesh) else {
            return;
        };
        pass.set_bind_group(0, group, &[]);
        pass.set_pipeline(&self.sky);
        pass.draw(0..3, 0..1);
        pass.set_pipeline(&self.sea);
        pass.set_vertex_buffer(0, mesh.vertices.slice(..));
        pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..mesh.index_count, 0, 0..1);
        self.bodies.draw(pass);
    }

    /// [`OceanSurfaceRenderer::prepare`] and [`OceanSurfaceRenderer::draw`] in a pass of their
    /// own over `frame` (cleared first; the sky then covers every pixel).
    ///
    /// # Errors
    /// As [`OceanSurfaceRenderer::prepare`].
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        frame: FrameTarget<'_>,
        camera: &Camera,
        sea: &OceanSynthesis,
        grid: Option<InteractiveGrid<'_>>,
        bodies: &[BodyDraw<'_>],
    ) -> Result<(), GpuError> {
        let target = frame.colour.texture();
        self.prepare(camera, (target.width(), target.height()), sea, grid, bodies)?;
        let mut pass = frame.clearing_pass(encoder);
        self.draw(&mut pass);
        Ok(())
    }

    /// The mesh around `eye`, made anew where the camera crossed a level's rounding.
    fn update_mesh(&mut self, eye: Vec2) {
        let centres = level_centres(eye, &self.style.layout);
        if self.mesh.as_ref().is_some_and(|m| m.centres == centres) {
            return;
        }
        let mesh = RingMesh::around(eye, &self.style.layout);
        use wgpu::util::DeviceExt;
        let vertices = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water ocean mesh vertices"),
                contents: bytemuck::cast_slice::<RingVertex, u8>(&mesh.vertices),
                usage: wgpu::BufferUsages::VERTEX,
            });
        let indices = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water ocean mesh indices"),
                contents: bytemuck::cast_slice(&mesh.indices),
                usage: wgpu::BufferUsages::INDEX,
            });
        self.mesh = Some(MeshBuffers {
            centres: mesh.centres,
            vertices,
            indices,
            index_count: mesh.indices.len() as u32,
        });
    }

    fn uniform_values(
        &self,
        camera: &Camera,
        target: (u32, u32),
        sea: &OceanSynthesis,
        grid: Option<&InteractiveGrid<'_>>,
    ) -> OceanRenderUniforms {
        let s = &self.style;
        let inverse = camera.view_proj.inverse();
        // The angle between the rays through two neighbouring pixels at the picture's centre.
        let ray = |ndc_y: f32| {
            let p = inverse * glam::Vec4::new(0.0, ndc_y, 0.5, 1.0);
            (p.xyz() / p.w - camera.eye).normalize()
        };
        let pixel_angle = ray(0.0).angle_between(ray(2.0 / target.1 as f32));
        let mut tile_lengths = [[0.0; 4]; 2];
        for (i, length) in sea.tile_lengths().iter().enumerate() {
            tile_lengths[i / 4][i % 4] = *length;
        }
        let centre = camera.eye.truncate();
        let (grid_size, grid_origin) = grid.map_or(([0.0; 4], [0.0; 4]), |g| {
            (
                [
                    g.size.width() as f32,
                    g.size.height() as f32,
                    g.cell_size,
                    0.0,
                ],
                [g.origin.x, g.origin.y, 0.0, 0.0],
            )
        });
        let (surrounding, surrounding_origin) =
            grid.and_then(|g| g.surrounding)
                .map_or(([0.0; 4], [0.0; 4]), |s| {
                    (
                        [
                            s.size.width() as f32,
                            s.size.height() as f32,
                            s.cell_size,
                            1.0,
                        ],
                        [s.origin.x, s.origin.y, 0.0, 0.0],
                    )
                });
        OceanRenderUniforms {
            view_proj: camera.view_proj.to_cols_array_2d(),
            inverse_view_proj: inverse.to_cols_array_2d(),
            eye: camera.eye.extend(pixel_angle).to_array(),
            sun: s.sun_direction.normalize().extend(s.shininess).to_array(),
            water_colour: s.water_colour.extend(s.haze_distance).to_array(),
            sky_colour: s.sky_colour.extend(s.heights_range).to_array(),
            viewport: [target.0 as f32, target.1 as f32, centre.x, centre.y],
            lod: [
                s.layout.finest_spacing,
                s.layout.half_quads as f32,
                s.height_scale,
                s.rim_fade,
            ],
            tile_lengths,
            grid: grid_size,
            grid_origin,
            flags: [
                s.view.code(),
                u32::from(grid.is_some()),
                sea.tile_lengths().len() as u32,
                sea.cells(),
            ],
            foam: [
                s.foam_jacobian.unwrap_or(0.0),
                f32::from(u8::from(s.foam_jacobian.is_some())),
                f32::from(u8::from(grid.is_some_and(|g| g.foam.is_some()))),
                0.0,
            ],
            surrounding,
            surrounding_origin,
        }
    }
}

/// The sky (a full-screen triangle behind everything) and the sea, on one layout.
fn pipelines(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
) -> (wgpu::RenderPipeline, wgpu::RenderPipeline) {
    let module = water_gpu::pipelines::shader_module(
        device,
        "render_ocean_surface",
        shaders::RENDER_OCEAN_SURFACE,
    );
    let array = wgpu::BindingType::Texture {
        sample_type: wgpu::TextureSampleType::Float { filterable: false },
        view_dimension: wgpu::TextureViewDimension::D2Array,
        multisampled: false,
    };
    let layout = one_group_layout(
        device,
        "water ocean render",
        &[
            uniform_binding(),
            array,
            array,
            unfilterable_texture(),
            unfilterable_texture(),
            unfilterable_texture(),
        ],
    );
    let vertex = wgpu::vertex_attr_array![0 => Float32x4];
    let pipeline = |label, vertex, fragment, buffers, depth| {
        SurfacePipeline {
            label,
            layout: Some(&layout),
            module: &module,
            vertex,
            fragment,
            buffers,
            primitive: wgpu::PrimitiveState::default(),
            depth,
            format,
        }
        .create(device)
    };
    let sky = pipeline(
        "water sky",
        "vs_main",
        "fs_sky",
        &[],
        (false, wgpu::CompareFunction::Always),
    );
    let sea = pipeline(
        "water ocean surface",
        "vs_sea",
        "fs_sea",
        &[wgpu::VertexBufferLayout {
            array_stride: size_of::<RingVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &vertex,
        }],
        (true, wgpu::CompareFunction::Less),
    );
    (sky, sea)
}
