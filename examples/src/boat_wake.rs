//! A boat's wake among floating crates: split-mode grid water (the bow's positive and the
//! stern's negative waves in their own channels, as the demo drew them), a towed boat and two
//! free crates floating by Archimedes' principle. The crates read the water from a GPU snapshot,
//! the hulls' contact masks are drawn on the GPU and make the wake there.

use glam::{Affine3A, Quat, Vec3};
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape,
    Wrench,
};
use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::render::{
    BodyDraw, Camera, GridSurfaceRenderer, GridSurfaceStyle, OffscreenTarget, RgbaImage,
};
use water_gpu::{
    ContactHull, ContactMaskRenderer, GpuBackend, GpuContext, GpuGrid, GridSpec, HullMesh,
};

use crate::{ExampleError, SceneOptions};

/// 320 x 200 pixels, 48 frames of 6 steps over a 12.8 m x 8 m bay in 256 x 160 cells.
pub const DEFAULTS: SceneOptions = SceneOptions {
    width: 320,
    height: 200,
    frames: 48,
    steps_per_frame: 6,
    quality: 256,
};

/// The bay, metres.
const BAY: (f32, f32) = (12.8, 8.0);
/// Time step, seconds.
const DT: f32 = 0.02;
/// Wave height per unit of hull speed, metres per (m/s).
const WAKE_AMPLITUDE: f32 = 0.02;
/// Fresh water, kg/m^3.
const DENSITY: f32 = 1000.0;
/// The boat's towing speed, m/s, along +x from x = 1.5 m.
const BOAT_SPEED: f32 = 0.8;
/// Drawn metres per metre of wave.
const HEIGHT_SCALE: f32 = 6.0;

/// A box body of full size `size` (m) and `mass` (kg) at `position`, turned `yaw` (rad) about z,
/// with drag rates per unit mass as the scenario files use.
fn crate_body(
    size: Vec3,
    mass: f32,
    position: Vec3,
    yaw: f32,
) -> Result<FloatingBody, ExampleError> {
    let shape = Shape::cuboid(size * 0.5)?;
    let pose = Pose::new(position, Quat::from_rotation_z(yaw))?;
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose))?;
    let smallest_moment = {
        let m = body.inertia();
        m.x_axis.x.min(m.y_axis.y).min(m.z_axis.z)
    };
    let archimedes =
        Archimedes::new(DENSITY)?.with_drag(4.0 * mass, 0.5 * mass, 4.0 * smallest_moment)?;
    Ok(FloatingBody {
        body,
        hulls: vec![Hull::new(shape, Pose::IDENTITY)?],
        model: BuoyancyModel::Archimedes(archimedes),
    })
}

/// The frames of the scene.
///
/// # Errors
/// GPU failures; forces that stop being finite.
pub fn boat_and_crates(
    gpu: &GpuContext,
    options: &SceneOptions,
) -> Result<Vec<RgbaImage>, ExampleError> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let width = options.quality as usize;
    let size = GridSize::new(width, width * 5 / 8)?;
    let cell = BAY.0 / width as f32;
    let damping = Damping::PerSecond(0.9);
    let params = WaveParams::new(f64::from(cell), 1.2, f64::from(DT), damping)?;
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Split);
    let mut bay = GpuGrid::new(GpuBackend::Compute, device, queue, spec)?;
    let mut masks = ContactMaskRenderer::new(device, queue, size, cell, GpuBackend::Compute)?;

    let mut bodies = vec![
        crate_body(
            Vec3::new(1.0, 0.4, 0.3),
            48.0,
            Vec3::new(1.5, 4.0, 0.05),
            0.0,
        )?,
        crate_body(
            Vec3::new(0.4, 0.4, 0.2),
            12.0,
            Vec3::new(5.0, 4.9, 0.05),
            0.5,
        )?,
        crate_body(
            Vec3::new(0.4, 0.4, 0.2),
            12.0,
            Vec3::new(7.5, 3.1, 0.05),
            0.0,
        )?,
    ];
    let colours = [
        Vec3::new(0.75, 0.12, 0.08),
        Vec3::new(0.55, 0.33, 0.12),
        Vec3::new(0.55, 0.33, 0.12),
    ];
    let meshes = bodies
        .iter()
        .map(|b| {
            let surface = b.hulls[0].surface();
            HullMesh::new(device, &surface.vertices, &surface.triangles)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let transform = |body: &FloatingBody| {
        let pose = body.hulls[0].world_pose(&body.body.state.pose);
        Affine3A::from_rotation_translation(pose.orientation, pose.position)
    };

    let target = OffscreenTarget::new(
        device,
        queue,
        options.width,
        options.height,
        wgpu::TextureFormat::Rgba8UnormSrgb,
    )?;
    let style = GridSurfaceStyle {
        mesh_quads: (width as u32).min(512),
        height_scale: HEIGHT_SCALE,
        floor_depth: 1.2,
        floor_tile: 2.5,
        absorption: 1.0,
        ..GridSurfaceStyle::default()
    };
    let mut renderer = GridSurfaceRenderer::new(device, queue, target.format(), size, cell, style)?;
    let camera = Camera::orbit(
        Vec3::new(BAY.0 * 0.5, BAY.1 * 0.5, 0.0),
        9.5,
        0.3,
        0.8,
        options.width as f32 / options.height as f32,
    );

    let gravity = Gravity::EARTH;
    let mut step = 0u32;
    let mut frames = Vec::with_capacity(options.frames as usize);
    for _ in 0..options.frames {
        for _ in 0..options.steps_per_frame {
            let water = bay.height_snapshot()?;
            for body in &mut bodies {
                body.step(&water.view(), &gravity, DT, Wrench::ZERO)?;
            }
            // The boat is towed: its course and speed are set, the water only lifts and tilts it.
            step += 1;
            let boat = &mut bodies[0].body.state;
            boat.pose.position.x = 1.5 + BOAT_SPEED * step as f32 * DT;
            boat.pose.position.y = 4.0;
            boat.linear_velocity.x = BOAT_SPEED;
            boat.linear_velocity.y = 0.0;
            let hulls: Vec<ContactHull<'_>> = bodies
                .iter()
                .zip(&meshes)
                .map(|(body, mesh)| ContactHull {
                    mesh,
                    transform: transform(body),
                    speed: body.speed_factor(Vec3::Z),
                })
                .collect();
            masks.render(&hulls)?;
            masks.step(&mut bay, WAKE_AMPLITUDE)?;
        }
        let draws: Vec<BodyDraw<'_>> = bodies
            .iter()
            .zip(&meshes)
            .zip(colours)
            .map(|((body, mesh), colour)| BodyDraw {
                mesh,
                transform: transform(body),
                colour,
            })
            .collect();
        let surface = bay.update_surface()?.clone();
        let mut encoder = device.create_command_encoder(&Default::default());
        renderer.encode(
            &mut encoder,
            target.colour_view(),
            target.depth_view(),
            Vec3::new(0.55, 0.65, 0.75),
            &camera,
            &surface,
            Some(masks.new_view()),
            &draws,
        )?;
        queue.submit([encoder.finish()]);
        frames.push(target.read()?);
    }
    Ok(frames)
}
