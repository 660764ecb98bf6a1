//! The sphere scene: water on an icosphere, stepped on the GPU with the original demo's
//! neighbour-mean stepper and drawn as the displaced sphere, its waves exaggerated.

use glam::Vec3;
use water_core::{Damping, FixedStepClock};
use water_gpu::GpuSphereWater;
use water_gpu::{GpuBackend, GpuSphere};
use water_render::{OffscreenTarget, SphereSurfaceRenderer, SphereSurfaceStyle};
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};

use crate::error::DemoError;
use crate::grid_scene::MAX_STEPS_PER_FRAME;
use crate::orbit::Orbit;
use crate::picking::{hit_sphere, Ray};
use crate::quality::Quality;
use crate::timing::StepReport;

/// Radius of the planet, metres.
const RADIUS_M: f32 = 1.0;

/// The original demo's stepper and coefficient: well inside the stable range at every level.
const STEPPER: SphereStepper = SphereStepper::Mean { a: 0.5 };

/// Steps a second at icosphere level 5. A wave moves about one edge a step, and each level
/// halves the edges, so each level doubles this to keep waves crossing the sphere at the same
/// speed (about 2 s to go half way round).
const STEPS_PER_SECOND_AT_LEVEL_5: f64 = 60.0;

/// Fraction of a wave's amplitude that survives one second, at every level.
const SURVIVING_PER_SECOND: f64 = 0.8;

/// Geodesic radius of a click, radians (about a tenth of the way round).
const CLICK_RADIUS_RAD: f32 = 0.2;

/// Peak height of a click, metres.
const CLICK_AMPLITUDE_M: f32 = 0.03;

/// Drawn metres per metre of height: waves a few centimetres high on a 1 m planet would not
/// show at their true size.
const HEIGHT_SCALE: f32 = 2.5;

/// Background, linear RGB: night sky.
const SPACE: Vec3 = Vec3::new(0.015, 0.02, 0.045);

/// The planet's water and its camera.
#[derive(Debug)]
pub struct SphereScene {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    quality: Quality,
    water: GpuSphere,
    renderer: SphereSurfaceRenderer,
    clock: FixedStepClock,
    /// The camera.
    pub orbit: Orbit,
}

impl SphereScene {
    /// Still water on an icosphere of `quality`'s level, drawn into targets of `format`.
    ///
    /// # Errors
    /// GPU failures; sphere parameters (never for the demo's constants).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        quality: Quality,
    ) -> Result<Self, DemoError> {
        let (water, renderer, clock) = build(device, queue, format, quality)?;
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            format,
            quality,
            water,
            renderer,
            clock,
            orbit: Orbit {
                target: Vec3::ZERO,
                distance: 3.2 * RADIUS_M,
                yaw: 0.6,
                pitch: 0.45,
                distance_range: (1.6 * RADIUS_M, 10.0 * RADIUS_M),
            },
        })
    }

    /// The resolution now.
    #[must_use]
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// `sphere level 5, 10242 vertices`.
    #[must_use]
    pub fn describe(&self) -> String {
        let level = self.quality.sphere_level();
        format!(
            "sphere level {level}, {} vertices",
            water_sphere::vertex_count(level)
        )
    }

    /// New still water at `quality`.
    ///
    /// # Errors
    /// As [`SphereScene::new`].
    pub fn set_quality(&mut self, quality: Quality) -> Result<(), DemoError> {
        (self.water, self.renderer, self.clock) =
            build(&self.device, &self.queue, self.format, quality)?;
        self.quality = quality;
        Ok(())
    }

    /// Still water.
    ///
    /// # Errors
    /// As [`SphereScene::new`].
    pub fn reset(&mut self) -> Result<(), DemoError> {
        self.set_quality(self.quality)
    }

    /// A click, `strength` times the full one, where `ray` meets the sphere. Returns whether it
    /// met it.
    ///
    /// # Errors
    /// A lost device.
    pub fn click(&mut self, ray: &Ray, strength: f32) -> Result<bool, DemoError> {
        let Some(hit) = hit_sphere(ray, RADIUS_M) else {
            return Ok(false);
        };
        let click = SphereImpulse::new(hit, CLICK_RADIUS_RAD, CLICK_AMPLITUDE_M * strength)?;
        self.water.add_impulse(&click)?;
        Ok(true)
    }

    /// Runs the fixed steps `frame_seconds` of wall time owe.
    ///
    /// # Errors
    /// A lost device.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<StepReport, DemoError> {
        let frame = self.clock.advance(frame_seconds)?;
        StepReport::time(frame, &self.device, |steps| {
            Ok(self.water.step_many(u64::from(steps))?)
        })
    }

    /// Records this frame's picture into `target` (cleared to space first), the planet seen
    /// through the orbit camera.
    ///
    /// # Errors
    /// A pass the device refuses.
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &OffscreenTarget,
    ) -> Result<(), DemoError> {
        let frame = target.frame(SPACE);
        let camera = self.orbit.camera_for(target);
        self.renderer.encode(encoder, frame, &camera, &self.water)?;
        Ok(())
    }
}

/// The water, its renderer and its clock for `quality`.
fn build(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    format: wgpu::TextureFormat,
    quality: Quality,
) -> Result<(GpuSphere, SphereSurfaceRenderer, FixedStepClock), DemoError> {
    let level = quality.sphere_level();
    let steps_per_second = STEPS_PER_SECOND_AT_LEVEL_5 * 2f64.powi(level as i32 - 5);
    let dt = 1.0 / steps_per_second;
    // The neighbour-mean step has no duration of its own, so damping per second is turned into
    // the per-step factor here.
    let damping = Damping::PerStep(Damping::PerSecond(SURVIVING_PER_SECOND).per_step_factor(dt));
    let water = SphereWater::new(Icosphere::new(level, RADIUS_M)?, STEPPER, damping)?;
    let gpu_water = GpuSphere::new(GpuBackend::Compute, device, queue, &water)?;
    let style = SphereSurfaceStyle {
        height_scale: HEIGHT_SCALE,
        ..SphereSurfaceStyle::default()
    };
    let renderer = SphereSurfaceRenderer::new(device, queue, format, water.sphere(), style)?;
    let clock = FixedStepClock::new(dt)?.with_max_steps_per_frame(MAX_STEPS_PER_FRAME)?;
    Ok((gpu_water, renderer, clock))
}
