//! `pond`: a pond in Bevy with one plugin. Click the water for waves; press space (or the right
//! button) to throw a crate where the cursor points: it floats by Archimedes and leaves a wake.
//!
//! ```text
//! cargo run -p water-bevy --example pond --release
//! ```
//!
//! Check mode, as CI runs it (scripted clicks and thrown crates at a fixed 1/30 s a frame; the
//! last picture saved; exit 1 when it is blank or the water did not visibly move):
//!
//! ```text
//! cargo run -p water-bevy --example pond --release -- --frames 60 --screenshot out/bevy-pond.png
//! ```
//!
//! `--backend gpu` steps the water on Bevy's own render device instead (the surface texture
//! copied on the GPU, gameplay heights read back a frame late).
//!
//! Benchmark of the simulation systems alone (headless, no renderer): the per-frame cost with
//! 20 crates on a 256-cell-wide pond, 60 frames per second of game time:
//!
//! ```text
//! cargo run -p water-bevy --example pond --release -- --bench-frames 600 --size 256 --crates 20
//! ```

#[path = "support/check_mode.rs"]
mod check_mode;
#[path = "support/ground.rs"]
mod ground;
#[path = "support/pond_bench.rs"]
mod pond_bench;
#[path = "support/pond_scene.rs"]
mod pond_scene;

use bevy::prelude::*;
use water_bevy::prelude::*;

use check_mode::{CheckFrame, SceneSetup};
use pond_scene::{pond_water, thrown_crate, CRATE_SIDE_M};

/// Cells across the pond.
const POND_CELLS: usize = 256;

/// A click's bump: radius and height, metres.
const CLICK_RADIUS_M: f32 = 0.5;
const CLICK_HEIGHT_M: f32 = 0.12;

/// What the check mode does, by frame: clicks at points on the water and crates thrown.
const SCRIPT: &[(u32, Scripted)] = &[
    (4, Scripted::Click(Vec3::new(-4.0, 0.0, 1.5))),
    (8, Scripted::Throw(Vec3::new(2.0, 0.0, -0.5))),
    (14, Scripted::Click(Vec3::new(4.5, 0.0, 2.5))),
    (22, Scripted::Throw(Vec3::new(-1.5, 0.0, 3.0))),
    (30, Scripted::Click(Vec3::new(0.5, 0.0, 4.0))),
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Scripted {
    Click(Vec3),
    Throw(Vec3),
}

/// The crates' mesh and material, made once.
#[derive(Resource)]
struct CrateLook {
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
}

fn main() -> AppExit {
    run().unwrap_or_else(|exit| exit)
}

fn run() -> Result<AppExit, AppExit> {
    let options = check_mode::options_or_exit("pond")?;
    if let Some(frames) = options.bench_frames {
        return Ok(pond_bench::run(
            frames,
            options.size.unwrap_or(POND_CELLS),
            options.crates.unwrap_or(20),
        ));
    }
    let mut app = check_mode::example_app("pond", &options, Color::srgb(0.55, 0.70, 0.85), None)?;
    app.add_systems(Startup, setup)
        .add_systems(Update, (click_and_throw, scripted));
    Ok(app.run())
}

fn setup(mut scene: SceneSetup) {
    scene.spawn_camera_and_light(
        Transform::from_xyz(0.0, 11.0, 16.0).looking_at(Vec3::new(0.0, -1.0, 0.0), Vec3::Y),
        Vec3::new(-4.0, 6.0, -8.0),
    );
    scene.commands.spawn((
        pond_water(POND_CELLS).with_backend(scene.backend.0),
        WaterLook {
            height_scale: 1.5,
            ..default()
        },
    ));
    // The bank around the pond, below the deepest trough a crate's splash makes, so it never
    // shows through the water.
    ground::spawn_ground(&mut scene, 80.0, Color::srgb(0.35, 0.45, 0.25), 1.0);
    scene.commands.insert_resource(CrateLook {
        mesh: scene.meshes.add(Cuboid::from_length(CRATE_SIDE_M)),
        material: scene.materials.add(StandardMaterial {
            base_color: Color::srgb(0.55, 0.32, 0.12),
            perceptual_roughness: 0.8,
            ..default()
        }),
    });
}

fn throw(commands: &mut Commands, look: &CrateLook, landing: Vec3, heading: Vec3, yaw: f32) {
    commands.spawn((
        thrown_crate(landing, heading, yaw),
        Mesh3d(look.mesh.clone()),
        MeshMaterial3d(look.material.clone()),
    ));
}

/// Left click: waves where the cursor points. Space or right click: a crate thrown there.
fn click_and_throw(
    mut commands: Commands,
    (buttons, keys): (Res<ButtonInput<MouseButton>>, Res<ButtonInput<KeyCode>>),
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    look: Res<CrateLook>,
    mut impulses: MessageWriter<WaterImpulse>,
    mut thrown: Local<u32>,
) {
    let click = buttons.just_pressed(MouseButton::Left);
    let throw_now = keys.just_pressed(KeyCode::Space) || buttons.just_pressed(MouseButton::Right);
    if !click && !throw_now {
        return;
    }
    let (Ok(window), Ok((camera, camera_at))) = (windows.single(), cameras.single()) else {
        return;
    };
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let Ok(ray) = camera.viewport_to_world(camera_at, cursor) else {
        return;
    };
    let Some(distance) = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y)) else {
        return;
    };
    let point = ray.get_point(distance);
    if click {
        impulses.write(WaterImpulse::new(point, CLICK_RADIUS_M, CLICK_HEIGHT_M));
    }
    if throw_now {
        *thrown += 1;
        let heading = point - camera_at.translation();
        throw(&mut commands, &look, point, heading, *thrown as f32 * 0.7);
    }
}

/// The check mode's clicks and throws, by frame (nothing without `--frames`).
fn scripted(
    mut commands: Commands,
    frame: Option<Res<CheckFrame>>,
    look: Res<CrateLook>,
    mut impulses: MessageWriter<WaterImpulse>,
) {
    let Some(frame) = frame else {
        return;
    };
    for (i, &(at, action)) in SCRIPT.iter().enumerate() {
        if at != frame.0 {
            continue;
        }
        match action {
            Scripted::Click(point) => {
                impulses.write(WaterImpulse::new(point, CLICK_RADIUS_M, CLICK_HEIGHT_M));
            }
            Scripted::Throw(point) => {
                let heading = Vec3::new(0.3, 0.0, -1.0);
                throw(&mut commands, &look, point, heading, i as f32 * 0.7);
            }
        }
    }
}
