//! A scene whose grid follows a focus through the world ([`Scene::set_focus`]): the bodies,
//! impulses, queries and land stay in the world while the grid moves by whole cells, so a
//! towed boat's run in a following window is the run in a still grid large enough to hold it,
//! on the CPU and on both GPU backends (which agree with the CPU within the project's f32
//! tolerance). Masks drawn on the GPU cannot move with the grid yet, and are refused.

use glam::{DVec2, I64Vec2, Vec2, Vec3};
use water_core::{
    Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaterError, WaveParams,
};
use water_scene::Water as _;
use water_scene::{
    Backend, BodyId, BodyWater, FoamSettings, GridSpec, MaskSource, Scene, SceneError, SceneFocus,
    SceneSettings,
};
use water_testkit::{assert_f32_within, gpu_or_return, F32_TOLERANCE};

/// Cell size, m: a power of two, so world positions and window positions differ by exact
/// multiples of it and the two runs round alike.
const CELL: f64 = 0.125;
/// The following window's side, cells.
const WINDOW: usize = 192;

/// A `width x height` absorbing signed grid of [`CELL`] cells, waves at 1 m/s (half a cell a
/// step), undamped.
fn sea(width: usize, height: usize) -> GridSpec {
    let params = WaveParams::new(CELL, 1.0, 0.0625, Damping::NONE).expect("stable");
    GridSpec::new(
        GridSize::new(width, height).expect("size"),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
}

fn scene_on(spec: GridSpec, land: LandMask, body_water: BodyWater) -> Scene {
    let settings = SceneSettings {
        body_water,
        ..SceneSettings::default()
    };
    Scene::new(spec, land, settings, None).expect("scene")
}

/// The towed boat's trip, steps, and the still grid's width, cells.
const STEPS: u64 = 150;
const STILL_WIDTH: usize = 480;

/// A `width x WINDOW` scene of [`sea`] set up by `settings`.
fn scene_of_width(
    width: usize,
    settings: SceneSettings,
    gpu: Option<&water_gpu::GpuContext>,
) -> Result<Scene, SceneError> {
    let spec = sea(width, WINDOW);
    Scene::new(spec, LandMask::empty(spec.size), settings, gpu)
}

/// Tows a boat from cell (96, 96) through `still` and through `window`, which follows it,
/// for [`STEPS`] steps; fails unless the boat's state is the same to the bit after every
/// step. Gives where the window ended, cells.
fn sail_both(still: &mut Scene, window: &mut Scene, what: &str) -> I64Vec2 {
    let start = Vec2::splat(96.0 * CELL as f32);
    let in_still = add_towed_boat(still, start);
    let in_window = add_towed_boat(window, start);
    window
        .set_focus(Some(SceneFocus::Body(in_window)))
        .expect("focus");
    assert_eq!(
        window.window_origin_cells(),
        I64Vec2::ZERO,
        "{what}: the boat starts centred"
    );
    for step in 0..STEPS {
        still.step().expect("step");
        window.step().expect("step");
        let (a, b) = (
            still.body(in_still).expect("body"),
            window.body(in_window).expect("body"),
        );
        assert!(
            a.position == b.position && a.orientation == b.orientation && a.velocity == b.velocity,
            "{what}, step {step}: the boat at {} in the window, {} in the still grid",
            b.position,
            a.position
        );
    }
    let origin = window.window_origin_cells();
    assert_eq!(origin.y, 0, "{what}: towed along x");
    assert!(
        origin.x >= 55,
        "{what}: the window followed the boat: origin {origin}"
    );
    origin
}

/// The window's heights in the cells 64 or more in from its trailing rim, and the still
/// grid's under them (see [`a_followed_boat_makes_the_wake_of_a_still_grid_holding_its_trip`]
/// for why the rim cannot have reached them).
fn compared_cells(window: &[f32], still: &[f32], origin: I64Vec2) -> (Vec<f32>, Vec<f32>) {
    let ox = usize::try_from(origin.x).expect("along +x");
    (0..WINDOW)
        .flat_map(|y| (64..WINDOW).map(move |x| (x, y)))
        .map(|(x, y)| (window[y * WINDOW + x], still[y * STILL_WIDTH + x + ox]))
        .unzip()
}

/// Fails naming the first compared cell whose bits differ; and unless a wake reached them.
fn assert_same_bits(what: &str, window: &[f32], still: &[f32]) {
    if let Some(i) = (0..window.len()).find(|&i| window[i].to_bits() != still[i].to_bits()) {
        panic!(
            "{what}: compared cell {i} holds {} in the window, {} in the still grid",
            window[i], still[i]
        );
    }
    assert!(
        window.iter().any(|h| h.abs() > 1e-3),
        "{what}: a wake to compare"
    );
}

/// A 1.0 m x 0.5 m x 0.4 m, 40 kg boat floating at its draft at `at`, towed along +x at
/// 0.75 m/s (0.375 cells a step).
fn add_towed_boat(scene: &mut Scene, at: Vec2) -> BodyId {
    scene
        .add_body(water_testkit::setup::towed_boat(at, 0.75))
        .expect("add")
}

/// A boat towed 56 cells through a 192 x 192 window that follows it makes, to the bit, the
/// run of a 480 x 192 grid that holds the whole trip: the boat's every state and the wake in
/// every cell the window's rim cannot have reached. Both grids share the y rims; the window's
/// x rims are its own. The stencil carries a change one cell a step, so the first cells to
/// differ are at the trailing rim once the wake's front reaches it (96 cells at 1.375 cells a
/// step: step 70), and the difference then gains on the window at 1 - 0.375 cells a step:
/// 50 cells in by step 150. The leading rim is reached no sooner than step 96 / 0.625 = 153.
/// Cells 64 and more in from the trailing rim are compared. This needs the contact masks moved
/// with the grid (else the boat seems to jump a cell at each move and makes bow and stern
/// waves), the bodies reading the water where the grid is now, and with the one-step-late
/// setting, where it was when the patches were gathered.
#[test]
fn a_followed_boat_makes_the_wake_of_a_still_grid_holding_its_trip() {
    for body_water in [BodyWater::Current, BodyWater::OneStepLate] {
        let settings = SceneSettings {
            body_water,
            ..SceneSettings::default()
        };
        let mut still = scene_of_width(STILL_WIDTH, settings, None).expect("still");
        let mut window = scene_of_width(WINDOW, settings, None).expect("window");
        // Foam from the bow and stern events, carried with the window.
        let foam = FoamSettings {
            half_life: 2.0,
            wake: 0.5,
            jacobian_threshold: None,
            shore_depth: None,
        };
        still.set_foam(Some(foam)).expect("foam");
        window.set_foam(Some(foam)).expect("foam");
        let origin = sail_both(&mut still, &mut window, &format!("{body_water:?}"));
        let (part, whole) = compared_cells(
            &window.foam_coverage().expect("foam"),
            &still.foam_coverage().expect("foam"),
            origin,
        );
        assert!(
            part.iter()
                .zip(&whole)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{body_water:?}: the foam trail is the still grid's, to the bit"
        );
        assert!(
            part.iter().any(|&f| f > 0.1),
            "{body_water:?}: a foam trail to compare"
        );
        let (part, whole) = compared_cells(
            &window.water().heights().expect("heights"),
            &still.water().heights().expect("heights"),
            origin,
        );
        assert_same_bits(&format!("{body_water:?}"), &part, &whole);
    }
}

/// Impulses are queued in world cells and land where the grid's cells now lie; queries and
/// the scene's own `surface_at` answer at world positions.
#[test]
fn impulses_and_queries_stay_in_the_world_when_the_grid_moves() {
    let spec = sea(64, 64);
    let mut scene = scene_on(spec, LandMask::empty(spec.size), BodyWater::Current);
    // The grid's centre cell (32, 32) under world cell (132, 82): its corner at (100, 50).
    let camera = Vec3::new(132.5, 82.5, 10.0) * CELL as f32;
    scene
        .set_focus(Some(SceneFocus::Point(camera)))
        .expect("focus");
    assert_eq!(scene.window_origin_cells(), I64Vec2::new(100, 50));
    assert_eq!(scene.window_origin(), DVec2::new(100.0, 50.0) * CELL);
    // A drop at world cell (130, 70) lands at the grid's cell (30, 20).
    let drop = Impulse::new(Vec2::new(130.0, 70.0), 4.0, 0.05, ImpulseShape::Cosine)
        .expect("impulse")
        .with_displacement(true);
    scene.add_impulse(drop);
    scene.step().expect("step");
    let heights = scene.water().heights().expect("heights");
    let peak = (0..heights.len())
        .max_by(|&a, &b| heights[a].total_cmp(&heights[b]))
        .expect("cells");
    assert_eq!((peak % 64, peak / 64), (30, 20), "the peak cell");
    let world = Vec3::new(130.5, 70.5, 0.0) * CELL as f32;
    let here = scene
        .surface_at(world)
        .expect("query")
        .expect("on the grid");
    assert_eq!(
        here.point.z, heights[peak],
        "surface_at reads the peak at its world point"
    );
    assert_eq!(
        here.point.truncate(),
        world.truncate(),
        "answered at the world point"
    );
    let mut query = scene.query_surfaces(&[world, Vec3::ZERO]).expect("query");
    let answers = scene
        .surfaces(&mut query)
        .expect("answers")
        .expect("CPU answers");
    assert_eq!(answers[0].map(|s| s.point.z), Some(heights[peak]));
    assert_eq!(answers[1], None, "the world's origin is off the grid now");
}

/// The land a scene is made with is the world's: it leaves the grid as the grid sails away and
/// comes back, cell for cell, when the grid returns.
#[test]
fn land_comes_back_when_the_grid_returns() {
    let spec = sea(64, 64);
    let mut land = LandMask::empty(spec.size);
    land.add_rect(0, 0, 8, 64).expect("a quay");
    land.add_rect(40, 30, 44, 34).expect("a rock");
    let mut scene = scene_on(spec, land.clone(), BodyWater::Current);
    let at = |x: f32| SceneFocus::Point(Vec3::new(x, 32.5, 0.0) * CELL as f32);
    scene.set_focus(Some(at(132.5))).expect("away");
    assert_eq!(scene.window_origin_cells(), I64Vec2::new(100, 0));
    assert!(scene.window_land().is_empty(), "no land 100 cells out");
    scene.step_many(3).expect("steps");
    scene.set_focus(Some(at(42.5))).expect("back part way");
    assert_eq!(scene.window_origin_cells(), I64Vec2::new(10, 0));
    assert!(
        (0..64).all(|y| (0..54)
            .all(|x| scene.window_land().is_land(x, y) == land.is_land(x + 10, y))
            && (54..64).all(|x| !scene.window_land().is_land(x, y))),
        "the rock back at cells (30, 30) of the window, the quay out of it"
    );
    scene.set_focus(Some(at(32.5))).expect("home");
    assert_eq!(
        scene.window_land(),
        &land,
        "home: the land the scene was made with"
    );
    // The water's own land: a drop over the rock leaves its cells dry.
    let drop = Impulse::new(Vec2::new(42.0, 32.0), 6.0, 0.05, ImpulseShape::Cosine).expect("drop");
    scene.add_impulse(drop);
    scene.step_many(2).expect("steps");
    let heights = scene.water().heights().expect("heights");
    let rock = (30..34).flat_map(|y| (40..44).map(move |x| y * 64 + x));
    assert!(
        rock.clone().all(|i| heights[i] == 0.0),
        "the rock stays dry"
    );
    assert!(
        heights[32 * 64 + 39].abs() > 1e-4,
        "the water beside it moves"
    );
}

/// A bad focus is refused by name and the grid stays where it was; a removed body's focus
/// leaves the grid where it last was.
#[test]
fn a_bad_focus_is_refused_and_a_removed_focus_leaves_the_grid_in_place() {
    let spec = sea(64, 64);
    let mut scene = scene_on(spec, LandMask::empty(spec.size), BodyWater::Current);
    let boat = add_towed_boat(&mut scene, Vec2::new(4.0, 4.0));
    scene
        .set_focus(Some(SceneFocus::Body(boat)))
        .expect("focus");
    scene.step_many(40).expect("steps");
    let followed = scene.window_origin_cells();
    assert!(followed.x > 0, "followed: {followed}");
    let err = scene
        .set_focus(Some(SceneFocus::Point(Vec3::new(f32::NAN, 0.0, 0.0))))
        .expect_err("NaN");
    assert!(
        matches!(
            err,
            SceneError::Water(WaterError::NotFinite {
                name: "focus x",
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(
        scene.window_origin_cells(),
        followed,
        "a refused focus moves nothing"
    );
    let err = scene
        .set_focus(Some(SceneFocus::Point(Vec3::new(0.0, f32::INFINITY, 0.0))))
        .expect_err("infinite");
    assert!(
        matches!(
            err,
            SceneError::Water(WaterError::NotFinite {
                name: "focus y",
                ..
            })
        ),
        "{err}"
    );
    scene.step_many(10).expect("the old focus still holds");
    assert!(
        scene.window_origin_cells().x > followed.x,
        "still following the boat: {}",
        scene.window_origin_cells()
    );
    scene.remove_body(boat).expect("remove");
    let err = scene
        .set_focus(Some(SceneFocus::Body(boat)))
        .expect_err("removed");
    assert!(matches!(err, SceneError::RemovedBody { .. }), "{err}");
    let before = scene.window_origin_cells();
    scene.step_many(10).expect("steps");
    assert_eq!(
        scene.window_origin_cells(),
        before,
        "its body gone, the grid stays"
    );
}

/// The boat's trip on both GPU backends: the window's run is the still grid's to the bit (the
/// shift copies words; the bodies read patches gathered where the grid was), and the CPU's
/// window within the f32 tolerance. A focus with masks drawn on the GPU is refused.
#[test]
fn a_followed_boat_on_the_gpu_makes_the_wake_of_a_still_grid() {
    let gpu = gpu_or_return!("a_followed_boat_on_the_gpu_makes_the_wake_of_a_still_grid");
    let on = |backend, masks, width| {
        let settings = SceneSettings {
            backend,
            masks,
            ..SceneSettings::default()
        };
        scene_of_width(width, settings, Some(&gpu))
    };
    let mut cpu = scene_of_width(WINDOW, SceneSettings::default(), None).expect("cpu");
    let cpu_boat = add_towed_boat(&mut cpu, Vec2::splat(96.0 * CELL as f32));
    cpu.set_focus(Some(SceneFocus::Body(cpu_boat)))
        .expect("focus");
    cpu.step_many(STEPS).expect("cpu run");
    let cpu_heights = cpu.water().heights().expect("heights");
    for backend in [Backend::Gpu, Backend::GpuFragment] {
        let mut still = on(backend, MaskSource::Cpu, STILL_WIDTH).expect("still");
        let mut window = on(backend, MaskSource::Cpu, WINDOW).expect("window");
        let origin = sail_both(&mut still, &mut window, &format!("{backend:?}"));
        assert_eq!(
            origin,
            cpu.window_origin_cells(),
            "{backend:?}: the window's place"
        );
        let heights = window.water().heights().expect("heights");
        let (part, whole) =
            compared_cells(&heights, &still.water().heights().expect("heights"), origin);
        assert_same_bits(&format!("{backend:?}"), &part, &whole);
        assert_f32_within(
            &format!("followed boat, {backend:?} vs CPU"),
            WINDOW,
            &cpu_heights,
            &heights,
            F32_TOLERANCE,
        );
    }
    let mut drawn_on_gpu = on(Backend::Gpu, MaskSource::Gpu, WINDOW).expect("scene");
    let boat = add_towed_boat(&mut drawn_on_gpu, Vec2::ZERO);
    let err = drawn_on_gpu
        .set_focus(Some(SceneFocus::Body(boat)))
        .expect_err("GPU masks do not move with the grid");
    assert!(matches!(err, SceneError::FocusWithGpuMasks), "{err}");
}
