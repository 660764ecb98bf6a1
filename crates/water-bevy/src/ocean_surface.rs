//! The sea to the horizon around the camera: for a [`Water`] with an ambient sea
//! ([`Water::with_ocean`]), one camera-centred mesh of rings of doubling spacing
//! (`water_gpu::RingMesh`, the CLI renderer's mesh) displaced by the sea's tiles and,
//! where the grid lies, by the grid's water, lit per pixel by Bevy's lights through
//! [`OceanSurfaceMaterial`] (`ocean_surface.wgsl`). The grid's own mesh is not drawn then: the
//! sea's mesh carries its heights, faded to zero over [`RIM_FADE_CELLS`] inside its rim, so no
//! seam shows where the grid ends.
//!
//! The sea's fields are the scene's own frame (`Scene::sea_frame_at`, the one bodies float
//! on), uploaded once a water step: per tile `(Dx, Dy, h, dDx/dy)` and
//! `(dh/dx, dh/dy, dDx/dx, dDy/dy)`. The shader reads the geometry `(Dx, Dy, h)` by
//! Catmull-Rom, as the CPU's queries read the same samples ([`SEA_TAPS_SHADER`], the module the
//! CLI renderer's sea reads through too), every tile whole, so the drawn surface is the one
//! bodies float on; the shading fields it reads bilinearly.

use bevy::asset::{uuid_handle, RenderAssetUsages};
use bevy::image::ImageSampler;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, ShaderType, TextureDimension, TextureFormat, TextureViewDescriptor,
    TextureViewDimension,
};
use bevy::shader::ShaderRef;
use water_scene::water_core::ocean::{SeaField, SeaFrame};
use water_scene::water_gpu::{level_centres, RingLayout, RingMesh, MAX_CAMERA_UNITS};

use crate::placement::WaterPlacement;
use crate::simulation::WaterSimulation;
use crate::surface::{flat_mesh, write_texels, WaterLook, WaterSurface};
use crate::water::Water;

/// The sea's shader, registered by the plugin under this handle.
pub const OCEAN_SURFACE_SHADER: Handle<Shader> =
    uuid_handle!("0f8e2a57-41c9-4b0e-9a6d-3c2b7e15d4a8");

/// The sea's Catmull-Rom reads, `shaders/shared/sea_taps.wgsl` as the Bevy module
/// `water_bevy::sea_taps`: the reads the CLI renderer's sea and the CPU's queries make.
pub const SEA_TAPS_SHADER: Handle<Shader> = uuid_handle!("5c1d7e9a-2b84-4f63-a0e5-9d7b3c8f1a26");

/// [`SEA_TAPS_SHADER`]'s source: the shared module under a Bevy import path.
pub(crate) fn sea_taps_source() -> String {
    format!(
        "#define_import_path water_bevy::sea_taps\n\n{}",
        water_scene::water_gpu::shaders::SEA_TAPS
    )
}

/// Most tiles the sea's material draws (the uniform's room).
pub const MAX_OCEAN_TILES: usize = 8;

/// Cells inside the grid's rim over which its water fades into the sea.
pub const RIM_FADE_CELLS: f32 = 8.0;

/// Quads from each ring's centre to its rim: a 64 x 64-quad square at the grid's cell size
/// around the camera, then rings of doubling spacing.
pub const OCEAN_HALF_QUADS: u32 = 32;

/// How far the rings reach at least, metres; the skirt goes on 16 times further.
pub const OCEAN_REACH: f32 = 10_000.0;

/// The sea's material: Bevy's `StandardMaterial` (the look) with the sea's and the grid's
/// heights added ([`OceanSurfaceExtension`]).
pub type OceanSurfaceMaterial = ExtendedMaterial<StandardMaterial, OceanSurfaceExtension>;

