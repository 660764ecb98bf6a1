//! The WGSL sources, embedded from the workspace's `shaders/` folder. Each file holds one kernel
//! named like the CPU function it mirrors; the pieces kernels share are `#import`ed from
//! `shaders/shared/` ([`crate::wgsl_import`]) when a pipeline is made, and [`composed`] gives the
//! whole source a device sees.

pub use crate::wgsl_import::compose as composed;

/// `grid_step`: signed and split steps, every boundary, contacts and land (compute).
pub const GRID_STEP: &str = include_str!("../../../shaders/grid_step.wgsl");
/// `grid_step_fused`: several signed/split steps per dispatch in workgroup memory (compute).
pub const GRID_STEP_FUSED: &str = include_str!("../../../shaders/grid_step_fused.wgsl");
/// `grid_step` over f16 storage (two cells per `u32` word, arithmetic in f32; compute).
pub const GRID_STEP_F16: &str = include_str!("../../../shaders/grid_step_f16.wgsl");
/// `grid_step_fused` over f16 storage (compute).
pub const GRID_STEP_FUSED_F16: &str = include_str!("../../../shaders/grid_step_fused_f16.wgsl");
/// `spectral_step`: the dispersive model's step, FFTs of rows and columns in workgroup memory
/// (compute; entry points `rows_forward`, `columns_nodes`, `rows_finish`, and over a depth map
/// `depth_rows_forward`, `depth_rows_nodes`, `depth_finish`).
pub const SPECTRAL_STEP: &str = include_str!("../../../shaders/spectral_step.wgsl");
/// `ocean_synthesis`: the ambient sea's tiles at one time by inverse FFT, packed into textures
/// (compute; `ocean_spectrum`, `ocean_rows`, `ocean_columns`, `ocean_pack`).
pub const OCEAN_SYNTHESIS: &str = include_str!("../../../shaders/ocean_synthesis.wgsl");
/// `mean_level`: the mean-level keeper's sums and uniform shift (compute; `level_sums` and
/// `shift_level` for f32 storage, `level_sums_f16` and `shift_level_f16` for f16).
pub const MEAN_LEVEL: &str = include_str!("../../../shaders/mean_level.wgsl");
/// `classic_step`: Hugo Elias's ripple in integer arithmetic (compute).
pub const CLASSIC_STEP: &str = include_str!("../../../shaders/classic_step.wgsl");
/// `add_impulse`: adds host-computed impulse amounts (compute; `main` for f32 fields,
/// `main_classic` for the classic i16 field).
pub const ADD_IMPULSE: &str = include_str!("../../../shaders/add_impulse.wgsl");
/// `add_impulse` over f16 storage: host-computed amounts grouped by word (compute).
pub const ADD_IMPULSE_F16: &str = include_str!("../../../shaders/add_impulse_f16.wgsl");
/// `grid_step` as a full-screen render pass (fragment backend).
pub const GRID_STEP_FRAGMENT: &str = include_str!("../../../shaders/grid_step_fragment.wgsl");
/// `classic_step` as a full-screen render pass (fragment backend).
pub const CLASSIC_STEP_FRAGMENT: &str = include_str!("../../../shaders/classic_step_fragment.wgsl");
/// `shift_window`: moves a level by whole cells into another buffer, a fixed rim held at 0
/// (compute; every storage format's words).
pub const SHIFT_WINDOW: &str = include_str!("../../../shaders/shift_window.wgsl");
/// `relax_toward`: the cascades' hand-over, a coarse grid's two levels relaxed toward the
/// finer grid inside it (compute; f32 cells).
pub const RELAX_TOWARD: &str = include_str!("../../../shaders/relax_toward.wgsl");
/// `add_impulse` as a full-screen render pass adding a delta texture (fragment backend).
pub const ADD_IMPULSE_FRAGMENT: &str = include_str!("../../../shaders/add_impulse_fragment.wgsl");

/// `surface_normals`: normals and heights for rendering (one compute entry point for f32, f16
/// and classic fields; fragment entry points).
pub const SURFACE_NORMALS: &str = include_str!("../../../shaders/surface_normals.wgsl");
/// `gather_patches`: rectangles of the surface texture's heights packed into one buffer, for
/// reading back only the water bodies and queries need (compute).
pub const GATHER_PATCHES: &str = include_str!("../../../shaders/gather_patches.wgsl");
/// `surface_filterable`: the surface texture copied into a filterable `Rgba16Float` texture
/// (full-screen pass).
pub const SURFACE_FILTERABLE: &str = include_str!("../../../shaders/surface_filterable.wgsl");

