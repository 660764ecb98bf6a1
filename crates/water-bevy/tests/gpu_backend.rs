//! The GPU compute backend inside the plugin, on the render device and queue Bevy's renderer
//! would give it (here a headless device inserted as those resources): the same scripted scene
//! gives the CPU backend's heights within the project's CPU/GPU tolerance, and gameplay
//! heights arrive by an asynchronous readback of patches around the points asked about that
//! never waits, a frame late, equal to the heights of the step they name.

use std::sync::Arc;
use std::time::Duration;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::render::renderer::{RenderAdapter, RenderDevice, RenderQueue, WgpuWrapper};
use bevy::time::TimeUpdateStrategy;
use water_bevy::prelude::*;
use water_bevy::water_scene::water_core::HeightSource;
use water_bevy::water_scene::water_gpu::{
    wgpu, Comparison, DeviceTraffic, GpuContext, F32_TOLERANCE,
};
use water_bevy::water_scene::UpAxis;
use water_bevy::{Backend, BodyWater, WaterSimulation};
use water_testkit::gpu_or_return;

/// The water step the backends are compared at (about 3 s of water).
const COMPARED_STEP: u64 = 80;

/// Largest distance between the crate's positions on the two backends at [`COMPARED_STEP`],
/// metres. The crate floats on heights that agree within [`F32_TOLERANCE`] of the largest
/// height; its motion integrates those small differences over 70 steps.
const CRATE_TOLERANCE_M: f32 = 1e-3;

/// Fixed tick 1: a click; tick 6: a crate thrown in (it floats on the GPU's heights, read back
/// every step by the scene).
fn script(mut tick: Local<u32>, mut commands: Commands, mut impulses: MessageWriter<WaterImpulse>) {
    *tick += 1;
    if *tick == 1 {
        impulses.write(WaterImpulse::new(Vec3::new(-1.0, 0.0, 0.5), 0.4, 0.05));
    }
    if *tick == 6 {
        commands.spawn((
            Floating::cuboid(Vec3::new(0.3, 0.2, 0.3), 36.0),
            Transform::from_xyz(0.5, 0.3, -0.5),
            FloatingMotion {
                velocity: Vec3::new(1.0, 0.0, 0.5),
                ..default()
            },
        ));
    }
}

/// A headless app of 96 x 96 cells on `backend` at 60 frames per second, with the script.
fn app(backend: Backend, gpu: Option<&GpuContext>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, WaterPlugin::headless()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .add_systems(FixedUpdate, script.before(WaterSystems::Prepare));
    if let Some(gpu) = gpu {
        // What Bevy's RenderPlugin puts in the main world.
        app.insert_resource(RenderDevice::from(gpu.device.clone()))
            .insert_resource(RenderQueue(Arc::new(WgpuWrapper::new(gpu.queue.clone()))))
            .insert_resource(RenderAdapter(Arc::new(WgpuWrapper::new(
                gpu.adapter.clone(),
            ))));
    }
    app.world_mut()
        .spawn(Water::new(96, 96).with_backend(backend));
    app
}

/// Runs frames until the water has taken [`COMPARED_STEP`] steps; the fixed clock's steps per
/// frame do not depend on the backend, so both stop at the same step.
fn run_to_compared_step(app: &mut App) {
    for _ in 0..1_000 {
        app.update();
        if steps(app) >= COMPARED_STEP {
            return;
        }
    }
    panic!("the water did not reach step {COMPARED_STEP}");
}

fn simulation(app: &mut App) -> &WaterSimulation {
    app.world_mut()
        .query::<&WaterSimulation>()
        .single(app.world())
        .expect("one simulated water")
}

fn steps(app: &mut App) -> u64 {
    simulation(app).scene().steps_taken()
}

/// The current heights (a blocking readback on the GPU) and the crate's position.
fn state(app: &mut App) -> (Vec<f32>, Vec3) {
    let heights = simulation(app)
        .heights_into(<[f32]>::to_vec)
        .expect("heights");
    let crate_at = app
        .world_mut()
        .query_filtered::<&Transform, With<Floating>>()
        .single(app.world())
        .expect("one crate")
        .translation;
    (heights, crate_at)
}

