//! `pond --bench-frames N`: the pond's simulation systems timed headless (no window, no
//! renderer): the plugin's fixed-tick systems with crates floating and a click every half
//! second, at 60 frames per second of game time.

use std::time::{Duration, Instant};

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::prelude::*;
use water_bevy::WaterSimulation;

use crate::pond_scene::{pond_water, thrown_crate};

/// Frames run before timing starts: the crates land and the caches warm.
const WARM_UP_FRAMES: u32 = 120;

/// Game time a frame advances, seconds.
const FRAME_SECONDS: f64 = 1.0 / 60.0;

/// Runs the pond headless for `frames` timed frames with `crates` crates on a `cells`-wide
/// pond and prints one JSON line with the per-frame cost.
pub fn run(frames: u32, cells: usize, crates: usize) -> AppExit {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, WaterPlugin::headless()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            FRAME_SECONDS,
        )))
        .add_systems(Update, click_every_half_second);
    let water = pond_water(cells);
    let extent = water.extent();
    app.world_mut().spawn(water);
    // The crates on a grid over the middle half of the pond, drifting in a slow circle.
    let columns = (crates as f32).sqrt().ceil().max(1.0) as usize;
    for i in 0..crates {
        let (c, r) = ((i % columns) as f32, (i / columns) as f32);
        let at = Vec3::new(
            (c + 0.5) / columns as f32 - 0.5,
            0.0,
            (r + 0.5) / columns as f32 - 0.5,
        ) * Vec3::new(extent.x, 0.0, extent.y)
            * 0.5;
        app.world_mut()
            .spawn(thrown_crate(at, Vec3::new(-at.z, 0.0, at.x), i as f32));
    }
    for _ in 0..WARM_UP_FRAMES {
        app.update();
    }
    let steps_before = steps(&mut app);
    reset_step_times(&mut app);
    let mut times = Vec::with_capacity(frames as usize);
    for _ in 0..frames {
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let water_steps = steps(&mut app) - steps_before;
    let phases = step_times(&mut app);
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let p95 = times.get(times.len() * 95 / 100).copied().unwrap_or(0.0);
    let water_ms = times.iter().sum::<f64>() / water_steps.max(1) as f64;
    println!(
        "{{\"size\":{cells},\"rows\":{},\"crates\":{crates},\"frames\":{frames},\
         \"frame_seconds\":{FRAME_SECONDS:.6},\"water_steps\":{water_steps},\
         \"ms_per_frame_mean\":{mean:.3},\"ms_per_frame_median\":{median:.3},\
         \"ms_per_frame_p95\":{p95:.3},\"ms_per_water_step\":{water_ms:.3},\
         \"step_ms_bodies\":{:.3},\"step_ms_masks\":{:.3},\"step_ms_water\":{:.3},\
         \"threads\":{}}}",
        cells * 3 / 4,
        phases.ms_per_step(phases.bodies),
        phases.ms_per_step(phases.masks),
        phases.ms_per_step(phases.water),
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    AppExit::Success
}

fn steps(app: &mut App) -> u64 {
    let world = app.world_mut();
    let mut q = world.query::<&WaterSimulation>();
    q.iter(world).map(|s| s.scene().steps_taken()).sum()
}

fn reset_step_times(app: &mut App) {
    let world = app.world_mut();
    let mut q = world.query::<&mut WaterSimulation>();
    for mut s in q.iter_mut(world) {
        s.scene_mut().reset_step_times();
    }
}

/// The scene's wall time per phase (bodies, masks, water) since the last reset.
fn step_times(app: &mut App) -> water_scene::StepTimes {
    let world = app.world_mut();
    let mut q = world.query::<&WaterSimulation>();
    q.iter(world)
        .map(|s| s.scene().step_times())
        .next()
        .unwrap_or_default()
}

fn click_every_half_second(
    mut frame: Local<u32>,
    water: Query<&Water>,
    mut impulses: MessageWriter<WaterImpulse>,
) {
    *frame += 1;
    let Ok(water) = water.single() else {
        return;
    };
    if (*frame).is_multiple_of(30) {
        let e = water.extent();
        let t = *frame as f32 * 0.37;
        let at = Vec3::new(t.sin() * e.x * 0.4, 0.0, t.cos() * e.y * 0.4);
        impulses.write(WaterImpulse::new(at, 0.5, 0.1));
    }
}
