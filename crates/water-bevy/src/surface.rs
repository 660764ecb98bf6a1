//! The rendered water surface: a grid mesh displaced by the heights, lit per pixel by Bevy's
//! lights through [`WaterSurfaceMaterial`] (Bevy's `StandardMaterial` extended with the height
//! texture, `water_surface.wgsl`), and the systems that upload the CPU heights and the foam each
//! frame.

use bevy::asset::{uuid_handle, RenderAssetUsages};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, ShaderType, TextureDimension, TextureFormat,
};
use bevy::shader::ShaderRef;

use crate::simulation::WaterSimulation;
use crate::water::Water;

/// The surface shader, registered by the plugin under this handle.
pub const WATER_SURFACE_SHADER: Handle<Shader> =
    uuid_handle!("6c3f1c4e-2b7d-4a55-9d0e-5f1a7c2e9b31");

/// The foam's look (`foam_look.wgsl`, imported by the surface and the sea through
/// `surface_pass.wgsl`), registered by the plugin under this handle.
pub const FOAM_LOOK_SHADER: Handle<Shader> = uuid_handle!("0b8e5d1a-7f3c-4e21-b6a9-3d4c2e1f8a57");

/// What the surface and the sea share around their own displacement and normals
/// (`surface_pass.wgsl`: the vertex placed in the world, the pixel lit), registered by the plugin
/// under this handle.
pub(crate) const SURFACE_PASS_SHADER: Handle<Shader> =
    uuid_handle!("fb22475f-7dee-4f0e-9806-c9b4acf710b8");

/// The water's material: Bevy's `StandardMaterial` (colour, roughness, reflectance: the look)
/// with the heights added ([`WaterSurfaceExtension`]).
pub type WaterSurfaceMaterial = ExtendedMaterial<StandardMaterial, WaterSurfaceExtension>;

/// What the water's material adds to `StandardMaterial`: the height texture and how to read it.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct WaterSurfaceExtension {
    /// Heights, metres, one texel per cell, row 0 first: `R32Float` heights uploaded from the
    /// CPU backend, or the GPU backends' `Rgba32Float` normal-and-height texels (height in w)
    /// copied on the GPU. [`WaterSurfaceUniform::height_channel`] says which.
    #[texture(
        100,
        sample_type = "float",
        filterable = false,
        visibility(vertex, fragment)
    )]
    pub heights: Handle<Image>,
    /// Cell size and height scale.
    #[uniform(101)]
    pub surface: WaterSurfaceUniform,
    /// The foam's coverage, 0 to 1, one `R32Float` texel per cell, row 0 first
    /// ([`WaterSurface::foam`]): drawn as white, rough water.
    #[texture(102, sample_type = "float", filterable = false, visibility(fragment))]
    pub foam: Handle<Image>,
}

/// The surface's uniform block (`WaterSurface` in `water_surface.wgsl`).
#[derive(ShaderType, Debug, Clone, Copy, PartialEq)]
pub struct WaterSurfaceUniform {
    /// Cell size, metres.
    pub cell_size: f32,
    /// Scale of the heights as drawn (1: true heights; more shows small waves from afar).
    pub height_scale: f32,
    /// The texel channel holding the height: 0 (r) for the CPU's `R32Float` texture, 3 (w)
    /// for the GPU's normal-and-height texels.
    pub height_channel: u32,
    /// 1 where the water has foam to draw ([`Water::foam`]), else 0.
    pub has_foam: u32,
}

impl MaterialExtension for WaterSurfaceExtension {
    fn vertex_shader() -> ShaderRef {
        ShaderRef::Handle(WATER_SURFACE_SHADER)
    }

    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(WATER_SURFACE_SHADER)
    }

    // The prepass and shadow passes would draw the flat, undisplaced mesh: the surface takes
    // part in neither.
    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// How a [`Water`] surface looks. Insert it with the water to change the defaults (before the
/// surface is made: the first frame).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct WaterLook {
    /// Colour of the water body, linear RGB.
    pub colour: Color,
    /// Perceptual roughness, 0 (mirror) to 1: low for water, so the sun's highlight shows each
    /// ripple.
    pub roughness: f32,
    /// Heights as drawn over true heights: 1 is true; more makes centimetre waves visible from
    /// a camera far away.
    pub height_scale: f32,
}

