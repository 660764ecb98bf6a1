//! Cascades (`Scene::set_cascades`): a packet of deep-water waves leaves the finest grid and
//! goes on in the next coarser one at Airy's group velocity, keeping its amplitude; the
//! blended surface has no seam where one cascade hands over to the next.

use glam::Vec2;
use water_core::{
    AiryDispersion, Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask,
    WaveParams,
};
use water_scene::{
    cascade_weight, GridSpec, Scene, SceneError, SceneSettings, CASCADE_BLEND_CELLS,
};

const G: f64 = 9.81;
/// Finest cell size (m) and step (s).
const CELL: f64 = 0.25;
const DT: f64 = 0.05;
/// The packet's carrier: 4 m waves, 16 cells of the finest grid and 8 of the next.
const WAVELENGTH: f64 = 4.0;
/// Its envelope's standard deviations along and across its travel (m), and its peak (m).
const SIGMA_ALONG: f64 = 3.5;
const SIGMA_ACROSS: f64 = 5.0;
const AMPLITUDE: f64 = 0.05;
/// Where it starts (m): the finest grid spans [0, 80] x [0, 48].
const START: [f64; 2] = [40.0, 24.0];

/// Deep dispersive water: the finest grid 320 x 192 cells of 0.25 m, absorbing edges (a sponge
/// of 24 cells, 6 m; cascade 1's is 24 cells of 0.5 m, 12 m, its interior up to x = 108 m).
fn deep_water_spec() -> GridSpec {
    let params = WaveParams::new(CELL, 1.0, DT, Damping::NONE).expect("params");
    let size = GridSize::new(320, 192).expect("size");
    GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed)
        .with_dispersion(AiryDispersion::gravity_waves(G).expect("airy"))
}

/// The packet at time `t` (s) at world point `(x, y)`, travelling +x: a Gaussian envelope
/// moving at the group velocity over a carrier at Airy's phase speed.
fn packet(x: f64, y: f64, t: f64) -> f64 {
    let k = std::f64::consts::TAU / WAVELENGTH;
    let omega = (G * k).sqrt();
    let group = 0.5 * omega / k;
    let along = x - START[0] - group * t;
    let across = y - START[1];
    AMPLITUDE
        * (-along * along / (2.0 * SIGMA_ALONG * SIGMA_ALONG)).exp()
        * (-across * across / (2.0 * SIGMA_ACROSS * SIGMA_ACROSS)).exp()
        * (k * (x - START[0]) - omega * t).cos()
}

/// A CPU scene of `spec` over `land`.
fn cpu_scene(spec: GridSpec, land: LandMask) -> Scene {
    Scene::new(spec, land, SceneSettings::default(), None).expect("scene")
}