#[test]
fn the_gpu_backend_in_the_plugin_gives_the_cpu_heights() {
    let gpu = gpu_or_return!("the_gpu_backend_in_the_plugin_gives_the_cpu_heights");
    let mut cpu = app(Backend::Cpu, None);
    let mut on_gpu = app(Backend::Gpu, Some(&gpu));
    run_to_compared_step(&mut cpu);
    run_to_compared_step(&mut on_gpu);
    assert_eq!(steps(&mut cpu), steps(&mut on_gpu), "the same fixed steps");
    let (cpu_heights, cpu_crate) = state(&mut cpu);
    let (gpu_heights, gpu_crate) = state(&mut on_gpu);
    let comparison = Comparison::measure(&cpu_heights, &gpu_heights);
    assert!(
        comparison.scale > 1e-3,
        "the click and the crate made no waves: largest height {}",
        comparison.scale
    );
    assert!(
        comparison.within(F32_TOLERANCE),
        "GPU heights differ from the CPU's by {} m on a largest height of {} m",
        comparison.max_abs,
        comparison.scale
    );
    let apart = cpu_crate.distance(gpu_crate);
    eprintln!(
        "GPU vs CPU at step {COMPARED_STEP}: heights {} m apart on {} m, the crate {apart} m",
        comparison.max_abs, comparison.scale
    );
    assert!(
        apart <= CRATE_TOLERANCE_M,
        "the crate is {apart} m from where it floats on the CPU ({cpu_crate} vs {gpu_crate})"
    );
}

