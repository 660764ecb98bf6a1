//! The water is the same at any frame rate: one scripted scene (a click, a thrown crate) run at
//! 30 and at 144 frames per second gives the same heights at the same water step.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::prelude::*;
use water_bevy::WaterSimulation;

/// Largest height difference allowed between the two frame rates at the same water step,
/// metres: none. The plugin steps on Bevy's fixed clock, so the frame rate only decides how
/// many fixed ticks a frame runs, never what a tick does; the script below acts on ticks, so
/// both runs give the scene the same inputs at the same steps and the CPU solver is
/// deterministic. Anything above zero is a frame-rate dependence.
const FRAME_RATE_TOLERANCE_M: f32 = 0.0;

/// The water step the heights are compared at (about 3.8 s of water).
const COMPARED_STEP: u64 = 100;

/// Heights and the crate's position at [`COMPARED_STEP`].
#[derive(Resource, Default)]
struct Snapshot(Option<(Vec<f32>, Vec3)>);

/// Fixed tick `1`: a click; tick `8`: a crate thrown in.
fn script(mut tick: Local<u32>, mut commands: Commands, mut impulses: MessageWriter<WaterImpulse>) {
    *tick += 1;
    if *tick == 1 {
        impulses.write(WaterImpulse::new(Vec3::new(-1.5, 0.0, 1.0), 0.5, 0.05));
    }
    if *tick == 8 {
        commands.spawn((
            Floating::cuboid(Vec3::new(0.3, 0.2, 0.3), 36.0),
            Transform::from_xyz(0.5, 0.4, -0.5).with_rotation(Quat::from_rotation_x(0.2)),
            FloatingMotion {
                velocity: Vec3::new(1.5, 0.0, 0.5),
                ..default()
            },
        ));
    }
}

fn snapshot(
    water: Query<&WaterSimulation>,
    bodies: Query<&Transform, With<Floating>>,
    mut out: ResMut<Snapshot>,
) {
    let Ok(simulation) = water.single() else {
        return;
    };
    if out.0.is_none() && simulation.scene().steps_taken() == COMPARED_STEP {
        let heights = simulation
            .heights_into(<[f32]>::to_vec)
            .expect("cpu heights");
        let crate_at = bodies.single().expect("one crate").translation;
        out.0 = Some((heights, crate_at));
    }
}

/// Runs the scripted scene at `fps` until the water reaches [`COMPARED_STEP`]; returns the
/// snapshot and the frames it took.
fn run_at(fps: f64) -> ((Vec<f32>, Vec3), u32) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, WaterPlugin::headless()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / fps,
        )))
        .init_resource::<Snapshot>()
        .add_systems(
            FixedUpdate,
            (
                script.before(WaterSystems::Prepare),
                snapshot.after(WaterSystems::WriteBack),
            ),
        );
    app.world_mut().spawn(Water::new(96, 96));
    for frame in 1..=10_000 {
        app.update();
        if let Some(s) = app.world_mut().resource_mut::<Snapshot>().0.take() {
            return (s, frame);
        }
    }
    panic!("the water never reached step {COMPARED_STEP} at {fps} frames per second");
}

#[test]
fn thirty_and_144_frames_per_second_give_the_same_water() {
    let ((slow, slow_crate), slow_frames) = run_at(30.0);
    let ((fast, fast_crate), fast_frames) = run_at(144.0);
    assert!(
        fast_frames > 4 * slow_frames,
        "the runs did not differ in frame rate: {slow_frames} and {fast_frames} frames"
    );
    let peak = slow.iter().fold(0.0_f32, |m, h| m.max(h.abs()));
    assert!(peak > 1e-3, "no waves to compare: peak {peak} m");
    let worst = slow
        .iter()
        .zip(&fast)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0_f32, f32::max);
    assert!(
        worst <= FRAME_RATE_TOLERANCE_M,
        "heights differ by up to {worst} m between 30 and 144 frames per second"
    );
    assert!(
        slow_crate.distance(fast_crate) <= FRAME_RATE_TOLERANCE_M,
        "crate at {slow_crate} and {fast_crate}"
    );
    assert!(
        slow_crate.x > 0.6,
        "the thrown crate should have moved along +x: {slow_crate}"
    );
}