/// What the sea's material adds to `StandardMaterial`.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct OceanSurfaceExtension {
    /// Per tile (array layer), per sample: `(Dx, Dy, h, dDx/dy)` in the water's z-up frame,
    /// metres (`Rgba32Float`).
    #[texture(
        100,
        sample_type = "float",
        filterable = false,
        dimension = "2d_array",
        visibility(vertex, fragment)
    )]
    pub sea_displacement: Handle<Image>,
    /// Per tile, per sample: `(dh/dx, dh/dy, dDx/dx, dDy/dy)` (`Rgba32Float`).
    #[texture(
        101,
        sample_type = "float",
        filterable = false,
        dimension = "2d_array",
        visibility(vertex, fragment)
    )]
    pub sea_slopes: Handle<Image>,
    /// The grid's heights: its surface's texture ([`WaterSurface::heights`]).
    #[texture(
        102,
        sample_type = "float",
        filterable = false,
        visibility(vertex, fragment)
    )]
    pub grid_heights: Handle<Image>,
    /// Where the tiles and the grid lie.
    #[uniform(103)]
    pub ocean: OceanSurfaceUniform,
    /// The grid's foam: its surface's foam texture ([`WaterSurface::foam`]).
    #[texture(104, sample_type = "float", filterable = false, visibility(fragment))]
    pub grid_foam: Handle<Image>,
}

/// The sea's uniform block (`OceanSurface` in `ocean_surface.wgsl`).
#[derive(ShaderType, Debug, Clone, Copy, PartialEq)]
pub struct OceanSurfaceUniform {
    /// Each tile's side, metres, four to a vector (the first [`Self::tiles`] used).
    pub tile_lengths: [Vec4; 2],
    /// The grid's north-west corner in the world (x, still level, z) and its cell size (w).
    pub corner: Vec4,
    /// The grid's cells along x and z, the rim fade (metres), and the drawn height scale.
    pub grid: Vec4,
    /// Tiles drawn.
    pub tiles: u32,
    /// The grid texture's channel holding the height (0 on the CPU, 3 on a GPU backend).
    pub grid_channel: u32,
    /// Keeps the block a multiple of 16 bytes.
    /// Where the grid's corner is in the sea's frame, metres (a [`crate::WaterFocus`] moves
    /// it; the sea's frame is the water's as it was made).
    pub grid_origin: Vec2,
    /// Foam: the sea's Jacobian below which it is drawn white (x; the water's
    /// [`water_scene::FoamSettings::jacobian_threshold`]), 1 to draw the sea's breaking crests
    /// (y), 1 to draw the grid's foam (z); w unused.
    pub foam: Vec4,
}

/// The drawn sea of a [`Water`] entity: spawned by the plugin on an entity of its own.
#[derive(Component, Debug, Clone)]
pub struct OceanSurface {
    /// The water it surrounds.
    pub water: Entity,
    /// The rings' shape.
    pub layout: RingLayout,
    /// Each ring's centre the mesh was built around (sea frame, metres): the mesh is rebuilt
    /// only when one moves.
    pub centres: Vec<Vec2>,
    /// The mesh.
    pub mesh: Handle<Mesh>,
    /// The sea's two field textures.
    pub textures: [Handle<Image>; 2],
    /// The material.
    pub material: Handle<OceanSurfaceMaterial>,
    /// The water step whose sea the textures hold.
    pub uploaded_step: Option<u64>,
}

/// Marks the entity whose position the sea's rings centre on; without one, the first
/// `Camera3d`.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OceanFocus;

/// The rings for a grid of `cell_size` metres: the finest at the cell size, as many rings as
/// reach [`OCEAN_REACH`].
#[must_use]
pub fn ocean_layout(cell_size: f32) -> RingLayout {
    let finest = OCEAN_HALF_QUADS as f32 * cell_size;
    let rings = (OCEAN_REACH / finest).log2().ceil().clamp(0.0, 16.0) as u32;
    RingLayout {
        finest_spacing: cell_size,
        half_quads: OCEAN_HALF_QUADS,
        rings,
        skirt: 16.0,
    }
}

/// A world point in the sea's frame (the water's z-up horizontal, from the grid's corner).
#[must_use]
pub fn sea_point(placement: &WaterPlacement, world: Vec3) -> Vec2 {
    let s = placement.to_scene(world);
    Vec2::new(s.x, -s.z)
}

