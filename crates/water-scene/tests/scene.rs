//! The scene on the CPU: up axes, user forces, bodies off the water, the clock, trajectories on
//! request and bounded bodies on accepted input.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{
    Boundary, Damping, GridMode, GridSize, HeightView, Impulse, ImpulseShape, LandMask, WaveParams,
};
use water_scene::scenario::{Scenario, ScenarioRun};
use water_scene::Water as _;
use water_scene::{
    Backend, BodyId, BodySpec, GridSpec, OwnedRow, Scene, SceneError, SceneEvent, SceneSettings,
    TowPath, UpAxis,
};

/// A `cells x cells` signed grid of 0.1 m cells at 60 steps per second.
fn pond(cells: usize, boundary: Boundary) -> GridSpec {
    let params = WaveParams::new(0.1, 1.0, 1.0 / 60.0, Damping::PerSecond(0.5)).expect("stable");
    GridSpec::new(
        GridSize::new(cells, cells).expect("size"),
        params,
        boundary,
        GridMode::Signed,
    )
}

/// A scene on `spec` with no land, the given settings and no GPU.
fn scene_with(spec: GridSpec, settings: SceneSettings) -> Scene {
    Scene::new(spec, LandMask::empty(spec.size), settings, None).expect("scene")
}

/// A scene on `spec` with no land, default settings and no GPU.
fn open_scene(spec: GridSpec) -> Scene {
    scene_with(spec, SceneSettings::default())
}

/// An upright box of full size `size` (m, its own axes) and `mass` at `position`, default drag.
fn crate_body(size: Vec3, mass: f32, position: Vec3) -> FloatingBody {
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let pose = Pose::new(position, Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT).expect("float")
}

/// Adds a crate of `size` and `mass` floating at its draft `m / (rho area)` at `at`, pushed along
/// +x by `push` N; gives its id and draft.
fn add_pushed_crate(
    scene: &mut Scene,
    name: &str,
    (size, mass, area): (Vec3, f32, f32),
    at: Vec2,
    push: f32,
) -> (BodyId, f32) {
    let draft = box_draft(mass, FRESH_WATER_DENSITY, area);
    let body = crate_body(size, mass, at.extend(size.z / 2.0 - draft));
    let id = scene.add_body(BodySpec::new(name, body)).expect("add");
    scene
        .set_force(id, Vec3::new(push, 0.0, 0.0), Vec3::ZERO)
        .expect("force");
    (id, draft)
}

/// Archimedes in a y-up scene gives the same draft as in a z-up one: the same box (its short
/// side along each frame's up) settles with its bottom `m / (rho A)` below still water.
#[test]
fn a_box_floats_at_the_same_draft_with_z_up_and_y_up() {
    let (mass, footprint, tall) = (30.0, Vec2::new(0.6, 0.4), 0.3);
    let draft = box_draft(mass, FRESH_WATER_DENSITY, footprint.x * footprint.y);
    let mut depths = Vec::new();
    for up in [UpAxis::Z, UpAxis::Y] {
        let settings = SceneSettings {
            up,
            ..SceneSettings::default()
        };
        let mut scene = scene_with(pond(64, Boundary::Absorbing), settings);
        // The pond's middle, 0.1 m above still water, in each frame's own coordinates.
        let (position, size) = match up {
            UpAxis::Z => (Vec3::new(3.2, 3.2, 0.1), footprint.extend(tall)),
            UpAxis::Y => (
                Vec3::new(3.2, 0.1, -3.2),
                Vec3::new(footprint.x, tall, footprint.y),
            ),
        };
        let id = scene
            .add_body(BodySpec::new("box", crate_body(size, mass, position)))
            .expect("add");
        scene.step_many(600).expect("steps");
        let b = scene.body(id).expect("body");
        let height = b.position.dot(up.up());
        // The bottom face's depth below still water.
        depths.push(tall / 2.0 - height);
        assert!(
            (b.position - position).dot(up.up()).abs() < 0.2,
            "{up:?}: floats near where it was dropped, at {}",
            b.position
        );
    }
    for (depth, up) in depths.iter().zip(["z", "y"]) {
        assert!(
            (depth - draft).abs() < 0.01 * draft,
            "{up}-up draft {depth} m, expected {draft} m within 1%"
        );
    }
    assert!((depths[0] - depths[1]).abs() < 1e-4, "{depths:?}");
}

