//! The `scenario` target: any text into the scenario parser; what it accepts is built into a
//! CPU scene (or sphere water) and stepped a few steps.

use water_scene::scenario::{ScenarioFile, ScenarioRun};
use water_scene::{Backend, Water as _};

use crate::all_finite;

/// Largest grid (cells) and sphere level handed to the parser: the parser builds what it
/// accepts (a land mask per cell, the whole icosphere), and a run only learns something from
/// sizes it can build thousands of times a second. The limits of larger sizes are checked by
/// the crates' own tests.
const MAX_CELLS: i64 = 1 << 14;
/// See [`MAX_CELLS`].
const MAX_LEVEL: i64 = 4;
/// Most bodies stepped.
const MAX_BODIES: usize = 4;
/// Most steps run.
const MAX_STEPS: u64 = 16;
/// Most body substeps (hull loads) one input may cost, summed over its bodies and steps. A
/// light body on a long `dt` is cut into up to `MAX_SUBSTEPS` (10,000) substeps a step by
/// design, each a pass over its hull: about 0.3 ms for a sphere and a box in the instrumented
/// build, so a few such steps pass the run's 10 s timeout and teach nothing the first did
/// not (a plain body at 60 steps a second takes a few substeps a step). An input stops stepping
/// where its next step would pass the budget, and what it reached is checked: an input whose
/// first step alone passes it is built and checked unstepped (such steps are the crates' own
/// tests' to take; one such step took 1.6 to 5 s here). A spin gained within a step can cut it
/// further (up to 10,000 pieces a body), which no estimate before the step sees.
const MAX_BODY_SUBSTEPS: u64 = 4_000;

/// Checks one input.
///
/// # Panics
/// When a promise breaks (see the crate's documentation).
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if too_large(text) {
        return;
    }
    match ScenarioFile::parse("fuzz.toml", text) {
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "error without a place: {e}");
            assert!(
                !e.message.trim().is_empty(),
                "error without a message: {e:?}"
            );
        }
        Ok(ScenarioFile::Grid(scenario)) => {
            if scenario.bodies.len() > MAX_BODIES {
                return;
            }
            let mut scene = match scenario.scene(Backend::Cpu, None) {
                Ok(scene) => scene,
                Err(e) => panic!("a parsed scenario's scene was refused: {e}\n{text}"),
            };
            let mut run = ScenarioRun::new(&scenario);
            // One step at a time, each paid for from the bodies' state before it.
            let mut spent = 0;
            for step in 1..=MAX_STEPS {
                spent += body_substeps(&scene);
                if spent > MAX_BODY_SUBSTEPS {
                    break;
                }
                match run.advance_to(&mut scene, step, None, |_| {}) {
                    Ok(()) => {}
                    // A body driven past what it can integrate is reported, named, with its step.
                    Err(e @ water_scene::SceneError::Body { .. }) => {
                        assert!(e.to_string().contains("at step"), "{e}");
                        return;
                    }
                    // A grid that follows a focus may leave an impulse behind: said by name.
                    Err(e @ water_scene::SceneError::ImpulseMissed { .. })
                        if scenario.focus.is_some() =>
                    {
                        assert!(e.to_string().contains("landed on no cell"), "{e}");
                        return;
                    }
                    Err(e) => panic!("an accepted scenario failed to step: {e}\n{text}"),
                }
            }
            if scenario.mode != water_scene::water_core::GridMode::Classic {
                let heights = scene.water().heights().expect("CPU heights");
                all_finite(&format!("heights of\n{text}\n"), &heights);
            }
            for id in scene.body_ids().collect::<Vec<_>>() {
                let b = scene.body(id).expect("own id");
                assert!(
                    b.position.is_finite() && b.velocity.is_finite(),
                    "body {} went to {} at {} m/s in\n{text}",
                    b.name,
                    b.position,
                    b.velocity
                );
            }
        }
        Ok(ScenarioFile::Sphere(scenario)) => {
            let mut water =
                water_scene::BackendSphere::new(scenario.water.clone(), Backend::Cpu, None)
                    .expect("CPU sphere");
            scenario
                .play(&mut water, 0, MAX_STEPS, |_| {})
                .expect("CPU sphere steps");
            all_finite(
                &format!("sphere heights of\n{text}\n"),
                &water.heights().expect("CPU"),
            );
        }
    }
}

/// Substeps the next step of `scene` takes, summed over its bodies, from each body's state
/// now (its spin included). A body whose step is refused as too long costs nothing (the
/// refusal comes before any substep), nor does a kinematic one (measured, not integrated).
fn body_substeps(scene: &water_scene::Scene) -> u64 {
    let gravity = &scene.settings().gravity;
    let dt = scene.spec().params.dt() as f32;
    scene
        .body_ids()
        .filter(|&id| scene.body(id).is_ok_and(|b| !b.kinematic))
        .filter_map(|id| scene.floating_body(id).ok())
        .map(|b| b.substeps(dt, gravity).map_or(0, u64::from))
        .sum()
}

/// Whether `text` asks for more than [`MAX_CELLS`] cells or a sphere above [`MAX_LEVEL`].
fn too_large(text: &str) -> bool {
    let Ok(table) = text.parse::<toml::Table>() else {
        return false; // the parser refuses it before building anything
    };
    let int = |t: &toml::Value, key: &str| t.get(key).and_then(toml::Value::as_integer);
    if let Some(grid) = table.get("grid") {
        let (w, h) = (
            int(grid, "width").unwrap_or(0),
            int(grid, "height").unwrap_or(0),
        );
        if w.saturating_mul(h) > MAX_CELLS {
            return true;
        }
    }
    if let Some(sphere) = table.get("sphere") {
        if int(sphere, "level").is_some_and(|l| l > MAX_LEVEL) {
            return true;
        }
    }
    false
}