/// The rings around `camera` (sea frame, metres) as a Bevy mesh in the world, relative to the
/// grid's corner at still level: vertex `(x, y)` of the sea at `(x, 0, -y)`. The uv holds each
/// vertex's pin (the half-length of the coarse edge a seam vertex sits on, 0 for the others)
/// and that edge's axis, which the shader reads to keep the seams closed.
#[must_use]
pub fn ocean_mesh(rings: &RingMesh) -> Mesh {
    let positions: Vec<[f32; 3]> = rings
        .vertices
        .iter()
        .map(|v| [v.position[0], 0.0, -v.position[1]])
        .collect();
    let pins: Vec<[f32; 2]> = rings.vertices.iter().map(|v| [v.pin, v.axis]).collect();
    // Bevy culls back faces: every triangle counter-clockwise seen from above. The sea's
    // (x, y, up) is the world's (x, up, -y), a rotation, so the sea frame's winding carries
    // over; the rings' own winding varies (the skirt's), so each triangle is put right here.
    let at = |i: u32| Vec2::from(rings.vertices[i as usize].position);
    let indices: Vec<u32> = rings
        .indices
        .chunks_exact(3)
        .flat_map(|t| {
            let (a, b, c) = (at(t[0]), at(t[1]), at(t[2]));
            if (b - a).perp_dot(c - a) < 0.0 {
                [t[0], t[2], t[1]]
            } else {
                [t[0], t[1], t[2]]
            }
        })
        .collect();
    flat_mesh(positions, pins, indices)
}

/// The sea's fields as the shader reads them: two `Rgba32Float` texel arrays, tile after tile
/// (array layers), `(Dx, Dy, h, dDx/dy)` and `(dh/dx, dh/dy, dDx/dx, dDy/dy)` per sample;
/// fields a plain sea does not make (the displacement's) are 0.
#[must_use]
pub fn sea_texels(frame: &SeaFrame) -> [Vec<f32>; 2] {
    let samples: usize = frame.tiles().iter().map(|t| t.cells * t.cells).sum();
    let mut texels = [
        Vec::with_capacity(4 * samples),
        Vec::with_capacity(4 * samples),
    ];
    for tile in frame.tiles() {
        let field = |f: SeaField, i: usize| tile.value(f, i).unwrap_or(0.0);
        for i in 0..tile.cells * tile.cells {
            texels[0].extend_from_slice(&[
                field(SeaField::DisplacementX, i),
                field(SeaField::DisplacementY, i),
                field(SeaField::Height, i),
                field(SeaField::DxDy, i),
            ]);
            texels[1].extend_from_slice(&[
                field(SeaField::SlopeX, i),
                field(SeaField::SlopeY, i),
                field(SeaField::DxDx, i),
                field(SeaField::DyDy, i),
            ]);
        }
    }
    texels
}

/// An `Rgba32Float` array texture of `layers` layers of `cells` x `cells` texels, read with
/// `textureLoad` (no sampler filtering).
fn field_texture(cells: u32, layers: u32) -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width: cells,
            height: cells,
            depth_or_array_layers: layers,
        },
        TextureDimension::D2,
        bytemuck::cast_slice(&[0.0f32; 4]),
        TextureFormat::Rgba32Float,
        RenderAssetUsages::default(),
    );
    // One layer would otherwise get a plain 2-D view, which the shader's array binding refuses.
    image.texture_view_descriptor = Some(TextureViewDescriptor {
        dimension: Some(TextureViewDimension::D2Array),
        ..default()
    });
    image.sampler = ImageSampler::nearest();
    image
}