/// A force the caller sets moves the body to the speed where drag balances it: the hull's drag
/// acts on its wet part (the submerged fraction `f` of its full-hull rates), so a 20 N push on a
/// 40 kg crate floating `f` deep ends at the root of `F = f (k1 v + k2 v^2)`, `k1 = 4 m`,
/// `k2 = 0.5 m` (DragRates::DEFAULT).
#[test]
fn a_user_force_pushes_a_body_to_its_drag_limited_speed() {
    let spec = pond(128, Boundary::Absorbing);
    let mut scene = open_scene(spec);
    let (mass, size, push) = (40.0, Vec3::new(0.6, 0.6, 0.3), 20.0);
    let crate_spec = (size, mass, 0.36);
    let (id, draft) = add_pushed_crate(&mut scene, "crate", crate_spec, Vec2::new(2.0, 6.4), push);
    // Ten time constants m / (f k1) of about 0.7 s.
    scene.step_many(420).expect("steps");
    let v = scene.body(id).expect("body").velocity.x;
    let wet = draft / size.z;
    let (k1, k2) = (
        DragRates::DEFAULT.linear * mass * wet,
        DragRates::DEFAULT.quadratic * mass * wet,
    );
    let expected = (-k1 + (k1 * k1 + 4.0 * k2 * push).sqrt()) / (2.0 * k2);
    assert!(
        (v - expected).abs() < 0.02 * expected,
        "speed {v} m/s, drag balances the push at {expected} m/s"
    );
    let bad = scene.set_force(id, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO);
    match bad {
        Err(SceneError::NotFinite { name, what, .. }) => {
            assert_eq!((name.as_str(), what), ("crate", "force"));
        }
        other => panic!("a NaN force must be refused naming the body, got {other:?}"),
    }
}

/// A body towed off the grid's edge floats on still water outside (never falls into the void)
/// and the scene says so, once, with the step.
#[test]
fn a_body_that_leaves_the_grid_floats_on_and_is_reported() {
    let spec = pond(32, Boundary::Absorbing);
    let mut scene = open_scene(spec);
    let drifter = (Vec3::new(0.4, 0.4, 0.3), 20.0, 0.16);
    let (id, draft) = add_pushed_crate(&mut scene, "drifter", drifter, Vec2::new(2.6, 1.6), 8.0);
    let mut lowest = f32::INFINITY;
    for _ in 0..600 {
        scene.step().expect("step");
        lowest = lowest.min(scene.body(id).expect("body").position.z);
    }
    let b = scene.body(id).expect("body");
    assert!(
        b.position.x > 4.0,
        "it left the 3.2 m grid: x = {}",
        b.position.x
    );
    assert!(b.off_water);
    let expected = 0.15 - draft;
    assert!(
        (b.position.z - expected).abs() < 0.01,
        "floats at its draft outside: z = {}, expected {expected}",
        b.position.z
    );
    assert!(lowest > expected - 0.05, "never sank: lowest z = {lowest}");
    let events: Vec<SceneEvent> = scene.drain_events().collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(matches!(events[0], SceneEvent::LeftWater { body, step } if body == id && step > 0));
}

/// The fixed-step clock: the same ten seconds run at 30 and at 144 frames per second give the
/// same steps and so the same water, bit for bit.
#[test]
fn frame_rate_does_not_change_the_water() {
    let run = |fps: f64| {
        let spec = pond(48, Boundary::Reflective);
        let mut scene = open_scene(spec);
        scene.add_impulse(
            Impulse::new(Vec2::new(20.0, 24.0), 4.0, 0.05, ImpulseShape::Cosine).expect("impulse"),
        );
        let frames = (10.0 * fps).round() as usize;
        for _ in 0..frames {
            scene.advance(1.0 / fps).expect("frame");
        }
        (
            scene.steps_taken(),
            scene.water().heights().expect("heights"),
        )
    };
    let (steps_30, at_30) = run(30.0);
    let (steps_144, at_144) = run(144.0);
    assert_eq!(steps_30, 600);
    assert_eq!(steps_30, steps_144);
    assert_eq!(at_30, at_144);
    assert!(at_30.iter().any(|&z| z != 0.0));
}

/// Trajectories are kept only when asked, one row per body each time.
#[test]
fn trajectories_go_only_to_the_callers_sink() {
    let spec = pond(32, Boundary::Absorbing);
    let mut scene = open_scene(spec);
    for k in 0..2 {
        let at = Vec3::new(1.0 + k as f32, 1.6, 0.0);
        scene
            .add_body(BodySpec::new(
                format!("crate-{k}"),
                crate_body(Vec3::splat(0.3), 10.0, at),
            ))
            .expect("add");
    }
    let mut rows: Vec<OwnedRow> = Vec::new();
    for _ in 0..5 {
        scene.step().expect("step");
        scene.record(&mut rows).expect("record");
    }
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[9].step, 5);
    assert_eq!(rows[9].body, "crate-1");
    assert!(rows.iter().all(|r| r.submerged_volume.is_some()));
}

