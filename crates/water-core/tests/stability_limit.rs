//! Physics: `a = 1/2` is the stability limit of the five-point stencil.

mod support;

use support::{set_at_rest, signed};
use water_core::{Boundary, Damping, GridWater, StabilityReport, WaterError, WaveParams};

#[test]
fn a_at_the_limit_with_a_fixed_boundary_stays_bounded_over_1e5_steps() {
    let mut grid = signed(33, 29, 0.5, Boundary::Fixed);
    // A rough start excites every mode, the checkerboard included.
    set_at_rest(&mut grid, |x, y| {
        if (1.0..32.0).contains(&x) && (1.0..28.0).contains(&y) {
            ((x * 7.0 + y * 13.0) % 11.0) / 11.0 - 0.5
        } else {
            0.0
        }
    });
    let e0 = grid.energy();
    let mut peak = 0.0f32;
    for _ in 0..100_000 {
        grid.step();
        peak = grid.current().iter().fold(peak, |m, z| m.max(z.abs()));
    }
    assert!(peak.is_finite() && peak < 50.0, "peak |z| = {peak}");
    assert!((grid.energy() / e0 - 1.0).abs() < 0.01);
}

#[test]
fn a_just_above_the_limit_is_rejected_naming_a_the_limit_and_the_largest_stable_dt() {
    let (h, c) = (0.1, 2.0);
    let max_dt = h / (c * 2f64.sqrt());
    let err = WaveParams::new(h, c, max_dt * 1.001, Damping::NONE).expect_err("unstable");
    match &err {
        WaterError::Unstable {
            courant,
            limit,
            max_stable_dt,
        } => {
            assert!(*courant > 0.5);
            assert_eq!(*limit, 0.5);
            assert!((max_stable_dt - max_dt).abs() < 1e-15);
        }
        other => panic!("wrong error {other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("0.5") && msg.contains("largest stable dt"),
        "{msg}"
    );
    assert!(
        WaveParams::new(h, c, max_dt, Damping::NONE).is_ok(),
        "the limit itself is stable"
    );
}

#[test]
fn an_unstable_setting_really_blows_up() {
    // Shows the limit is not arbitrary: the same run with a slightly larger a diverges. The
    // kernel is driven directly because validated parameters refuse this setting.
    use water_core::kernels::grid_step::grid_step;
    use water_core::{GridSize, Parallelism, StencilCoefficients};
    let size = GridSize::new(33, 29).expect("size");
    let k = StencilCoefficients::new(0.52, 1.0);
    let mut cur: Vec<f32> = (0..size.cells())
        .map(|i| ((i * 7919) % 101) as f32 * 0.001)
        .collect();
    let mut old = cur.clone();
    for _ in 0..2_000 {
        grid_step(
            size,
            k,
            Boundary::Periodic,
            &cur,
            &mut old,
            Parallelism::Serial,
        );
        std::mem::swap(&mut cur, &mut old);
    }
    let blew_up = cur.iter().any(|z| !z.is_finite() || z.abs() > 1e3);
    assert!(blew_up, "a = 0.52 stayed bounded");
}

#[test]
fn stability_report_counts_substeps() {
    let r = StabilityReport::new(2.0, 0.1, Some(0.1)).expect("report");
    assert!(!r.is_stable());
    let max = 0.1 / (2.0 * 2f64.sqrt());
    assert!((r.max_stable_dt - max).abs() < 1e-15);
    assert_eq!(r.substeps, (0.1 / max).ceil() as u64);
    let exact = StabilityReport::new(2.0, 0.1, Some(2.0 * max)).expect("report");
    assert_eq!(
        exact.substeps, 2,
        "an exact multiple needs no extra substep"
    );
}

/// An unstable step names the largest stable one as a reader can write it back (rounded toward
/// zero, so that it is stable); where even that is shorter than the shortest `dt` allowed, it
/// says no allowed step is stable and what to change instead (it named 7.071e-13 s, which the
/// `dt` range then refused).
#[test]
fn an_unstable_step_names_a_stable_one_that_can_be_written() {
    let e = WaveParams::new(0.1, 2.0, 0.05, Damping::NONE).expect_err("a = 1");
    let said = e.to_string();
    assert!(said.contains("is 0.03535 s"), "{said}");
    WaveParams::new(0.1, 2.0, 0.03535, Damping::NONE).expect("the step named is stable");
    let e = WaveParams::new(1e-6, 1e6, 1e-9, Damping::NONE).expect_err("a = 2e6");
    let said = e.to_string();
    assert!(
        said.contains("no allowed dt is stable for this cell size and wave speed")
            && said.contains("7.071e-13 s, is below the shortest allowed, 1e-9 s"),
        "{said}"
    );
}
