//! # water-render
//!
//! Drawing the water on the caller's device: grid water as a lit, displaced mesh
//! ([`GridSurfaceRenderer`]), the classic 2-D look of Hugo Elias's ripple ([`ClassicRenderer`]),
//! sphere water as the displaced icosphere ([`SphereSurfaceRenderer`]), and the sea to the
//! horizon around the camera ([`OceanSurfaceRenderer`]). Their shaders share one way of lighting
//! water (Fresnel, the sky's gradient, the heights view's colours):
//! `shaders/shared/water_light.wgsl`.
//!
//! Each renderer draws into the caller's targets (a window's surface texture or an
//! [`OffscreenTarget`]) from the textures and buffers the steppers already hold, so a frame
//! needs no readback. [`OffscreenTarget::read`] gives the picture back for headless renders and
//! tests.

mod body_renderer;
mod camera;
mod cell_texture;
mod classic_shading;
mod cpu_surface;
mod foam_texture;
mod frame_target;
mod grid_surface;
mod hull_mask;
mod image_files;
mod ocean_surface;
mod offscreen;
mod picture_blit;
pub mod picture_check;
mod render_pipeline;
mod rgba_image;
mod sphere_surface;
mod uniforms;

use glam::Vec3;

pub use body_renderer::BodyDraw;
pub use camera::Camera;
pub use classic_shading::{shade_classic, ClassicRenderer, ClassicShading};
pub use cpu_surface::CpuSurfaceTexture;
pub use foam_texture::FoamTexture;
pub use frame_target::FrameTarget;
pub use grid_surface::{GridSurfaceRenderer, GridSurfaceStyle, MAX_MESH_QUADS};
pub use hull_mask::HullMaskTexture;
pub use image_files::{read_rgba_png, write_gif, write_png, write_rgba_png, GifStream};
pub use ocean_surface::{
    InteractiveGrid, OceanSurfaceRenderer, OceanSurfaceStyle, SurroundingWater, MAX_DRAWN_TILES,
};
pub use offscreen::OffscreenTarget;
pub use picture_blit::PictureBlit;
pub use rgba_image::RgbaImage;
pub use sphere_surface::{SphereSurfaceRenderer, SphereSurfaceStyle, SurfaceVertex};
/// The wgpu the renderers speak (water-gpu's).
pub use water_gpu::wgpu;
/// The sea's level-of-detail mesh, water-gpu's so that engines drawing the sea themselves
/// (the Bevy plugin) share it without this crate.
pub use water_gpu::{
    level_centres, RingLayout, RingMesh, RingVertex, MAX_CAMERA_UNITS, MAX_HALF_QUADS, MAX_RINGS,
};

use water_core::GridSize;
use water_gpu::GpuError;

/// Depth format the 3-D renderers draw with.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// What the pixels of a 3-D surface show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SurfaceView {
    /// Lit water: reflected sky, sun highlight and, on grids, the refracted floor.
    #[default]
    Lit,
    /// The unit normal as colour, `n * 0.5 + 0.5` (for checking and debugging).
    Normals,
    /// The drawn height on a diverging colour map, +-1 height scale at the ends.
    Heights,
}

impl SurfaceView {
    /// Code of the view in the shaders.
    pub(crate) fn code(self) -> u32 {
        match self {
            SurfaceView::Lit => 0,
            SurfaceView::Normals => 1,
            SurfaceView::Heights => 2,
        }
    }
}

pub(crate) fn check_positive(what: &'static str, value: f32) -> Result<(), GpuError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(GpuError::BadRenderSetting {
            what,
            value: value.to_string(),
            requirement: "finite and > 0",
        })
    }
}

pub(crate) fn check_finite(what: &'static str, value: f32) -> Result<(), GpuError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(GpuError::BadRenderSetting {
            what,
            value: value.to_string(),
            requirement: "finite",
        })
    }
}

pub(crate) fn check_non_negative(what: &'static str, value: f32) -> Result<(), GpuError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(GpuError::BadRenderSetting {
            what,
            value: value.to_string(),
            requirement: "finite and >= 0",
        })
    }
}

/// `Ok` when `ok`, else [`GpuError::BadRenderSetting`] naming the setting, its value and the
/// requirement.
pub(crate) fn setting(
    ok: bool,
    what: &'static str,
    value: impl std::fmt::Display,
    requirement: &'static str,
) -> Result<(), GpuError> {
    if ok {
        Ok(())
    } else {
        Err(GpuError::BadRenderSetting {
            what,
            value: value.to_string(),
            requirement,
        })
    }
}

/// `Ok` when `view`'s texture has one texel per cell of a grid of `size` (the grid's surface,
/// foam or hull mask), else [`GpuError::BadRenderSetting`] naming `what` and the texture's size.
pub(crate) fn check_grid_texture(
    what: &'static str,
    view: &wgpu::TextureView,
    size: GridSize,
) -> Result<(), GpuError> {
    let t = view.texture();
    setting(
        (t.width(), t.height()) == (size.width() as u32, size.height() as u32),
        what,
        format!("{}x{}", t.width(), t.height()),
        "the grid's size in cells",
    )
}

pub(crate) fn check_direction(what: &'static str, direction: Vec3) -> Result<(), GpuError> {
    let ok = direction.is_finite() && direction.length() > 1e-6;
    setting(ok, what, direction, "finite and not zero")
}

pub(crate) fn check_range(
    what: &'static str,
    value: u32,
    min: u32,
    max: u32,
    requirement: &'static str,
) -> Result<(), GpuError> {
    setting((min..=max).contains(&value), what, value, requirement)
}

pub(crate) fn check_colour(what: &'static str, colour: Vec3) -> Result<(), GpuError> {
    let ok = colour.is_finite() && colour.min_element() >= 0.0 && colour.max_element() <= 1.0;
    setting(ok, what, colour, "RGB within [0, 1]")
}