/// The user's crate drop that used to catapult: 250 kg, 1 x 1 x 0.5 m, dropped 0.2 m with
/// dt = 0.3 s, as a scenario file. It ends floating at its draft and never rises above its start.
#[test]
fn the_crate_drop_scenario_stays_bounded() {
    let text = r#"
        steps = 200
        [grid]
        width = 64
        height = 64
        cell_size = 1.0
        wave_speed = 2.0
        dt = 0.3
        [[body]]
        name = "crate"
        shape = "box"
        size = [1.0, 1.0, 0.5]
        mass = 250.0
        position = [32.0, 32.0, 0.45]
    "#;
    let scenario = Scenario::parse("crate-drop", text).expect("valid scenario");
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    let mut rows: Vec<OwnedRow> = Vec::new();
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, scenario.steps, Some(&mut rows), |_| {})
        .expect("run");
    let highest = rows.iter().map(|r| r.position.z).fold(f32::MIN, f32::max);
    assert!(highest <= 0.45 + 1e-4, "rose to {highest} m");
    let end = rows.last().expect("rows").position.z;
    let expected = 0.25 - box_draft(250.0, FRESH_WATER_DENSITY, 1.0);
    assert!(
        (end - expected).abs() < 0.02,
        "ends at {end}, draft gives {expected}"
    );
}

/// A small deterministic generator (xorshift), so the random scenarios are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// Random valid body scenarios (shape, size, mass, drop height, tilt, throw, dt up to the
/// water's stability limit) all build and run, with no error, bounded: no NaN, no body rising
/// higher than its start allows (start + v0^2/2g + the buoyant rise of a body started under
/// water), none going farther sideways than its speeds allow.
#[test]
fn random_valid_body_scenarios_stay_bounded() {
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    for case in 0..60 {
        let h = rng.range(0.05, 1.0);
        let c = rng.range(0.5, 4.0);
        // Up to the water's own limit, a = 1/2.
        let dt = rng.range(0.05, 0.7) * h / c;
        let shape = ["box", "sphere", "capsule"][case % 3];
        let extent = rng.range(0.05, 3.0);
        let volume = match shape {
            "box" => extent * extent * extent * 0.5,
            "sphere" => 4.0 / 3.0 * std::f64::consts::PI * (extent / 2.0).powi(3),
            _ => std::f64::consts::PI * (extent / 4.0).powi(2) * extent * 1.5,
        };
        let density = rng.range(50.0, 950.0);
        let mass = density * volume;
        let cells = 48;
        let middle = cells as f64 * h / 2.0;
        let z0 = rng.range(-extent, 2.0);
        let v0 = [
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        ];
        let tilt = [
            rng.range(-60.0, 60.0),
            rng.range(-60.0, 60.0),
            rng.range(0.0, 360.0),
        ];
        let dims = match shape {
            "box" => format!("size = [{extent}, {}, {}]", extent * 0.5, extent),
            "sphere" => format!("radius = {}", extent / 2.0),
            _ => format!("radius = {}\nlength = {}", extent / 4.0, extent),
        };
        let steps = 300;
        let text = format!(
            "steps = {steps}\n[grid]\nwidth = {cells}\nheight = {cells}\ncell_size = {h}\n\
             wave_speed = {c}\ndt = {dt}\nboundary = \"absorbing\"\n[[body]]\nname = \"b{case}\"\n\
             shape = \"{shape}\"\n{dims}\nmass = {mass}\nposition = [{middle}, {middle}, {z0}]\n\
             rotation = [{}, {}, {}]\nvelocity = [{}, {}, {}]\n",
            tilt[0], tilt[1], tilt[2], v0[0], v0[1], v0[2]
        );
        let scenario = Scenario::parse(&format!("case {case}"), &text)
            .unwrap_or_else(|e| panic!("case {case} should parse: {e}\n{text}"));
        let mut scene = scenario
            .scene(Backend::Cpu, None)
            .unwrap_or_else(|e| panic!("case {case}: a valid scenario was refused: {e}\n{text}"));
        let mut rows: Vec<OwnedRow> = Vec::new();
        let outcome =
            ScenarioRun::new(&scenario).advance_to(&mut scene, steps, Some(&mut rows), |_| {});
        if let Err(e) = outcome {
            panic!("case {case}: a valid scenario ended in an error: {e}\n{text}");
        }
        let g = 9.80665;
        let speed = (v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]).sqrt();
        let rise = (1000.0 / density) * ((-z0).max(0.0) + 2.0 * extent);
        let top = z0 + speed * speed / (2.0 * g) + rise + extent;
        let duration = steps as f64 * dt;
        let fastest = speed + (2.0 * g * (top - z0 + extent + 2.0)).sqrt();
        for r in &rows {
            assert!(
                r.position.is_finite() && r.velocity.is_finite(),
                "case {case}: {r:?}"
            );
            assert!(
                f64::from(r.position.z) <= top,
                "case {case}: rose to {} m, bound {top} m\n{text}",
                r.position.z
            );
            let sideways =
                (Vec2::new(r.position.x, r.position.y) - Vec2::splat(middle as f32)).length();
            assert!(
                f64::from(sideways) <= fastest * duration + extent,
                "case {case}: went {sideways} m sideways\n{text}"
            );
        }
    }
}

