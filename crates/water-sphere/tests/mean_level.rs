//! The mean level is a conserved quantity of both sphere steppers when undamped: the mean
//! stepper conserves `sum deg(i) z_i`, Laplace-Beltrami `sum A_i z_i` (lumped areas), in exact
//! arithmetic; in f32 the mean-level keeper holds those sums to the exact recurrence
//! (`docs/math.md`, section 9; `docs/reliability.md`, "Volume conservation"), and a click
//! changes neither them nor their rate.
//!
//! Each soak records max |z| after the first 1,000 steps and then checks, every `chunk` steps,
//! that the weighted mean level has moved by less than 1e-4 of the current max |z| and that
//! max |z| stays within 2x of its early value.

use glam::Vec3;
use water_core::Damping;
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};

/// `sum w_i z_i / sum w_i` in the stepper's own weights.
fn weighted_mean(water: &SphereWater) -> f64 {
    let total: f64 = water.conserved_weights().iter().sum();
    water.conserved_sum() / total
}

fn peak(water: &SphereWater) -> f64 {
    water
        .heights()
        .iter()
        .fold(0.0f64, |m, &z| m.max(f64::from(z.abs())))
}

/// Worst `(level move / max |z|, max |z| / early max |z|)` over `steps` steps.
fn soak(water: &mut SphereWater, steps: u64, chunk: u64) -> (f64, f64) {
    let start = weighted_mean(water);
    water.step_many(1000);
    let early = peak(water);
    let (mut level, mut growth) = (0.0f64, 0.0f64);
    let mut done = 1000;
    while done < steps {
        let run = chunk.min(steps - done);
        water.step_many(run);
        done += run;
        let p = peak(water);
        level = level.max((weighted_mean(water) - start).abs() / p);
        growth = growth.max(p / early);
    }
    (level, growth)
}

fn assert_conserved(what: &str, (level, growth): (f64, f64)) {
    eprintln!("{what}: level {level:e} of max |z|, max |z| x{growth:.3}");
    assert!(
        level < 1e-4,
        "{what}: mean level moved by {level:e} of max |z|"
    );
    assert!(growth < 2.0, "{what}: max |z| grew {growth}x");
}

fn clicks() -> [SphereImpulse; 2] {
    [
        SphereImpulse::new(Vec3::new(0.3, 1.0, -0.2), 0.6, 0.05).expect("click"),
        SphereImpulse::new(Vec3::new(-1.0, 0.2, 0.7), 0.4, -0.03).expect("click"),
    ]
}

/// Laplace-Beltrami at 1 m/s with step `dt`.
fn laplace_beltrami(dt: f64) -> SphereStepper {
    SphereStepper::LaplaceBeltrami {
        wave_speed: 1.0,
        dt,
    }
}

/// Soaks undamped water on `sphere` with `stepper`, both clicks given, for `steps` steps checked
/// every `chunk`.
fn assert_clicked_water_conserved(
    what: &str,
    (sphere, stepper): (Icosphere, SphereStepper),
    steps: u64,
    chunk: u64,
) {
    let mut water = SphereWater::new(sphere, stepper, Damping::NONE).expect("water");
    for click in &clicks() {
        water.add_impulse(click);
    }
    assert_conserved(what, soak(&mut water, steps, chunk));
}

/// The demo's sphere (level 3, 642 vertices), mean stepper at `a = 1/2`, undamped, two clicks,
/// 10^6 steps. With the code before (no keeper, clicks zero-sum in area weights) the
/// degree-weighted mean level moved by 0.996 of max |z| and max |z| grew 159x (the level itself
/// rising); with the keeper and the clicks zero-sum in the stepper's weights, 7.8e-8 and 0.74x.
#[test]
fn mean_stepper_conserves_its_mean_level_over_a_million_steps() {
    let sphere = Icosphere::new(3, 1.0).expect("sphere");
    let water = (sphere, SphereStepper::Mean { a: 0.5 });
    assert_clicked_water_conserved("mean stepper, level 3", water, 1_000_000, 100_000);
}