impl Default for WaterLook {
    fn default() -> Self {
        Self {
            colour: Color::srgb(0.05, 0.25, 0.35),
            roughness: 0.08,
            height_scale: 1.0,
        }
    }
}

impl WaterLook {
    /// The `StandardMaterial` under both the grid's surface and the sea: this look's colour and
    /// roughness, and water's reflectance (0.5: 4% at normal incidence).
    pub(crate) fn standard_material(&self) -> StandardMaterial {
        StandardMaterial {
            base_color: self.colour,
            perceptual_roughness: self.roughness,
            reflectance: 0.5,
            ..default()
        }
    }
}

/// The rendered surface of a water entity: its height texture, material and mesh.
#[derive(Component, Debug, Clone)]
pub struct WaterSurface {
    /// The heights: uploaded from a CPU simulation each frame, copied on the GPU from a GPU
    /// one.
    pub heights: Handle<Image>,
    /// The material.
    pub material: Handle<WaterSurfaceMaterial>,
    /// The water step whose heights the texture holds and where the grid's corner was then
    /// (world cells; `None` before the first upload): frames without a new step or a move of
    /// the grid upload nothing.
    pub uploaded_step: Option<(u64, bevy::math::I64Vec2)>,
    /// The foam's coverage ([`water_scene::Scene::foam_coverage`]), one `R32Float` texel per
    /// cell, uploaded from the CPU (the foam is the CPU's on every backend); all zero without
    /// foam.
    pub foam: Handle<Image>,
    /// The step and corner whose foam [`WaterSurface::foam`] holds.
    pub uploaded_foam: Option<(u64, bevy::math::I64Vec2)>,
}

/// A `width` x `height` grid mesh of `cell_size` centred on the origin: one vertex per cell
/// centre (uv at the texel centre, rows toward -z), two triangles per square between them.
#[must_use]
pub fn grid_mesh(width: usize, height: usize, cell_size: f32) -> Mesh {
    let (w, h) = (width as f32, height as f32);
    let mut positions = Vec::with_capacity(width * height);
    let mut uvs = Vec::with_capacity(width * height);
    for row in 0..height {
        for x in 0..width {
            let u = (x as f32 + 0.5) / w;
            let v = (row as f32 + 0.5) / h;
            positions.push([(u - 0.5) * w * cell_size, 0.0, (0.5 - v) * h * cell_size]);
            uvs.push([u, v]);
        }
    }
    let mut indices = Vec::with_capacity(width.saturating_sub(1) * height.saturating_sub(1) * 6);
    for row in 0..height.saturating_sub(1) {
        for x in 0..width.saturating_sub(1) {
            let i = (row * width + x) as u32;
            let (right, below) = (i + 1, i + width as u32);
            // Counter-clockwise seen from above (+y): rows run toward -z.
            indices.extend_from_slice(&[i, right, below, right, below + 1, below]);
        }
    }
    flat_mesh(positions, uvs, indices)
}

/// A triangle list of `positions`, `uvs` and `indices` with every normal straight up (+y): the
/// flat meshes the grid's and the sea's shaders displace and light.
pub(crate) fn flat_mesh(positions: Vec<[f32; 3]>, uvs: Vec<[f32; 2]>, indices: Vec<u32>) -> Mesh {
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices))
}