/// Scenario keys the scene adds: `displacement` on impulses and `force` on bodies.
#[test]
fn scenario_impulses_take_displacement_and_bodies_take_a_force() {
    let text = r#"
        steps = 10
        [grid]
        width = 32
        height = 32
        cell_size = 0.1
        wave_speed = 1.0
        dt = 0.02
        [[impulse]]
        x = 16.0
        y = 16.0
        radius = 4.0
        amplitude = 0.2
        displacement = true
        [[body]]
        shape = "sphere"
        radius = 0.2
        mass = 5.0
        position = [1.6, 1.6, 0.0]
        force = [3.0, 0.0, 0.0]
    "#;
    let scenario = Scenario::parse("keys", text).expect("parse");
    assert!(scenario.impulses[0].impulse.displacement());
    assert_eq!(scenario.bodies[0].force, Vec3::new(3.0, 0.0, 0.0));
    let bad = Scenario::parse(
        "keys",
        &text.replace("force = [3.0, 0.0, 0.0]", "force = [3.0, 0.0]"),
    );
    assert!(bad.is_err());
}

/// Taking a body out gives it back as it is, and the water sees it go: its cut becomes stern
/// events (the water where it floated is pushed down as when a body is lifted out), also when
/// another body is added before the next step.
#[test]
fn a_removed_body_comes_back_whole_and_its_cut_leaves_the_water() {
    for add_another in [false, true] {
        a_removed_body_leaves(add_another);
    }
}