#[test]
fn gameplay_heights_on_the_gpu_arrive_a_frame_late_without_waiting() {
    let gpu = gpu_or_return!("gameplay_heights_on_the_gpu_arrive_a_frame_late_without_waiting");
    let mut app = app(Backend::Gpu, Some(&gpu));
    run_to_compared_step(&mut app);
    // The frame that stepped started the readback of its last step and cannot have taken it:
    // gameplay sees an earlier step (or none yet).
    let now = steps(&mut app);
    let seen = simulation(&mut app).gameplay_step();
    assert!(
        seen.is_none_or(|step| step < now),
        "gameplay saw step {seen:?} in the frame that reached step {now}"
    );
    // Frames with no fixed step: the points asked are gathered by the next readback, which
    // arrives, and gameplay catches up; until then the query has no patch there.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    let points = [(-2.0_f32, 1.0_f32), (-1.0, 0.5), (0.3, -0.2), (2.5, -3.0)]
        .map(|(x, z)| Vec3::new(x, 0.0, z));
    let query = |app: &mut App, world: Vec3| {
        app.world_mut()
            .run_system_once(move |water: WaterQuery| water.height_at(world))
            .expect("query")
    };
    for _ in 0..1_000 {
        let answered = points.iter().all(|&world| query(&mut app, world).is_some());
        if answered && simulation(&mut app).gameplay_step() == Some(now) {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(steps(&mut app), now, "no step without time");
    assert_eq!(simulation(&mut app).gameplay_step(), Some(now));
    // What WaterQuery gives is then exactly the heights of that step.
    let (heights, _) = state(&mut app);
    let placement = simulation(&mut app).placement();
    let mut compared = 0;
    for world in points {
        let queried = query(&mut app, world).expect("on the water");
        let up = UpAxis::Y;
        let blocking = simulation(&mut app)
            .with_heights(|view| view.surface_at(up.to_water(placement.to_scene(world))))
            .expect("blocking heights")
            .expect("on the water");
        let expected = placement.to_world(up.from_water(blocking.point)).y;
        assert_eq!(queried, expected, "height at {world}");
        compared += 1;
    }
    assert_eq!(compared, 4);
    assert!(heights.iter().any(|h| h.abs() > 1e-3), "still water");
}

/// The plugin's frame on the GPU backend with a floating body blocks on the device never, with
/// either `BodyWater`: each frame's fixed step gathers the body's patch, which arrives while
/// the frame draws (here a poll of the device between frames), and the readbacks for gameplay
/// and the surface are taken when they arrive. Run on one thread (single-threaded schedules),
/// where the crate counts its traffic. A frame that dropped the gathered patches (as drawing
/// through `Scene::water_mut` once did) regathers with a wait and fails this.
#[test]
fn a_frame_with_a_floating_body_on_the_gpu_never_waits() {
    let gpu = gpu_or_return!("a_frame_with_a_floating_body_on_the_gpu_never_waits");
    for body_water in [BodyWater::Current, BodyWater::OneStepLate] {
        let mut app = app(Backend::Gpu, Some(&gpu));
        on_one_thread(&mut app);
        let water = app
            .world_mut()
            .query_filtered::<Entity, With<Water>>()
            .single(app.world())
            .expect("one water");
        app.world_mut().entity_mut(water).insert(
            Water::new(96, 96)
                .with_backend(Backend::Gpu)
                .with_body_water(body_water),
        );
        let frame = |app: &mut App| {
            app.update();
            gpu.device
                .poll(wgpu::PollType::wait_indefinitely())
                .expect("poll");
        };
        // The script's crate lands at tick 6; then the water settles into its frame loop.
        for _ in 0..40 {
            frame(&mut app);
        }
        let start = steps(&mut app);
        let before = DeviceTraffic::on_this_thread();
        for _ in 0..60 {
            frame(&mut app);
        }
        let used = DeviceTraffic::on_this_thread().since(before);
        let stepped = steps(&mut app) - start;
        eprintln!("{body_water}: {stepped} steps in 60 frames, {used:?}");
        assert!(stepped >= 20, "{stepped} steps");
        assert!(
            used.bytes_read_back > 0,
            "nothing was read back: counted elsewhere?"
        );
        // No gameplay query asks about a point here: what comes back is the crate's patches,
        // under a quarter of the 96 x 96 field's bytes a frame on average (reading the whole
        // field, 36,864 bytes, at each readback came to about 17,000 a frame and fails).
        let per_frame = used.bytes_read_back / 60;
        assert!(
            per_frame < 96 * 96 * 4 / 4,
            "{body_water}: {per_frame} bytes read back a frame"
        );
        assert_eq!(used.blocking_waits, 0, "{body_water}: waits in 60 frames");
    }
}

/// Runs the app's schedules on this thread, where the crate counts its device traffic.
fn on_one_thread(app: &mut App) {
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    for label in [
        PreUpdate.intern(),
        FixedUpdate.intern(),
        PostUpdate.intern(),
        Update.intern(),
    ] {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
    }
}

/// A point moving 2 cells a frame over stepping water (about two steps in five frames), asked
/// every frame through `WaterQuery` (between frames, as an `Update` system would): its patch is
/// gathered after the frame it is asked in (or, in a frame where the water did not step, once
/// it has moved a quarter of the disc's radius) and arrives for the frame after next, inside
/// the 8-cell disc, so it is answered in every frame from the third on.
/// What comes back is the crate's patches and the point's: under a quarter of the 96 x 96
/// field's bytes a frame on average (reading the whole field at each readback, 36,864 bytes,
/// came to about 17,000 a frame and fails).
#[test]
fn a_moving_point_is_answered_every_frame_without_a_full_readback() {
    let gpu = gpu_or_return!("a_moving_point_is_answered_every_frame_without_a_full_readback");
    let mut app = app(Backend::Gpu, Some(&gpu));
    on_one_thread(&mut app);
    run_to_compared_step(&mut app);
    let cell = simulation(&mut app).placement().cell_size;
    // From 4 m left of the centre to 3.8 m right of it: on the 9.6 m grid all the way.
    let start = Vec3::new(-4.0, 0.0, 1.0);
    let (first_step, before) = (steps(&mut app), DeviceTraffic::on_this_thread());
    let frames = 40;
    for frame in 0..frames {
        let world = start + Vec3::X * (2.0 * cell * frame as f32);
        let height = app
            .world_mut()
            .run_system_once(move |water: WaterQuery| water.height_at(world))
            .expect("query");
        if frame >= 2 {
            let height = height.unwrap_or_else(|| panic!("frame {frame}: no answer at {world}"));
            assert!(
                height.is_finite() && height.abs() < 1.0,
                "{height} m at {world}"
            );
        }
        app.update();
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }
    let used = DeviceTraffic::on_this_thread().since(before);
    let stepped = steps(&mut app) - first_step;
    let per_frame = used.bytes_read_back / frames;
    eprintln!("{stepped} steps in {frames} frames, {per_frame} bytes read back a frame");
    assert!(stepped >= 10, "the water stepped {stepped} times");
    assert!(used.bytes_read_back > 0, "nothing was read back");
    assert!(
        per_frame < 96 * 96 * 4 / 4,
        "{per_frame} bytes read back a frame"
    );
}