/// The wave model: 96 x 64 cells of 0.25 m (x from 0 to 24 m), absorbing edges. Cascade 1
/// (0.5 m cells) spans x from -12 to 36 m, cascade 2 (1 m) from -36 to 60 m.
fn wave_spec() -> GridSpec {
    let params = WaveParams::new(0.25, 2.0, 0.05, Damping::PerSecond(0.9)).expect("params");
    GridSpec::new(
        GridSize::new(96, 64).expect("size"),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
}

/// A 1 m x 1 m x 0.4 m, 100 kg box at its draft at `(x, y)` m, and its centre's height then.
fn box_at(x: f32, y: f32) -> (water_buoyancy::FloatingBody, f32) {
    use water_buoyancy::{
        box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
        FRESH_WATER_DENSITY,
    };
    let size = glam::Vec3::new(1.0, 1.0, 0.4);
    let mass = 100.0;
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let rest = size.z / 2.0 - draft;
    let pose = Pose::from_position(glam::Vec3::new(x, y, rest)).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let float = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("float");
    (float, rest)
}

/// The scene with `cascades` cascades and the packet set in its finest grid (both time levels,
/// at t = 0 and t = -dt).
fn scene_with_packet(cascades: usize) -> Scene {
    let spec = deep_water_spec();
    let mut scene = cpu_scene(spec, LandMask::empty(spec.size));
    scene.set_cascades(cascades).expect("cascades");
    let w = spec.size.width();
    let field = scene
        .water_mut()
        .cpu_mut()
        .and_then(|g| g.signed_field_mut())
        .expect("a signed CPU grid");
    let (cur, old) = field.levels_mut();
    for (i, (z, z_old)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
        let (x, y) = (((i % w) as f64 + 0.5) * CELL, ((i / w) as f64 + 0.5) * CELL);
        *z = packet(x, y, 0.0) as f32;
        *z_old = packet(x, y, -DT) as f32;
    }
    scene
}

/// `sum z^2 h^2` (m^4) and the x of the centroid of `z^2` (world, m) of cascade `k`, counting
/// only cells whose centres lie at world x >= `from`.
fn energy_and_centroid(scene: &Scene, k: usize, from: f64) -> (f64, f64) {
    let spec = scene.cascade_spec(k).expect("spec");
    let origin = scene.cascade_origin(k).expect("origin");
    let heights = scene.cascade_heights(k).expect("heights");
    let h = spec.params.cell_size();
    let w = spec.size.width();
    let (mut sum, mut moment) = (0.0, 0.0);
    for (i, &z) in heights.iter().enumerate() {
        let x = origin.x + ((i % w) as f64 + 0.5) * h;
        if x >= from {
            let e = f64::from(z) * f64::from(z) * h * h;
            sum += e;
            moment += e * x;
        }
    }
    (sum, moment / sum.max(f64::MIN_POSITIVE))
}

/// Handoff: the packet crosses from cascade 0 (its edge at x = 80 m) into cascade 1 and, all of
/// it beyond cascade 0, keeps at least 90% of its rms amplitude (energy conserved: deep water,
/// no damping) and travels at Airy's group velocity `(1/2) sqrt(g / k)` within 2%.
#[test]
fn a_packet_leaving_the_finest_grid_goes_on_in_the_next_at_airys_group_velocity() {
    let mut scene = scene_with_packet(2);
    let (start_energy, start_x) = energy_and_centroid(&scene, 0, f64::NEG_INFINITY);
    assert!(
        (start_x - START[0]).abs() < 0.5,
        "the packet starts at {start_x} m"
    );
    let k = std::f64::consts::TAU / WAVELENGTH;
    let airy_group = 0.5 * (G / k).sqrt();
    // The centroid passes 87 m (its tail 2 sigma past cascade 0's edge) after about 38 s; at
    // the last step its front, 2 sigma ahead, is at 102 m, short of cascade 1's sponge.
    let first = 780;
    let last = 880;
    scene.step_many(first).expect("steps");
    // From x = 60 m on: cascade 1 beyond the finest grid's left edge still carries the
    // little the initial levels sent left, which is not the packet.
    let (energy_first, x_first) = energy_and_centroid(&scene, 1, 60.0);
    let (inside, _) = energy_and_centroid(&scene, 0, f64::NEG_INFINITY);
    scene.step_many(last - first).expect("steps");
    let (energy_last, x_last) = energy_and_centroid(&scene, 1, 60.0);
    assert!(
        x_first > 80.0 + 2.0 * SIGMA_ALONG,
        "the packet's centroid at {x_first} m is still near cascade 0's edge"
    );
    assert!(
        inside < 1e-3 * start_energy,
        "cascade 0 still holds {inside:e} of the packet's {start_energy:e} m^4"
    );
    let kept_first = (energy_first / start_energy).sqrt();
    let kept_last = (energy_last / start_energy).sqrt();
    assert!(
        kept_first >= 0.9 && kept_last >= 0.9,
        "rms amplitude kept in cascade 1: {kept_first:.4} at step {first}, {kept_last:.4} at {last}"
    );
    // And no less than the 2 x 2 mean keeps of a wave along x, cos(k h / 2): the hand-over
    // loses nothing else.
    let mean_keeps = (k * CELL / 2.0).cos();
    for kept in [kept_first, kept_last] {
        assert!(
            (kept - mean_keeps).abs() < 0.01,
            "kept {kept:.4} against the 2 x 2 mean's {mean_keeps:.4}"
        );
    }
    let measured = (x_last - x_first) / ((last - first) as f64 * DT);
    let error = measured / airy_group - 1.0;
    assert!(
        error.abs() < 0.02,
        "group velocity in cascade 1: {measured:.4} m/s against Airy's {airy_group:.4} ({:+.2}%)",
        100.0 * error
    );
    eprintln!(
        "centroid {x_first:.3} -> {x_last:.3} m; kept {kept_first:.4} / {kept_last:.4}; group velocity {measured:.4} m/s, Airy {airy_group:.4} ({:+.3}%)",
        100.0 * error
    );
}

/// Deep inside the finest grid (past its sponge and the 16-cell band), cascade 1's water is
/// the finest grid's 2 x 2 means, to the bit, at its place in the world: a coarse cell mapped
/// one finer cell off, or a level left out, fails it.
#[test]
fn deep_inside_the_finer_grid_the_coarser_holds_its_means_exactly() {
    let mut scene = scene_with_packet(2);
    scene.step_many(3).expect("steps");
    let fine = scene.cascade_heights(0).expect("fine");
    let coarse = scene.cascade_heights(1).expect("coarse");
    let (o0, o1) = (
        scene.cascade_origin(0).expect("origin"),
        scene.cascade_origin(1).expect("origin"),
    );
    let (w, h) = (320usize, 192usize);
    // The finest grid's cells that lie deep inside: 24 sponge + 16 band cells from each edge.
    let inside: i64 = 24 + 16;
    let mut compared = 0;
    for cy in 0..h {
        for cx in 0..w {
            // The coarse cell's lower corner in finest cells.
            let fx = ((o1.x + cx as f64 * 2.0 * CELL - o0.x) / CELL).round() as i64;
            let fy = ((o1.y + cy as f64 * 2.0 * CELL - o0.y) / CELL).round() as i64;
            let deep = |f: i64, side: usize| f >= inside && f + 2 <= side as i64 - inside;
            if !(deep(fx, w) && deep(fy, h)) {
                continue;
            }
            let i = fy as usize * w + fx as usize;
            let mean = 0.25 * ((fine[i] + fine[i + 1]) + (fine[i + w] + fine[i + w + 1]));
            assert_eq!(
                coarse[cy * w + cx].to_bits(),
                mean.to_bits(),
                "coarse cell ({cx}, {cy})"
            );
            compared += 1;
        }
    }
    assert!(compared > 5000, "{compared} cells compared");
    assert!(
        coarse.iter().any(|&z| z.abs() > 0.01),
        "the packet is there"
    );
}

/// Seams: along a line across cascade 0's edge, while the packet straddles it, neighbouring
/// samples of the blended surface `w z0 + (1 - w) z1` differ by no more than the blend's
/// bound: `d (G + 1.5 D / (B h0))` for samples `d` apart, `G` the steeper of the two
/// cascades' slopes along the line, `D` their largest difference where they blend, `B`
/// [`CASCADE_BLEND_CELLS`] and `h0` the finest cell (the smoothstep's steepest slope is 1.5).
#[test]
fn the_blended_surface_has_no_jump_past_the_blends_bound_across_a_cascades_edge() {
    let mut scene = scene_with_packet(2);
    // The packet's centroid near x = 72 m: across the blend band (x from 70 to 74 m).
    scene.step_many(512).expect("steps");
    // Fine sampling: the bound's slope term shrinks with d, a step in the blend would not.
    let d = (CELL / 64.0) as f32;
    let xs: Vec<f32> = (0..=1280).map(|i| 69.5 + d * i as f32).collect();
    let y = START[1] as f32;
    let blended: Vec<f32> = xs
        .iter()
        .map(|&x| {
            scene
                .cascade_height_at(Vec2::new(x, y))
                .expect("height")
                .expect("covered")
        })
        .collect();
    let sample = |k: usize| -> Vec<f32> {
        let spec = scene.cascade_spec(k).expect("spec");
        let origin = scene.cascade_origin(k).expect("origin").as_vec2();
        let heights = scene.cascade_heights(k).expect("heights");
        let view = water_core::HeightView::new(spec.size, spec.params.cell_size() as f32, &heights)
            .expect("view");
        xs.iter()
            .map(|&x| view.bilinear(Vec2::new(x, y) - origin).unwrap_or(0.0))
            .collect()
    };
    let (fine, coarse) = (sample(0), sample(1));
    let slope = |z: &[f32]| {
        z.windows(2)
            .map(|p| (p[1] - p[0]).abs())
            .fold(0.0f32, f32::max)
            / d
    };
    let steepest = slope(&fine).max(slope(&coarse));
    // Where cascade 0 hands over: its weight between 0 and 1 (the sponge is 24 cells).
    let handing_over = |x: f32| {
        let distance = (x.min(80.0 - x).min(y).min(48.0 - y)) / CELL as f32;
        let w = cascade_weight(distance, water_core::SPONGE_CELLS as f32);
        w > 0.0 && w < 1.0
    };
    let differs = xs
        .iter()
        .zip(fine.iter().zip(&coarse))
        .filter(|(x, _)| handing_over(**x))
        .map(|(_, (f, c))| (f - c).abs())
        .fold(0.0f32, f32::max);
    assert!(
        differs > 1e-4,
        "the packet must straddle the blend: D = {differs:e}"
    );
    let bound = d * (steepest + 1.5 * differs / (CASCADE_BLEND_CELLS * CELL as f32));
    let jump = blended
        .windows(2)
        .map(|p| (p[1] - p[0]).abs())
        .fold(0.0f32, f32::max);
    assert!(
        jump <= bound * 1.0001,
        "largest jump {jump:e} m past the bound {bound:e} m (G = {steepest:e}, D = {differs:e})"
    );
}

/// Impulses land in the cascades whose cells they span at least 2 of, at the same world place;
/// bad counts and set-ups are refused by name.
#[test]
fn impulses_reach_the_cascades_that_resolve_them_and_bad_cascades_are_refused() {
    let spec = deep_water_spec();
    let mut scene = cpu_scene(spec, LandMask::empty(spec.size));
    scene.set_cascades(3).expect("cascades");
    assert_eq!(scene.cascade_count(), 3);
    // At world (130.5, 24.5) m, a cell centre of cascade 2: beyond cascade 1 (to 120 m), inside cascade 2 (to 200 m). A drop of
    // radius 6 finest cells spans 1.5 cells of cascade 2, too few; one of radius 10 spans 2.5.
    let centre = Vec2::new(130.5, 24.5) / CELL as f32 - Vec2::splat(0.5);
    let narrow = Impulse::new(centre, 6.0, 0.05, ImpulseShape::Cosine).expect("drop");
    scene.add_impulse(narrow);
    scene.step().expect("step");
    let peak = |scene: &Scene, k: usize| {
        scene
            .cascade_heights(k)
            .expect("heights")
            .iter()
            .fold(0.0f32, |m, z| m.max(z.abs()))
    };
    assert_eq!(
        (peak(&scene, 0), peak(&scene, 1), peak(&scene, 2)),
        (0.0, 0.0, 0.0),
        "a drop too narrow for the only cascade over it"
    );
    let wide = Impulse::new(centre, 10.0, 0.05, ImpulseShape::Cosine).expect("drop");
    scene.add_impulse(wide);
    scene.step().expect("step");
    assert_eq!((peak(&scene, 0), peak(&scene, 1)), (0.0, 0.0));
    // Where it is in the world: its crest in cascade 2's cell over (130.5, 24.5) m, the cell the
    // drop's centre falls in.
    let origin = scene.cascade_origin(2).expect("origin").as_vec2();
    let cell = (Vec2::new(130.5, 24.5) - origin).floor();
    let heights = scene.cascade_heights(2).expect("heights");
    let crest =
        heights.iter().enumerate().fold(
            (0, 0.0f32),
            |best, (i, &z)| if z > best.1 { (i, z) } else { best },
        );
    assert_eq!(
        (crest.0 % 320, crest.0 / 320),
        (cell.x as usize, cell.y as usize),
        "the crest of {} m",
        crest.1
    );
    assert!(crest.1 > 0.02, "cascade 2's crest is {} m", crest.1);

    // Lookups past the cascades, and points that are not finite.
    let err = scene.cascade_heights(7).expect_err("no cascade 7");
    assert_eq!(err.to_string(), "no cascade 7: the scene has 3 (0 to 2)");
    let err = scene.cascade_origin(usize::MAX).expect_err("none");
    assert!(
        matches!(
            err,
            SceneError::NoCascade {
                k: usize::MAX,
                count: 3
            }
        ),
        "{err}"
    );
    for p in [Vec2::new(f32::NAN, 1.0), Vec2::new(1.0, f32::INFINITY)] {
        assert_eq!(
            scene.cascade_height_at(p).expect("no readback"),
            None,
            "{p}"
        );
    }
    assert_eq!(
        scene.cascade_height_at(Vec2::splat(1e30)).expect("ok"),
        None
    );

    for (count, needle) in [(0, "1 to 8"), (9, "1 to 8")] {
        let err = scene.set_cascades(count).expect_err("refused");
        assert!(
            matches!(err, SceneError::Cascades { .. }) && err.to_string().contains(needle),
            "{err}"
        );
    }
    let periodic = GridSpec {
        boundary: Boundary::Periodic,
        ..spec
    };
    let mut tank = cpu_scene(periodic, LandMask::empty(spec.size));
    let err = tank.set_cascades(2).expect_err("periodic edges");
    assert!(err.to_string().contains("absorbing"), "{err}");
}

/// A body beyond the finest grid and cascade 1, inside cascade 2, floats on cascade 2: a
/// wide swell landing there lifts it by most of the water's rise at its place (and
/// `Scene::surface_at` and `Scene::query_surfaces` answer the blended surface there); with the
/// grid alone the same body is off the water and stays where still water holds it.
#[test]
fn a_body_in_a_coarser_cascade_rides_its_water() {
    use water_scene::BodySpec;
    // Cascade 2's water is whole (its band past) from -18 m.
    let spec = wave_spec();
    let heave = |cascades: usize| {
        let mut scene = cpu_scene(spec, LandMask::empty(spec.size));
        scene.set_cascades(cascades).expect("cascades");
        let (float, rest) = box_at(-16.0, 8.0);
        let id = scene.add_body(BodySpec::new("box", float)).expect("add");
        // A swell 6 m across, 0.2 m high, raised under it (world cells of the finest grid).
        let centre = Vec2::new(-16.0, 8.0) / 0.25 - Vec2::splat(0.5);
        let swell = Impulse::new(centre, 24.0, 0.2, ImpulseShape::Cosine)
            .expect("swell")
            .with_displacement(true);
        scene.add_impulse(swell);
        let mut highest_body = f32::MIN;
        let mut highest_water = f32::MIN;
        for _ in 0..40 {
            scene.step().expect("step");
            highest_body = highest_body.max(scene.body(id).expect("box").position.z - rest);
            if cascades > 2 {
                let water = scene
                    .cascade_height_at(Vec2::new(-16.0, 8.0))
                    .expect("height")
                    .expect("covered");
                highest_water = highest_water.max(water);
                // Queries read the same blended surface.
                let query = scene
                    .surface_at(glam::Vec3::new(-16.0, 8.0, 0.0))
                    .expect("query")
                    .expect("water");
                assert!(
                    (query.point.z - water).abs() < 1e-6,
                    "{query:?} against {water}"
                );
                let mut batch = scene
                    .query_surfaces(&[glam::Vec3::new(-16.0, 8.0, 0.0)])
                    .expect("query");
                let answers = scene
                    .surfaces(&mut batch)
                    .expect("answers")
                    .expect("at once");
                assert_eq!(answers[0], Some(query), "the batch query answers the same");
            }
        }
        (highest_body, highest_water)
    };
    let (lifted, water) = heave(3);
    assert!(water > 0.1, "the swell rose {water} m at the box");
    assert!(
        lifted > 0.5 * water,
        "the box rose {lifted} m on cascade 2's {water} m"
    );
    eprintln!("box rose {lifted} m on {water} m of water");
    let (alone, _) = heave(1);
    assert!(
        alone.abs() < 1e-3,
        "off the grid alone the box moved {alone} m"
    );
}

/// The cascades resampled onto one grid (`Scene::cascade_heights_over`, what `water render`
/// draws around the finest grid) are the blended surface itself: each cell centre's value is
/// `Scene::cascade_height_at` there, to the bit, and 0 beyond the coarsest cascade.
#[test]
fn the_cascades_resampled_are_the_blended_surface() {
    let mut scene = scene_with_packet(2);
    scene.step_many(60).expect("steps");
    let corner = Vec2::new(-50.0, -30.0);
    let (cell, size) = (0.7, GridSize::new(300, 160).expect("size"));
    let over = scene
        .cascade_heights_over(corner, cell, size)
        .expect("resampled");
    let mut beyond = 0;
    for (i, &z) in over.iter().enumerate() {
        let c = Vec2::new((i % 300) as f32, (i / 300) as f32);
        let at = scene
            .cascade_height_at(corner + (c + Vec2::splat(0.5)) * cell)
            .expect("height");
        assert_eq!(z, at.unwrap_or(0.0), "cell {i}");
        beyond += usize::from(at.is_none());
    }
    assert!(
        beyond > 1000,
        "some cells lie beyond the coarsest cascade: {beyond}"
    );
    assert!(over.iter().any(|&z| z.abs() > 1e-3), "the packet is there");
}

/// A body in a cascade's water alone, taken out, leaves that water as stern events at the next
/// step, the same to the bit when another body is added far away before that step (the cascade
/// then settles the new body into both masks, and keeps the removed one's cut in them too;
/// without that a third of the fall was left, tried by hand).
#[test]
fn a_body_removed_from_a_cascade_leaves_as_stern_events() {
    use water_scene::{BodySpec, TowPath};
    let spec = wave_spec();
    let crate_at = |x: f32, y: f32| box_at(x, y).0;
    let mut afters = Vec::new();
    for add_another in [false, true] {
        let mut scene = cpu_scene(spec, LandMask::empty(spec.size));
        scene.set_cascades(2).expect("cascades");
        // Towed at 1 m/s from x = 28 m, beyond the finest grid, in cascade 1 alone.
        let path =
            TowPath::new(vec![Vec2::new(28.0, 8.0), Vec2::new(34.0, 8.0)], 1.0).expect("path");
        let id = scene
            .add_body(BodySpec::new("crate", crate_at(28.0, 8.0)).towed(path))
            .expect("crate");
        scene.step_many(10).expect("steps");
        let at = scene.body(id).expect("crate").position.truncate();
        let origin = scene.cascade_origin(1).expect("origin").as_vec2();
        let cell = ((at - origin) / 0.5).floor();
        let i = cell.y as usize * 96 + cell.x as usize;
        let before = scene.cascade_heights(1).expect("heights")[i];
        scene.remove_body(id).expect("remove");
        if add_another {
            scene
                .add_body(BodySpec::new("other", crate_at(6.0, 8.0)))
                .expect("another");
        }
        scene.step().expect("the step it leaves in");
        let after = scene.cascade_heights(1).expect("heights")[i];
        eprintln!(
            "add another {add_another}: cascade 1 under the crate {before:+.5} -> {after:+.5} m"
        );
        assert!(
            after < before - 1e-3,
            "add another {add_another}: the water where it floated falls: {before} -> {after} m"
        );
        afters.push(after);
    }
    // The other body, 22 m away, changes nothing there in one step.
    assert_eq!(afters[0], afters[1], "the same stern events either way");
}