fn a_removed_body_leaves(add_another: bool) {
    let spec = pond(48, Boundary::Absorbing);
    let mut scene = open_scene(spec);
    let keep = scene
        .add_body(BodySpec::new(
            "keep",
            crate_body(Vec3::splat(0.4), 20.0, Vec3::new(1.0, 2.4, 0.0)),
        ))
        .expect("add");
    let lifted = scene
        .add_body(BodySpec {
            force: Vec3::new(1.0, 0.0, 0.0),
            ..BodySpec::new(
                "lifted",
                crate_body(Vec3::splat(0.6), 50.0, Vec3::new(3.2, 2.4, 0.0)),
            )
        })
        .expect("add");
    scene.step_many(30).expect("steps");
    let before = scene.body(lifted).expect("body").position;
    let spec_back = scene.remove_body(lifted).expect("remove");
    assert_eq!(spec_back.name, "lifted");
    assert_eq!(spec_back.force, Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(spec_back.body.body.state.pose.position, before);
    assert_eq!(scene.body_count(), 1);
    assert_eq!(scene.body(keep).expect("kept").name, "keep");
    assert!(matches!(
        scene.body(lifted),
        Err(SceneError::RemovedBody { id, .. }) if id == lifted
    ));
    let cell = spec.size.index(32, 24);
    let (new_mask, _) = scene.contact_masks().expect("masks");
    assert!(
        new_mask[cell] > 0.0,
        "still in the masks until the next step"
    );
    if add_another {
        let other = crate_body(Vec3::splat(0.4), 20.0, Vec3::new(1.0, 0.8, 0.0));
        scene
            .add_body(BodySpec::new("other", other))
            .expect("add another");
    }
    let h = scene.water().heights().expect("heights")[cell];
    scene.step().expect("step");
    let (new_mask, old_mask) = scene.contact_masks().expect("masks");
    assert_eq!(new_mask[cell], 0.0);
    assert!(
        old_mask[cell] > 0.0,
        "add another {add_another}: the lifted body's cut is in C_old"
    );
    let after = scene.water().heights().expect("heights")[cell];
    assert!(
        after < h,
        "add another {add_another}: the water where it floated drops: {h} -> {after}"
    );
}

/// Ids are generational and removal renumbers nothing: on water split by land into three
/// basins (waves cannot cross land, so the basins are independent to the bit), removing the
/// middle basin's body and adding another there leaves the other two bodies' ids, events and
/// trajectories exactly as in a scene that never held the middle ones; the removed body's id is
/// refused by name, even after its slot is reused.
#[test]
fn removing_a_body_changes_no_other_bodys_id_events_or_trajectory() {
    let params = WaveParams::new(0.1, 1.0, 1.0 / 60.0, Damping::PerSecond(0.5)).expect("stable");
    let size = GridSize::new(96, 32).expect("size");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    let mut land = LandMask::empty(size);
    land.add_rect(31, 0, 33, 32).expect("wall");
    land.add_rect(63, 0, 65, 32).expect("wall");
    let light = (Vec3::new(0.4, 0.4, 0.2), 10.0);
    let dropped = |x: f32| crate_body(light.0, light.1, Vec3::new(x, 1.6, 0.1));
    // `a` is pushed off the grid's near edge (a LeftWater event); `c` floats where it was
    // dropped.
    let a = || BodySpec {
        force: Vec3::new(0.0, -20.0, 0.0),
        ..BodySpec::new("a", crate_body(light.0, light.1, Vec3::new(1.5, 1.0, 0.0)))
    };
    let c = || BodySpec::new("c", dropped(7.0));
    // The middle bodies are pushed along their basin (never over its walls): their bow and
    // stern waves would reach `c` without the wall.
    let pushed = |name: &str| BodySpec {
        force: Vec3::new(0.0, 10.0, 0.0),
        ..BodySpec::new(name, crate_body(light.0, light.1, Vec3::new(5.2, 0.6, 0.0)))
    };
    type Log = Vec<(String, Vec3, Quat)>;
    let run = |with_middle: bool| -> (Log, Vec<(String, bool, u64)>) {
        let mut scene =
            Scene::new(spec, land.clone(), SceneSettings::default(), None).expect("scene");
        let a_id = scene.add_body(a()).expect("a");
        let b_id = with_middle.then(|| scene.add_body(pushed("b")).expect("b"));
        let c_id = scene.add_body(c()).expect("c");
        let (mut log, mut events) = (Log::new(), Vec::new());
        for step in 0..240 {
            if step == 40 {
                if let Some(b_id) = b_id {
                    assert_eq!(scene.remove_body(b_id).expect("remove").name, "b");
                    let d_id = scene.add_body(pushed("d")).expect("d");
                    assert_eq!(d_id.slot(), b_id.slot(), "d reuses b's slot");
                    assert_ne!(d_id, b_id, "under a new generation");
                    match scene.body(b_id) {
                        Err(SceneError::RemovedBody { id, name }) => {
                            assert_eq!(id, b_id);
                            assert!(name.is_empty() || name == "b", "{name}");
                        }
                        other => panic!("the removed body's id gave {other:?}"),
                    }
                    assert!(scene.remove_body(b_id).is_err(), "removed twice");
                    assert_eq!(scene.body(d_id).expect("d").name, "d");
                }
            }
            scene.step().expect("step");
            for (id, name) in [(a_id, "a"), (c_id, "c")] {
                let view = scene.body(id).expect("kept id");
                assert_eq!(view.name, name, "id {id} still names its body");
                log.push((name.to_owned(), view.position, view.orientation));
            }
            for event in scene.drain_events().collect::<Vec<_>>() {
                let (body, left, at) = match event {
                    SceneEvent::LeftWater { body, step } => (body, true, step),
                    SceneEvent::ReturnedToWater { body, step } => (body, false, step),
                };
                let name = scene.body(body).expect("event body").name.to_owned();
                if name != "b" && name != "d" {
                    events.push((name, left, at));
                }
            }
        }
        (log, events)
    };
    let (with_log, with_events) = run(true);
    let (without_log, without_events) = run(false);
    assert!(
        with_events
            .iter()
            .any(|(name, left, _)| name == "a" && *left),
        "a leaves the water: {with_events:?}"
    );
    assert!(
        with_log
            .iter()
            .any(|(name, p, _)| name == "c" && (p.z - 0.1).abs() > 0.05),
        "c moves"
    );
    assert_eq!(with_events, without_events);
    assert_eq!(with_log, without_log, "bit for bit");
}

/// A tow path is given in the scene's own frame: in a y-up scene its points are `(x, z)`, and
/// the towed crate's position in that frame follows them (the water's rows run toward -z), and
/// its heading turns with the path in that frame: past the corner toward -z its x axis points
/// along -z, as a turn about +y takes it. A twin placed turned 30 degrees about +y keeps that
/// angle against the path on both legs.
#[test]
fn a_tow_path_in_a_y_up_scene_is_followed_in_that_frame() {
    let settings = SceneSettings {
        up: UpAxis::Y,
        ..SceneSettings::default()
    };
    let mut scene = scene_with(pond(64, Boundary::Absorbing), settings);
    let corner = Vec2::new(3.0, -3.2);
    let points = vec![Vec2::new(1.0, -3.2), corner, Vec2::new(3.0, -6.0)];
    let path = TowPath::new(points, 1.0).expect("path");
    let size = Vec3::new(0.6, 0.3, 0.4);
    let start = Vec3::new(1.0, 0.0, -3.2);
    let id = scene
        .add_body(BodySpec::new("towed", crate_body(size, 20.0, start)).towed(path.clone()))
        .expect("add");
    let mut turned = crate_body(size, 20.0, start);
    turned.body.state.pose.orientation = Quat::from_rotation_y(30_f32.to_radians());
    let twin = scene
        .add_body(BodySpec::new("turned", turned).towed(path.clone()))
        .expect("add");
    // The x axis seen from above (+y), as an angle from +x toward -z, degrees.
    let heading = |q: Quat| {
        let x = q * Vec3::X;
        (-x.z).atan2(x.x).to_degrees()
    };
    scene.step_many(90).expect("a second and a half");
    for (id, offset) in [(id, 0.0), (twin, 30.0)] {
        let h = heading(scene.body(id).expect("body").orientation);
        assert!(
            (h - offset).abs() < 1.0,
            "first leg: heading {h}, expected {offset}"
        );
    }
    scene.step_many(150).expect("four seconds");
    let b = scene.body(id).expect("body");
    assert!(!b.off_water, "on the water: {}", b.position);
    assert!(
        (b.position.x - 3.0).abs() < 0.02 && (b.position.z + 5.2).abs() < 0.02,
        "four seconds along the path at 1 m/s: {}",
        b.position
    );
    for (id, offset) in [(id, 0.0), (twin, 30.0)] {
        let h = heading(scene.body(id).expect("body").orientation);
        assert!(
            (h - 90.0 - offset).abs() < 1.0,
            "second leg: heading {h}, expected {}",
            90.0 + offset
        );
    }
    let back = scene.remove_body(id).expect("remove");
    assert_eq!(back.path, Some(path), "given back in the scene's frame");
}

/// A tow is a constraint of the body's step: the towed crate is where its path is at the end of
/// every step (to f32 rounding), moves at the path's velocity, and turns with the path at its
/// corner no faster than `MAX_TOW_TURN_RATE` (a quarter turn in a second: its heading 0 degrees
/// along the first leg, 90 from a second past the corner on), while the water still lifts it. A
/// crate put on the same path later is put where the path is then and moves at the path's
/// speed, not at the speed that would pull it there in one step.
#[test]
fn a_towed_body_is_on_its_path_every_step_and_turns_at_its_corners() {
    let mut scene = open_scene(pond(64, Boundary::Absorbing));
    let points = vec![
        Vec2::new(1.0, 2.0),
        Vec2::new(4.0, 2.0),
        Vec2::new(4.0, 5.0),
    ];
    let path = TowPath::new(points, 1.0).expect("path");
    let size = Vec3::new(0.6, 0.3, 0.4);
    let towed =
        |name: &str, at: Vec3| BodySpec::new(name, crate_body(size, 20.0, at)).towed(path.clone());
    let id = scene
        .add_body(towed("first", Vec3::new(1.0, 2.0, 0.1)))
        .expect("add");
    let dt = scene.spec().params.dt() as f32;
    let heading = |q: Quat| {
        let x = q * Vec3::X;
        x.y.atan2(x.x).to_degrees()
    };
    let mut late = None;
    let mut previous = std::collections::HashMap::new();
    // 6 m at 1 m/s: 360 steps of 1/60 s; the last few steps run up to the end point.
    for step in 1..=350 {
        if step == 60 {
            // Added a second along the path, where the path was at the start.
            let at = Vec3::new(1.0, 2.0, 0.1);
            late = Some(scene.add_body(towed("late", at)).expect("add late"));
        }
        scene.step().expect("step");
        let t = step as f32 * dt;
        let (at, velocity) = path.at(t);
        for id in [Some(id), late].into_iter().flatten() {
            let b = scene.body(id).expect("body");
            let off = Vec2::new(b.position.x, b.position.y) - at;
            assert!(
                off.length() < 1e-4,
                "step {step}: {} off the path's {at}",
                off.length()
            );
            // The step that ends at the corner moved along the first leg.
            let moving = Vec2::new(b.velocity.x, b.velocity.y);
            let at_corner = (at - Vec2::new(4.0, 2.0)).length() < 0.5 * dt;
            assert!(
                at_corner || (moving - velocity).length() < 1e-3,
                "step {step}: {moving} vs {velocity}"
            );
            // Its heading turned by at most the cap over the step (and 1% more: the substep's
            // turn holds the heading's rate to first order in the tilt; 0.1% seen).
            let turned = heading(b.orientation);
            let before = previous.insert(id, turned).unwrap_or(turned);
            let change = (turned - before + 180.0).rem_euclid(360.0) - 180.0;
            let cap = water_buoyancy::MAX_TOW_TURN_RATE.to_degrees() * dt;
            assert!(
                change.abs() <= cap * 1.01,
                "step {step}: turned {change} degrees, {cap} at most"
            );
            let expected = match at.y - 2.0 {
                d if d <= 0.0 => Some(0.0),
                d if d > 1.02 => Some(90.0),
                _ => None,
            };
            if let Some(expected) = expected {
                assert!(
                    (turned - expected).abs() < 1.0,
                    "step {step} at {at}: heading {turned} degrees, the path's {expected}"
                );
            }
        }
    }
    let b = scene.body(id).expect("body");
    assert!(
        b.position.z.abs() < 0.2 && !b.off_water,
        "afloat: {}",
        b.position
    );
}

/// A kinematic body is integrated once, by its engine: the scene leaves its pose where the
/// engine set it, reports the water's wrench on it there (exactly `FloatingBody::measure` on
/// the water before the step), and still draws its wake. A dynamic twin dropped the same way
/// rises.
#[test]
fn a_kinematic_body_is_measured_not_moved() {
    let spec = pond(64, Boundary::Absorbing);
    let mut scene = open_scene(spec);
    let size = Vec3::new(0.6, 0.6, 0.3);
    let (mass, area) = (40.0, 0.36);
    // Held 0.05 m too deep: the water pushes it up harder than its weight.
    let deep = Vec3::new(
        2.0,
        3.2,
        0.15 - box_draft(mass, FRESH_WATER_DENSITY, area) - 0.05,
    );
    let held = scene
        .add_body(BodySpec::new("held", crate_body(size, mass, deep)))
        .expect("add");
    let free_at = deep + Vec3::new(2.4, 0.0, 0.0);
    let free = scene
        .add_body(BodySpec::new("free", crate_body(size, mass, free_at)))
        .expect("add");
    scene.set_kinematic(held, true).expect("kinematic");
    let gravity = scene.settings().gravity;
    for step in 0..30 {
        // The engine moves it along +x and sets it each step.
        let mut state = scene.floating_body(held).expect("held").body.state;
        state.pose.position.x = deep.x + 0.01 * (step + 1) as f32;
        state.linear_velocity = Vec3::new(0.6, 0.0, 0.0);
        scene.set_body_state(held, &state).expect("state");
        let heights = scene.water().heights().expect("heights");
        let view = HeightView::new(spec.size, 0.1, &heights).expect("view");
        let mut twin = scene.floating_body(held).expect("held").clone();
        let expected = twin.measure(&view, &gravity).expect("measure");
        scene.step().expect("step");
        let b = scene.body(held).expect("held");
        assert!(b.kinematic);
        assert_eq!(b.position, state.pose.position, "step {step}: not moved");
        assert_eq!(b.water_force, Some(expected.wrench.force), "step {step}");
        assert_eq!(b.water_torque, Some(expected.wrench.torque), "step {step}");
    }
    let force = scene
        .body(held)
        .expect("held")
        .water_force
        .expect("measured");
    assert!(
        force.z > mass * 9.8,
        "pushed up harder than its weight: {force}"
    );
    let peak = scene
        .water()
        .heights()
        .expect("heights")
        .iter()
        .fold(0.0_f32, |m, h| m.max(h.abs()));
    assert!(
        peak > 1e-4,
        "the held body, moved along +x, makes a wake: {peak}"
    );
    let rose = scene.body(free).expect("free").position.z - free_at.z;
    assert!(rose > 0.01, "the dynamic twin rose: {rose}");
}

/// Bodies on dispersive water (deep-water Airy waves, `GridSpec::with_dispersion`): a crate
/// dropped in still water settles at its Archimedes draft `m / (rho A)` within 1%, and a crate
/// towed across makes waves (its wake reaches more than a millimetre) that stay bounded, the
/// dropped crate riding them.
#[test]
fn bodies_float_at_their_draft_and_make_wakes_on_dispersive_water() {
    let airy = water_core::AiryDispersion::gravity_waves(9.81).expect("airy");
    let spec = pond(96, Boundary::Absorbing).with_dispersion(airy);
    let mut scene = open_scene(spec);
    let (size, mass) = (Vec3::new(0.6, 0.4, 0.3), 30.0);
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let dropped = scene
        .add_body(BodySpec::new(
            "dropped",
            crate_body(size, mass, Vec3::new(4.8, 2.4, size.z / 2.0 - draft + 0.05)),
        ))
        .expect("add");
    scene.step_many(600).expect("settles");
    let settled = scene.body(dropped).expect("body").position;
    let depth = size.z / 2.0 - settled.z;
    assert!(
        (depth - draft).abs() < 0.01 * draft,
        "draft {depth} m, expected {draft} m within 1%"
    );
    let path = TowPath::new(vec![Vec2::new(1.5, 7.0), Vec2::new(8.0, 7.0)], 0.5).expect("path");
    let towed = crate_body(size, mass, Vec3::new(1.5, 7.0, size.z / 2.0 - draft));
    scene
        .add_body(BodySpec::new("towed", towed).towed(path))
        .expect("towed");
    // The wake: the largest height within 0.6 m of the tow line (rows 64 to 75).
    let mut wake = 0.0f32;
    for _ in 0..480 {
        scene.step().expect("step");
        let heights = scene.water().heights().expect("heights");
        wake = heights[64 * 96..76 * 96]
            .iter()
            .fold(wake, |m, h| m.max(h.abs()));
    }
    let heights = scene.water().heights().expect("heights");
    assert!(
        heights.iter().all(|h| h.is_finite() && h.abs() < 0.2),
        "bounded"
    );
    assert!(wake > 1e-3, "the towed crate makes waves: {wake} m");
    let riding = scene.body(dropped).expect("body");
    assert!(
        (riding.position.z - settled.z).abs() < 0.05,
        "the dropped crate rides the wake at {} m",
        riding.position.z
    );
}

/// `Scene::impulse_at` takes metres in the caller's frame and names what it refuses in
/// metres: a radius of 0.2 m on 0.1 m cells was refused as "impulse radius ... got 2" (cells),
/// a position past f32 in cells as "impulse x ... got inf".
#[test]
fn impulse_at_names_what_it_refuses_in_metres() {
    let scene = open_scene(pond(16, Boundary::Absorbing));
    let message = |position: Vec3, radius: f32| {
        scene
            .impulse_at(position, radius, 0.05, ImpulseShape::Cosine)
            .expect_err("refused")
            .to_string()
    };
    let e = message(Vec3::new(0.8, 0.8, 0.0), -0.2);
    assert!(
        e.contains("impulse radius (m)") && e.contains("-0.2"),
        "{e}"
    );
    let e = message(Vec3::new(0.8, 0.8, 0.0), 2e5);
    assert!(
        e.contains("impulse radius (m) = 200000 is outside") && e.contains("1e6 cells"),
        "{e}"
    );
    let e = message(Vec3::new(f32::NAN, 0.8, 0.0), 0.2);
    assert!(
        e.contains("impulse position (m)") && e.contains("NaN"),
        "{e}"
    );
    let e = message(Vec3::new(1e38, 0.8, 0.0), 0.2);
    assert!(
        e.contains("impulse position (m)") && e.contains("1e38") && e.contains("cell_size"),
        "{e}"
    );
    let drop = scene
        .impulse_at(Vec3::new(0.8, 0.8, 0.0), 0.2, 0.05, ImpulseShape::Cosine)
        .expect("taken");
    assert_eq!((drop.centre(), drop.radius()), (Vec2::new(7.5, 7.5), 2.0));
}
