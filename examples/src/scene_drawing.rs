//! What the grid renderer needs from a [`Scene`] on the GPU to draw one frame: the water's
//! surface, the mask that hides the waves inside hulls, and every body's hull meshes where the
//! bodies are now. The boat's wake and the demo's pool draw their scenes through this.

use glam::{Affine3A, Vec3};
use water_gpu::{ContactMaskRenderer, GpuError};
use water_render::BodyDraw;
use water_scene::water_gpu::GpuGridWater;
use water_scene::Scene;

/// One frame's view of a scene, for [`water_render::GridSurfaceRenderer::encode`].
#[derive(Debug)]
pub struct SceneDrawing<'a> {
    /// The water's surface texture, updated to the last step.
    pub surface: wgpu::TextureView,
    /// Where hulls cut the water at the last step (the water inside them is not drawn); `None`
    /// without bodies or without GPU masks.
    pub hull_mask: Option<&'a wgpu::TextureView>,
    /// Every body's hulls, in the order the bodies were added.
    pub bodies: Vec<BodyDraw<'a>>,
}

/// Updates `scene`'s surface and gathers what drawing it takes, each body in `colour(index)`
/// (linear RGB; the index counts bodies in the order they were added). Bodies are drawn from
/// the hull meshes the scene's GPU masks uploaded, so a scene with CPU masks has none to draw.
///
/// # Errors
/// [`GpuError::NotOnGpu`] for a scene whose water is on the CPU; a lost device.
pub fn scene_drawing(
    scene: &mut Scene,
    colour: impl Fn(usize) -> Vec3,
) -> Result<SceneDrawing<'_>, GpuError> {
    let surface = scene
        .gpu_water_to_read()
        .ok_or(GpuError::NotOnGpu {
            operation: "drawing a scene",
        })?
        .update_normal_height()?
        .clone();
    let scene: &Scene = scene;
    let hull_mask = scene
        .gpu_masks()
        .filter(|_| scene.body_count() > 0)
        .map(ContactMaskRenderer::new_view);
    let bodies = scene
        .gpu_hull_meshes()
        .enumerate()
        .flat_map(|(index, (body, meshes))| {
            let body_pose = body.body.state.pose;
            let colour = colour(index);
            body.hulls.iter().zip(meshes).map(move |(hull, mesh)| {
                let pose = hull.world_pose(&body_pose);
                BodyDraw {
                    mesh,
                    transform: Affine3A::from_rotation_translation(pose.orientation, pose.position),
                    colour,
                }
            })
        })
        .collect();
    Ok(SceneDrawing {
        surface,
        hull_mask,
        bodies,
    })
}
