//! The ambient sea in the plugin (`Water::with_ocean`): `WaterQuery` sees the sea everywhere and
//! adds the grid's water where it lies, at the step of the grid's heights it shows; a buoy
//! heaves with the swell; on the GPU backend (on a render device inserted as Bevy's renderer
//! would) the sum is the CPU's within the project's tolerance.

use std::sync::Arc;
use std::time::Duration;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::render::renderer::{RenderAdapter, RenderDevice, RenderQueue, WgpuWrapper};
use bevy::time::TimeUpdateStrategy;
use water_bevy::ocean::{OceanSpec, WaveSpectrum};
use water_bevy::prelude::*;
use water_bevy::water_scene::water_core::ocean::SeaWithWater;
use water_bevy::water_scene::water_core::HeightSource;
use water_bevy::water_scene::water_gpu::{wgpu, GpuContext};
use water_bevy::water_scene::UpAxis;
use water_bevy::{Backend, WaterSample, WaterSimulation};
use water_testkit::gpu_or_return;

mod support;

/// Where the water's centre stands: off the origin and above 0, so frames cannot be confused.
const CENTRE: Vec3 = Vec3::new(10.0, 2.0, -5.0);

/// A wind sea of 10 m/s (peak period about 5 s), 30 degrees off +x.
fn swell() -> OceanSpec {
    OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 10.0,
        fetch: 30_000.0,
        peak_enhancement: 3.3,
    })
    .with_direction(30.0)
    .with_seed(5)
}

/// 16 m x 12 m of 0.2 m cells at [`CENTRE`] inside the swell, headless at 60 frames a second.
fn app(backend: Backend, gpu: Option<&GpuContext>) -> App {
    let mut app = support::headless_app(1.0 / 60.0);
    if let Some(gpu) = gpu {
        // What Bevy's RenderPlugin puts in the main world.
        app.insert_resource(RenderDevice::from(gpu.device.clone()))
            .insert_resource(RenderQueue(Arc::new(WgpuWrapper::new(gpu.queue.clone()))))
            .insert_resource(RenderAdapter(Arc::new(WgpuWrapper::new(
                gpu.adapter.clone(),
            ))));
    }
    app.world_mut().spawn((
        Water::new(80, 60)
            .with_cell_size(0.2)
            .with_backend(backend)
            .with_ocean(swell()),
        Transform::from_translation(CENTRE),
    ));
    app.update();
    app
}

fn surface(app: &mut App, at: Vec3) -> Option<WaterSample> {
    app.world_mut()
        .run_system_once(move |water: WaterQuery| water.surface_at(at))
        .expect("query")
}

fn simulation(app: &mut App) -> &WaterSimulation {
    app.world_mut()
        .query::<&WaterSimulation>()
        .single(app.world())
        .expect("one simulated water")
}

/// The sea's height alone (world y) under `world`, from the frame gameplay sees.
fn sea_alone(app: &mut App, world: Vec3) -> f32 {
    let simulation = simulation(app);
    let placement = simulation.placement();
    let at = UpAxis::Y.to_water(placement.to_scene(world));
    let sea = simulation.gameplay_sea().expect("a sea");
    placement.corner.y + sea.height(at.truncate())
}

/// The sea plus the grid (world y) under `world`, from the gameplay sea and heights.
fn sum(app: &mut App, world: Vec3) -> f32 {
    let simulation = simulation(app);
    let placement = simulation.placement();
    let at = UpAxis::Y.to_water(placement.to_scene(world));
    let sea = simulation.gameplay_sea().expect("a sea");
    let z = simulation
        .with_gameplay_heights(at.truncate(), |view| {
            SeaWithWater::new(sea, view).surface_at(at)
        })
        .expect("heights")
        .expect("on the water")
        .point
        .z;
    placement.corner.y + z
}

/// A click, then frames until it has made a bump.
fn click_and_run(app: &mut App, click: Vec3, frames: usize) {
    app.world_mut()
        .write_message(WaterImpulse::new(click, 0.4, 0.05))
        .expect("message");
    for _ in 0..frames {
        app.update();
    }
}

#[test]
fn the_query_sees_the_sea_everywhere_and_adds_the_grid_where_it_lies() {
    let mut app = app(Backend::Cpu, None);
    let click = CENTRE + Vec3::new(1.5, 0.0, -2.0);
    click_and_run(&mut app, click, 6);
    let simulation = simulation(&mut app);
    let step = simulation.scene().steps_taken();
    let dt = simulation.scene().spec().params.dt();
    let sea = simulation.gameplay_sea().expect("a sea");
    assert_eq!(sea.time(), step as f64 * dt, "the sea of the grid's step");
    // Off the grid, kilometres away: the sea alone, exactly its frame's height.
    for far in [
        CENTRE + Vec3::new(120.0, 0.0, 3.0),
        CENTRE + Vec3::new(-2_000.0, 0.0, 950.0),
    ] {
        let s = surface(&mut app, far).expect("the sea has no edge");
        assert_eq!(s.point.y, sea_alone(&mut app, far));
        assert_eq!((s.point.x, s.point.z), (far.x, far.z));
        assert!(s.normal.y > 0.5 && (s.normal.length() - 1.0).abs() < 1e-5);
    }
    // The sea moves: two points a quarter of a wave apart stand at different heights.
    let a = surface(&mut app, CENTRE + Vec3::new(40.0, 0.0, 0.0)).expect("sea");
    let b = surface(&mut app, CENTRE + Vec3::new(43.0, 0.0, 0.0)).expect("sea");
    assert!((a.point.y - b.point.y).abs() > 1e-3, "{a:?} {b:?}");
    // On the grid: the sea plus the click's bump, which the sea alone lacks.
    let on = surface(&mut app, click).expect("on the grid");
    assert!((on.point.y - sum(&mut app, click)).abs() < 1e-6);
    let bump = on.point.y - sea_alone(&mut app, click);
    assert!(bump > 0.005, "the bump over the sea is {bump} m");
}