/// Gives each water with an ambient sea its sea's mesh, textures and material, on an entity of
/// its own (the grid's own mesh is left out by [`crate::surface`]).
pub(crate) fn make_ocean_surfaces(
    mut commands: Commands,
    water: Query<(
        Entity,
        &Water,
        &WaterSimulation,
        &WaterSurface,
        Option<&WaterLook>,
    )>,
    made: Query<&OceanSurface>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<OceanSurfaceMaterial>>,
) {
    for (entity, water, simulation, surface, look) in &water {
        let Some(sea) = simulation.scene().ocean() else {
            continue;
        };
        if made.iter().any(|o| o.water == entity) {
            continue;
        }
        let tiles = sea.tiles();
        if tiles.len() > MAX_OCEAN_TILES {
            error!(
                "the sea of {entity} has {} tiles; its surface draws at most {MAX_OCEAN_TILES}",
                tiles.len()
            );
            continue;
        }
        let look = look.copied().unwrap_or_default();
        let placement = simulation.placement();
        let cells = tiles.first().map_or(1, |t| t.cells) as u32;
        let layers = tiles.len().max(1) as u32;
        let textures = [
            images.add(field_texture(cells, layers)),
            images.add(field_texture(cells, layers)),
        ];
        let mut lengths = [0.0f32; MAX_OCEAN_TILES];
        for (length, tile) in lengths.iter_mut().zip(tiles) {
            *length = tile.length as f32;
        }
        let material = materials.add(OceanSurfaceMaterial {
            base: look.standard_material(),
            extension: OceanSurfaceExtension {
                sea_displacement: textures[0].clone(),
                sea_slopes: textures[1].clone(),
                grid_heights: surface.heights.clone(),
                ocean: OceanSurfaceUniform {
                    tile_lengths: [
                        Vec4::from_slice(&lengths[..4]),
                        Vec4::from_slice(&lengths[4..]),
                    ],
                    corner: placement.corner.extend(placement.cell_size),
                    grid: Vec4::new(
                        water.width as f32,
                        water.height as f32,
                        RIM_FADE_CELLS * placement.cell_size,
                        look.height_scale,
                    ),
                    tiles: tiles.len() as u32,
                    // As the grid's own surface reads it: r on the CPU, w of the GPU's texels.
                    grid_channel: if water.backend.gpu().is_some() { 3 } else { 0 },
                    grid_origin: Vec2::ZERO,
                    foam: water.foam.map_or(Vec4::ZERO, |f| {
                        let sea = f.jacobian_threshold;
                        Vec4::new(
                            sea.unwrap_or(0.0),
                            f32::from(u8::from(sea.is_some())),
                            1.0,
                            0.0,
                        )
                    }),
                },
                grid_foam: surface.foam.clone(),
            },
        });
        let layout = ocean_layout(placement.cell_size);
        let rings = RingMesh::around(Vec2::ZERO, &layout);
        let mesh = meshes.add(ocean_mesh(&rings));
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            // Vertices are relative to the grid's corner at still level; the rings reach
            // kilometres, so the sea is never culled by its box.
            Transform::from_translation(placement.corner),
            bevy::camera::visibility::NoFrustumCulling,
            OceanSurface {
                water: entity,
                layout,
                centres: rings.centres,
                mesh,
                textures,
                material,
                uploaded_step: None,
            },
        ));
    }
}

/// Centres each sea's rings on the focus ([`OceanFocus`], else the first `Camera3d`),
/// rebuilding the mesh only when a ring's centre moves, and uploads the sea of the water's
/// current step once a step.
pub(crate) fn update_ocean_surfaces(
    mut oceans: Query<&mut OceanSurface>,
    mut water: Query<&mut WaterSimulation>,
    focus: Query<&GlobalTransform, With<OceanFocus>>,
    cameras: Query<&GlobalTransform, With<Camera3d>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<OceanSurfaceMaterial>>,
) {
    let eye = focus
        .iter()
        .next()
        .or_else(|| cameras.iter().next())
        .map(GlobalTransform::translation);
    for mut ocean in &mut oceans {
        let Ok(mut simulation) = water.get_mut(ocean.water) else {
            continue;
        };
        let placement = simulation.placement();
        // The grid's corner in the sea's frame, where a focus took it.
        let origin = simulation.scene().window_origin().as_vec2();
        let moved = materials
            .get(&ocean.material)
            .is_some_and(|m| m.extension.ocean.grid_origin != origin);
        if moved {
            if let Some(mut material) = materials.get_mut(&ocean.material) {
                material.extension.ocean.grid_origin = origin;
            }
        }
        if let Some(eye) = eye {
            let camera = sea_point(&placement, eye);
            let units = camera.abs().max_element() / ocean.layout.finest_spacing;
            let centres = level_centres(camera, &ocean.layout);
            if units > MAX_CAMERA_UNITS {
                warn_once!(
                    "the camera is {camera} m from the water's corner, past the {MAX_CAMERA_UNITS} \
                     cells where the sea's mesh stays exact: the sea is not moved"
                );
            } else if centres != ocean.centres {
                let rings = RingMesh::around(camera, &ocean.layout);
                if let Err(e) = meshes.insert(&ocean.mesh, ocean_mesh(&rings)) {
                    error!("the sea's mesh: {e}");
                }
                ocean.centres = rings.centres;
            }
        }
        let step = simulation.scene().steps_taken();
        if ocean.uploaded_step == Some(step) {
            continue;
        }
        let Some(frame) = simulation.scene_mut().sea_frame_at(step) else {
            continue;
        };
        for (handle, texels) in ocean.textures.iter().zip(sea_texels(&frame)) {
            if let Some(mut image) = images.get_mut(handle) {
                write_texels(&mut image, bytemuck::cast_slice(&texels));
            }
        }
        ocean.uploaded_step = Some(step);
    }
}

