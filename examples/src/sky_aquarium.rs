//! The sky aquarium: a small planet of water, clicked three times; the rings run round it and
//! meet on the far side. Laplace-Beltrami waves on the GPU, drawn as the displaced icosphere.

use glam::Vec3;
use water_core::Damping;
use water_gpu::GpuSphereWater;
use water_gpu::{GpuBackend, GpuContext, GpuSphere};
use water_render::{Camera, RgbaImage, SphereSurfaceRenderer, SphereSurfaceStyle};
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};

use crate::frames::{draw_frame, frame_target};
use crate::{ExampleError, SceneOptions};

/// 320 x 240 pixels, 48 frames of 12 steps on a level-4 icosphere (2562 vertices).
pub const DEFAULTS: SceneOptions = SceneOptions {
    width: 320,
    height: 240,
    frames: 48,
    steps_per_frame: 12,
    quality: 4,
};

/// Planet radius, metres.
const RADIUS: f32 = 1.0;

/// Drawn metres per metre of wave: clicks of a few centimetres on a metre-sized planet.
const HEIGHT_SCALE: f32 = 1.5;

/// The frames of the scene.
///
/// # Errors
/// GPU failures; a level the icosphere refuses.
pub fn clicked_planet(
    gpu: &GpuContext,
    options: &SceneOptions,
) -> Result<Vec<RgbaImage>, ExampleError> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let sphere = Icosphere::new(options.quality, RADIUS)?;
    let stepper = SphereStepper::LaplaceBeltrami {
        wave_speed: 0.5,
        dt: 0.01,
    };
    let cpu = SphereWater::new(sphere.clone(), stepper, Damping::PerSecond(0.9))?;
    let mut water = GpuSphere::new(GpuBackend::Compute, device, queue, &cpu)?;
    let target = frame_target(gpu, options)?;
    let mut renderer = SphereSurfaceRenderer::new(
        device,
        queue,
        target.format(),
        &sphere,
        SphereSurfaceStyle {
            height_scale: HEIGHT_SCALE,
            ..SphereSurfaceStyle::default()
        },
    )?;
    let camera = Camera::orbit(Vec3::ZERO, 3.4 * RADIUS, 0.6, 0.45, options.aspect());
    // Where and when the clicks land: the frame, the direction from the centre, the cap's
    // angular radius (rad) and its height (m).
    let clicks = [
        (0, Vec3::new(0.3, -1.0, 0.6), 0.35, 0.05),
        (options.frames / 3, Vec3::new(1.0, 0.2, 0.1), 0.25, 0.04),
        (
            2 * options.frames / 3,
            Vec3::new(-0.4, -0.6, -0.5),
            0.3,
            -0.04,
        ),
    ];
    let mut frames = Vec::with_capacity(options.frames as usize);
    for frame in 0..options.frames {
        for &(at, direction, radius, amplitude) in &clicks {
            if at == frame {
                water.add_impulse(&SphereImpulse::new(direction, radius, amplitude)?)?;
            }
        }
        water.step_many(u64::from(options.steps_per_frame))?;
        frames.push(draw_frame(gpu, &target, |encoder| {
            renderer.encode(
                encoder,
                target.frame(Vec3::new(0.01, 0.01, 0.03)),
                &camera,
                &water,
            )
        })?);
    }
    Ok(frames)
}