#[test]
fn a_buoy_heaves_with_the_swell() {
    let mut app = app(Backend::Cpu, None);
    let start = CENTRE + Vec3::new(-3.0, 0.0, 2.0);
    app.world_mut().spawn((
        // A 0.3 m buoy of 7 kg: half its volume under still water.
        Floating::sphere(0.15, 7.0),
        Transform::from_translation(start),
    ));
    let (mut buoy, mut water) = (Vec::new(), Vec::new());
    for frame in 0..420 {
        app.update();
        if frame < 60 {
            continue; // the drop settles
        }
        let at = app
            .world_mut()
            .query_filtered::<&Transform, With<Floating>>()
            .single(app.world())
            .expect("one buoy")
            .translation;
        buoy.push(f64::from(at.y));
        water.push(f64::from(surface(&mut app, at).expect("water").point.y));
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mb, mw) = (mean(&buoy), mean(&water));
    let std = |v: &[f64], m: f64| {
        (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    let (sb, sw) = (std(&buoy, mb), std(&water, mw));
    let correlation = buoy
        .iter()
        .zip(&water)
        .map(|(b, w)| (b - mb) * (w - mw))
        .sum::<f64>()
        / buoy.len() as f64
        / (sb * sw);
    eprintln!("buoy heave {sb:.4} m, water {sw:.4} m (std), correlation {correlation:.4}");
    assert!(sw > 0.02, "the swell under the buoy moved {sw} m (std)");
    assert!(
        (sb / sw - 1.0).abs() < 0.3,
        "the buoy heaved {sb} m (std) on water moving {sw} m"
    );
    assert!(
        correlation > 0.9,
        "heave and water correlate by {correlation}"
    );
}

#[test]
fn on_the_gpu_the_query_gives_the_cpus_sum() {
    let gpu = gpu_or_return!("on_the_gpu_the_query_gives_the_cpus_sum");
    let click = CENTRE + Vec3::new(1.5, 0.0, -2.0);
    let mut cpu = app(Backend::Cpu, None);
    let mut on_gpu = app(Backend::Gpu, Some(&gpu));
    click_and_run(&mut cpu, click, 6);
    click_and_run(&mut on_gpu, click, 6);
    // Frames without time: nothing steps; the points asked are gathered by the next readback
    // of the last step, which arrives; until then the query has no patch there.
    on_gpu.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    let step = simulation(&mut cpu).scene().steps_taken();
    let points = [
        click,
        CENTRE + Vec3::new(-4.0, 0.0, 3.0),
        CENTRE + Vec3::new(300.0, 0.0, -80.0),
    ];
    let asked_all = |app: &mut App| points.iter().all(|&at| surface(app, at).is_some());
    for _ in 0..100 {
        if asked_all(&mut on_gpu) && simulation(&mut on_gpu).gameplay_step() == Some(step) {
            break;
        }
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
        on_gpu.update();
    }
    assert_eq!(simulation(&mut on_gpu).gameplay_step(), Some(step));
    let dt = simulation(&mut on_gpu).scene().spec().params.dt();
    let sea_time = simulation(&mut on_gpu).gameplay_sea().expect("sea").time();
    assert_eq!(sea_time, step as f64 * dt, "the sea of the read-back step");
    for at in points {
        let (c, g) = (
            surface(&mut cpu, at).expect("cpu"),
            surface(&mut on_gpu, at).expect("gpu"),
        );
        assert!(
            (c.point.y - g.point.y).abs() < 1e-4,
            "at {at}: cpu {} gpu {}",
            c.point.y,
            g.point.y
        );
    }
}

/// A sea the core refuses (here a negative wind) refuses the water, logged once, not a panic;
/// the entity is marked so it is not retried every frame.
#[test]
fn a_bad_sea_refuses_the_water() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, WaterPlugin::headless()));
    let bad = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: -3.0 });
    let water = app
        .world_mut()
        .spawn(Water::new(32, 32).with_ocean(bad))
        .id();
    app.update();
    app.update();
    assert!(app.world().get::<water_bevy::WaterRefused>(water).is_some());
    assert!(app.world().get::<WaterSimulation>(water).is_none());
    let error = Water::new(32, 32)
        .with_ocean(bad)
        .ocean
        .map(|spec| water_bevy::ocean::AmbientSea::new(&spec, 0.1))
        .expect("a spec")
        .expect_err("refused");
    assert!(error.to_string().contains("wind"), "{error}");
}