/// Level 4 (2,562 vertices), Laplace-Beltrami at half its largest stable step, undamped, two
/// clicks, 2e5 steps. Without the keeper the area-weighted mean level moved by 3.8e-3 of
/// max |z|; with it, 1.8e-7.
#[test]
fn laplace_beltrami_stepper_conserves_its_mean_level_over_2e5_steps() {
    let sphere = Icosphere::new(4, 1.0).expect("sphere");
    let probe =
        SphereWater::new(sphere.clone(), laplace_beltrami(1e-3), Damping::NONE).expect("probe");
    let dt = 0.5 * probe.max_stable_coefficient().sqrt();
    let water = (sphere, laplace_beltrami(dt));
    assert_clicked_water_conserved("Laplace-Beltrami, level 4", water, 200_000, 20_000);
}

/// A click is zero-sum in the stepper's own weights, so the mean level does not start to
/// rise: on the demo's sphere with the mean stepper, one click, 2e5 undamped steps, the
/// degree-weighted mean level stays within 1e-4 of max |z| (measured: 2.6e-7). With the click
/// zero-sum in area weights (the code before) the click moved the degree-weighted sum's rate by
/// 3.8e-2 per step, and the level rose linearly, even in exact arithmetic: 1.9 m in 2e5 steps
/// after a click of 0.05 m, 0.99 of max |z|.
#[test]
fn a_click_leaves_the_mean_stepper_s_mean_level_and_its_rate_unchanged() {
    let sphere = Icosphere::new(3, 1.0).expect("sphere");
    let mut water =
        SphereWater::new(sphere, SphereStepper::Mean { a: 0.5 }, Damping::NONE).expect("water");
    assert_click_keeps_the_sum(&mut water, &clicks()[0], "level 3");
    let start = weighted_mean(&water);
    water.step_many(200_000);
    let level = (weighted_mean(&water) - start).abs() / peak(&water);
    eprintln!("one click, 2e5 steps: level {level:e} of max |z|");
    assert!(level < 1e-4, "the level moved by {level:e} of max |z|");
}

/// A click narrower than the mesh resolves, whose ring holds no vertex, still leaves the
/// conserved sum unchanged: its cap's water is taken from the vertices next to it (with no
/// ring the cap was added and kept: 7.98e-2 m^3 on level 0, 4.44e-2 m^3 on level 1).
#[test]
fn a_click_whose_ring_holds_no_vertex_leaves_the_water_s_volume_unchanged() {
    for (level, direction, radius) in [(0, Vec3::new(0.0, 1.0, 1.618_034), 0.3), (1, Vec3::Z, 0.35)]
    {
        let sphere = Icosphere::new(level, 1.0).expect("sphere");
        let mut water =
            SphereWater::new(sphere, SphereStepper::Mean { a: 0.5 }, Damping::NONE).expect("water");
        let click = SphereImpulse::new(direction, radius, 0.05).expect("click");
        assert_click_keeps_the_sum(&mut water, &click, &format!("level {level}"));
        let heights = water.heights();
        assert!(
            heights.iter().any(|&z| z > 0.01) && heights.iter().any(|&z| z < 0.0),
            "level {level}: a cap raised and water taken around it"
        );
    }
}

/// Clicks still `water` with `click` and checks the conserved sum is unchanged, the click's own
/// f32 rounding aside (1e-6 of the sum of |z| in the same weights).
fn assert_click_keeps_the_sum(water: &mut SphereWater, click: &SphereImpulse, what: &str) {
    let before = water.conserved_sum();
    water.add_impulse(click);
    let scale: f64 = water
        .heights()
        .iter()
        .zip(water.conserved_weights())
        .map(|(&z, w)| f64::from(z.abs()) * w)
        .sum();
    assert!(
        (water.conserved_sum() - before).abs() < 1e-6 * scale,
        "{what}: the click moved the conserved sum by {:e}",
        water.conserved_sum() - before
    );
}