/// Gives each simulated water without a surface its mesh, height texture and material.
pub(crate) fn make_surfaces(
    mut commands: Commands,
    new: Query<
        (Entity, &Water, Option<&WaterLook>),
        (With<WaterSimulation>, Without<WaterSurface>),
    >,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<WaterSurfaceMaterial>>,
) {
    for (entity, water, look) in &new {
        let look = look.copied().unwrap_or_default();
        let size = Extent3d {
            width: water.width as u32,
            height: water.height as u32,
            depth_or_array_layers: 1,
        };
        // CPU water uploads its heights into an R32Float texture kept on both sides; GPU water's
        // Rgba32Float normal-and-height texels are copied into this one on the GPU, so the
        // main world keeps no copy.
        let (format, texel, usage, height_channel): (_, &[f32], _, _) =
            if water.backend.gpu().is_some() {
                (
                    TextureFormat::Rgba32Float,
                    &[0.0, 1.0, 0.0, 0.0],
                    RenderAssetUsages::RENDER_WORLD,
                    3,
                )
            } else {
                (
                    TextureFormat::R32Float,
                    &[0.0],
                    RenderAssetUsages::default(),
                    0,
                )
            };
        let texel_bytes: Vec<u8> = bytemuck::cast_slice(texel).to_vec();
        let heights = images.add(Image::new_fill(
            size,
            TextureDimension::D2,
            &texel_bytes,
            format,
            usage,
        ));
        let foam = images.add(Image::new_fill(
            size,
            TextureDimension::D2,
            &0.0f32.to_ne_bytes(),
            TextureFormat::R32Float,
            RenderAssetUsages::default(),
        ));
        let material = materials.add(WaterSurfaceMaterial {
            base: look.standard_material(),
            extension: WaterSurfaceExtension {
                heights: heights.clone(),
                surface: WaterSurfaceUniform {
                    cell_size: water.cell_size,
                    height_scale: look.height_scale,
                    height_channel,
                    has_foam: u32::from(water.foam.is_some()),
                },
                foam: foam.clone(),
            },
        });
        let surface = WaterSurface {
            heights,
            material: material.clone(),
            uploaded_step: None,
            foam,
            uploaded_foam: None,
        };
        if water.ocean.is_some() {
            // The sea's mesh draws the grid's heights (`crate::ocean_surface`): this surface
            // keeps only its texture.
            commands.entity(entity).insert(surface);
            continue;
        }
        let mesh = meshes.add(grid_mesh(water.width, water.height, water.cell_size));
        commands
            .entity(entity)
            .insert((Mesh3d(mesh), MeshMaterial3d(material), surface));
    }
}

/// Copies the heights of each CPU water into its surface's texture, once per frame after the fixed
/// steps and only when the water stepped since the last upload.
pub(crate) fn upload_heights(
    mut water: Query<(&WaterSimulation, &mut WaterSurface)>,
    mut images: ResMut<Assets<Image>>,
) {
    for (simulation, mut surface) in &mut water {
        if simulation.scene().water().gpu().is_some() {
            // Copied on the GPU instead (`crate::gpu`).
            continue;
        }
        // A shift moves the heights without a step (a focus that moved between steps).
        let step = (
            simulation.scene().steps_taken(),
            simulation.scene().window_origin_cells(),
        );
        if surface.uploaded_step == Some(step) {
            continue;
        }
        let Some(mut image) = images.get_mut(&surface.heights) else {
            continue;
        };
        let written = simulation
            .heights_into(|heights| write_texels(&mut image, bytemuck::cast_slice(heights)));
        match written {
            Ok(()) => surface.uploaded_step = Some(step),
            Err(e) => error!("water heights for the surface: {e}"),
        }
    }
}

/// Copies each water's foam coverage into its surface's foam texture, once per frame after the
/// fixed steps and only when the water stepped or moved since the last upload.
pub(crate) fn upload_foam(
    mut water: Query<(&WaterSimulation, &mut WaterSurface)>,
    mut images: ResMut<Assets<Image>>,
) {
    for (simulation, mut surface) in &mut water {
        let scene = simulation.scene();
        let step = (scene.steps_taken(), scene.window_origin_cells());
        if surface.uploaded_foam == Some(step) {
            continue;
        }
        let Some(coverage) = scene.foam_coverage() else {
            continue;
        };
        let Some(mut image) = images.get_mut(&surface.foam) else {
            continue;
        };
        write_texels(&mut image, bytemuck::cast_slice(&coverage));
        surface.uploaded_foam = Some(step);
    }
}

/// Replaces an image's texels with `bytes` (in place when the size is unchanged).
pub(crate) fn write_texels(image: &mut Image, bytes: &[u8]) {
    match &mut image.data {
        Some(data) if data.len() == bytes.len() => data.copy_from_slice(bytes),
        data => *data = Some(bytes.to_vec()),
    }
}