impl MaterialExtension for OceanSurfaceExtension {
    fn vertex_shader() -> ShaderRef {
        ShaderRef::Handle(OCEAN_SURFACE_SHADER)
    }

    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(OCEAN_SURFACE_SHADER)
    }

    // As the grid's surface: the prepass and shadow passes would draw the flat mesh.
    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::mesh::Indices;
    use water_scene::water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};

    fn swell(choppiness: f64) -> AmbientSea {
        let spec = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 6.0 })
            .with_direction(30.0)
            .with_choppiness(choppiness)
            .with_seed(3);
        AmbientSea::new(&spec, 0.2).expect("sea")
    }

    /// The texels hold each tile's samples of the frame in the order the shader reads them;
    /// a plain sea's displacement is 0.
    #[test]
    fn the_textures_hold_the_frames_own_samples() {
        for choppiness in [0.0, 0.8] {
            let frame = swell(choppiness).frame(3.5);
            let [a, b] = sea_texels(&frame);
            let tile = &frame.tiles()[1];
            let base = tile.cells * tile.cells;
            let i = 517;
            let texel = |t: &[f32], k: usize| t[4 * (base + i) + k];
            let sample = |f: SeaField| tile.value(f, i).expect("synthesised");
            assert_eq!(texel(&a, 2), sample(SeaField::Height));
            assert_eq!(texel(&b, 0), sample(SeaField::SlopeX));
            assert_eq!(texel(&b, 1), sample(SeaField::SlopeY));
            if choppiness > 0.0 {
                assert_eq!(texel(&a, 0), sample(SeaField::DisplacementX));
                assert_eq!(texel(&b, 3), sample(SeaField::DyDy));
                assert_ne!(texel(&a, 0), 0.0);
            } else {
                assert_eq!([texel(&a, 0), texel(&a, 1)], [0.0, 0.0]);
            }
            assert_eq!(a.len(), 4 * base * frame.tiles().len());
        }
    }

    /// The rings reach the horizon from the grid's cell size, their mesh faces up in the
    /// world, and moving the camera a kilometre moves the finest square with it.
    #[test]
    fn the_rings_face_up_reach_far_and_follow_the_camera() {
        let layout = ocean_layout(0.1);
        assert!(layout.reach() >= OCEAN_REACH, "{}", layout.reach());
        let rings = RingMesh::around(Vec2::ZERO, &layout);
        let mesh = ocean_mesh(&rings);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions");
        };
        let Some(Indices::U32(indices)) = mesh.indices() else {
            panic!("indices");
        };
        for t in indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(p[t[k] as usize]));
            let up = (b - a).cross(c - a).y;
            assert!(up > 0.0, "a triangle faces down: {a} {b} {c}");
        }
        let far = Vec2::new(1000.0, -250.0);
        let moved = RingMesh::around(far, &layout);
        assert!((moved.centres[0] - far).length() <= 2.0 * layout.finest_spacing);
        assert_ne!(level_centres(far, &layout), rings.centres);
    }

    /// A world point's sea coordinates: x along x, y along -z, from the grid's corner.
    #[test]
    fn world_points_map_to_the_seas_frame() {
        let placement = WaterPlacement::centred(Vec3::new(10.0, 2.0, -4.0), 0.5, 8, 4);
        assert_eq!(sea_point(&placement, placement.corner), Vec2::ZERO);
        assert_eq!(
            sea_point(&placement, placement.corner + Vec3::new(3.0, 5.0, -2.0)),
            Vec2::new(3.0, 2.0)
        );
    }
}