/// `sphere_step`: sphere water over six neighbour slots per vertex (compute).
pub const SPHERE_STEP: &str = include_str!("../../../shaders/sphere_step.wgsl");
/// `sphere_step` as a full-screen render pass over vertices laid out in a 2-D texture (fragment
/// backend).
pub const SPHERE_STEP_FRAGMENT: &str = include_str!("../../../shaders/sphere_step_fragment.wgsl");

/// `rasterise_grid_mask`: contact masks drawn from hull meshes by a camera under the water
/// (vertex and fragment entry points), and `copy_to_buffer` for the compute backend's buffers.
pub const RASTERISE_GRID_MASK: &str = include_str!("../../../shaders/rasterise_grid_mask.wgsl");

/// `render_grid_surface`: grid water as a displaced, lit mesh (vertex and fragment).
pub const RENDER_GRID_SURFACE: &str = include_str!("../../../shaders/render_grid_surface.wgsl");
/// `render_bodies`: floating bodies' hull meshes, flat shaded (vertex and fragment).
pub const RENDER_BODIES: &str = include_str!("../../../shaders/render_bodies.wgsl");
/// `render_ocean_surface`: the sea to the horizon over a sky (vertex and fragment).
pub const RENDER_OCEAN_SURFACE: &str = include_str!("../../../shaders/render_ocean_surface.wgsl");
/// `shaders/shared/sea_taps.wgsl`: the ambient sea's Catmull-Rom reads, a shared module
/// (`#import sea_taps`) that other renderers (the Bevy plugin's sea) take in too.
pub const SEA_TAPS: &str = include_str!("../../../shaders/shared/sea_taps.wgsl");
/// `shade_classic`: Hugo Elias's 2-D look of the classic field (full-screen pass).
pub const SHADE_CLASSIC: &str = include_str!("../../../shaders/shade_classic.wgsl");
/// `render_sphere_surface`: displaced icosphere vertices with area-weighted normals (compute)
/// and their drawing (vertex and fragment).
pub const RENDER_SPHERE_SURFACE: &str = include_str!("../../../shaders/render_sphere_surface.wgsl");
/// `blit_picture`: a picture copied pixel for pixel onto a target of another format (a
/// window), full-screen pass.
pub const BLIT_PICTURE: &str = include_str!("../../../shaders/blit_picture.wgsl");

/// Every shader the crate embeds, by file name.
pub const ALL: &[(&str, &str)] = &[
    ("grid_step.wgsl", GRID_STEP),
    ("grid_step_fused.wgsl", GRID_STEP_FUSED),
    ("grid_step_f16.wgsl", GRID_STEP_F16),
    ("grid_step_fused_f16.wgsl", GRID_STEP_FUSED_F16),
    ("spectral_step.wgsl", SPECTRAL_STEP),
    ("mean_level.wgsl", MEAN_LEVEL),
    ("ocean_synthesis.wgsl", OCEAN_SYNTHESIS),
    ("classic_step.wgsl", CLASSIC_STEP),
    ("add_impulse.wgsl", ADD_IMPULSE),
    ("add_impulse_f16.wgsl", ADD_IMPULSE_F16),
    ("grid_step_fragment.wgsl", GRID_STEP_FRAGMENT),
    ("classic_step_fragment.wgsl", CLASSIC_STEP_FRAGMENT),
    ("add_impulse_fragment.wgsl", ADD_IMPULSE_FRAGMENT),
    ("shift_window.wgsl", SHIFT_WINDOW),
    ("relax_toward.wgsl", RELAX_TOWARD),
    ("surface_normals.wgsl", SURFACE_NORMALS),
    ("surface_filterable.wgsl", SURFACE_FILTERABLE),
    ("gather_patches.wgsl", GATHER_PATCHES),
    ("sphere_step.wgsl", SPHERE_STEP),
    ("sphere_step_fragment.wgsl", SPHERE_STEP_FRAGMENT),
    ("rasterise_grid_mask.wgsl", RASTERISE_GRID_MASK),
    ("render_grid_surface.wgsl", RENDER_GRID_SURFACE),
    ("render_bodies.wgsl", RENDER_BODIES),
    ("render_ocean_surface.wgsl", RENDER_OCEAN_SURFACE),
    ("shade_classic.wgsl", SHADE_CLASSIC),
    ("render_sphere_surface.wgsl", RENDER_SPHERE_SURFACE),
    ("blit_picture.wgsl", BLIT_PICTURE),
];
