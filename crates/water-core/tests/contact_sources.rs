//! Bow and stern waves: contact events exactly as DESIGN.md defines them.

mod support;

use water_core::kernels::grid_step::grid_step;
use water_core::{
    Boundary, ContactMasks, Damping, GridSize, GridWater, Parallelism, SignedGrid, SplitGrid,
    WaveParams,
};

const A: f32 = 0.25;

/// A 3-cell hull moving one cell right per step along row 8.
fn hull_at(size: GridSize, x: usize, speed: f32) -> Vec<f32> {
    let mut m = vec![0.0; size.cells()];
    for dx in 0..3 {
        m[size.index(x + dx, 8)] = speed;
    }
    m
}

#[test]
fn split_mode_sets_p_at_the_bow_and_n_at_the_stern() {
    let size = GridSize::new(24, 16).expect("size");
    let params = support::params_for(0.25, Damping::PerStep(0.995));
    let k = params.coefficients();
    let mut grid = SplitGrid::new(size, params, Boundary::Reflective);
    let mut contacts = ContactMasks::new(size, A).expect("masks");
    let (mut p, mut p_old) = (vec![0.0f32; size.cells()], vec![0.0f32; size.cells()]);
    let (mut n, mut n_old) = (p.clone(), p.clone());
    let mut prev_speed = 0.0;
    for step in 0..10 {
        let speed = 1.0 + step as f32 * 0.1;
        let mask = hull_at(size, 4 + step, speed);
        contacts.advance(&mask).expect("mask");
        grid.step_with_contacts(&contacts).expect("step");

        // The same step restated: stencil on both channels, then the two events.
        grid_step(
            size,
            k,
            Boundary::Reflective,
            &p,
            &mut p_old,
            Parallelism::Serial,
        );
        grid_step(
            size,
            k,
            Boundary::Reflective,
            &n,
            &mut n_old,
            Parallelism::Serial,
        );
        std::mem::swap(&mut p, &mut p_old);
        std::mem::swap(&mut n, &mut n_old);
        let (c_new, c_old) = (contacts.new_mask(), contacts.old_mask());
        for i in 0..size.cells() {
            if c_new[i] > 0.0 && c_old[i] == 0.0 {
                p[i] = A * c_new[i];
            } else if c_new[i] == 0.0 && c_old[i] > 0.0 {
                n[i] = A * c_old[i];
            }
        }
        assert_eq!(grid.positive().current(), &p[..], "p at step {step}");
        assert_eq!(grid.negative().current(), &n[..], "n at step {step}");
        if step > 0 {
            // The bow cell (just entered) holds exactly A * speed in p; the stern cell (just
            // left) holds exactly A * previous speed in n.
            let bow = size.index(4 + step + 2, 8);
            let stern = size.index(4 + step - 1, 8);
            assert_eq!(grid.positive().current()[bow], A * speed);
            assert_eq!(grid.negative().current()[stern], A * prev_speed);
        }
        prev_speed = speed;
    }
    let height = grid.heights();
    let ahead = height[size.index(15, 8)]; // the bow cell of the last step
    let behind = height[size.index(12, 8)]; // the stern cell of the last step
    assert!(
        ahead > 0.0 && behind < 0.0,
        "crest ahead {ahead}, trough behind {behind}"
    );
}

#[test]
fn signed_mode_adds_the_same_events_with_signs() {
    let size = GridSize::new(24, 16).expect("size");
    let params = support::params_for(0.25, Damping::NONE);
    let k = params.coefficients();
    let mut grid = SignedGrid::new(size, params, Boundary::Fixed);
    let mut contacts = ContactMasks::new(size, A).expect("masks");
    let (mut z, mut z_old) = (vec![0.0f32; size.cells()], vec![0.0f32; size.cells()]);
    for step in 0..8 {
        contacts
            .advance(&hull_at(size, 5 + step, 2.0))
            .expect("mask");
        grid.step_with_contacts(&contacts).expect("step");
        grid_step(
            size,
            k,
            Boundary::Fixed,
            &z,
            &mut z_old,
            Parallelism::Serial,
        );
        std::mem::swap(&mut z, &mut z_old);
        let (c_new, c_old) = (contacts.new_mask(), contacts.old_mask());
        for i in 0..size.cells() {
            if c_new[i] > 0.0 && c_old[i] == 0.0 {
                z[i] += A * c_new[i];
            } else if c_new[i] == 0.0 && c_old[i] > 0.0 {
                z[i] -= A * c_old[i];
            }
        }
        assert_eq!(grid.current(), &z[..], "step {step}");
    }
}

#[test]
fn masks_of_the_wrong_size_or_with_bad_values_are_refused() {
    let size = GridSize::new(8, 8).expect("size");
    let mut contacts = ContactMasks::new(size, A).expect("masks");
    assert!(contacts.advance(&[0.0; 63]).is_err());
    let mut bad = vec![0.0; 64];
    bad[9] = -1.0;
    let err = contacts.advance(&bad).expect_err("negative");
    assert!(err.to_string().contains("(1, 1)"), "{err}");
    bad[9] = f32::NAN;
    assert!(contacts.advance(&bad).is_err());

    let other = ContactMasks::new(GridSize::new(9, 8).expect("size"), A).expect("masks");
    let mut grid = SignedGrid::new(
        size,
        support::params_for(0.25, Damping::NONE),
        Boundary::Fixed,
    );
    assert!(grid.step_with_contacts(&other).is_err());
}

/// Amplitudes and speed factors whose product could overflow f32 are refused: the largest
/// allowed of both make finite waves.
#[test]
fn contact_amplitudes_and_speeds_are_bounded_so_heights_stay_finite() {
    use water_core::{MAX_CONTACT_AMPLITUDE, MAX_MASK_VALUE};
    let size = GridSize::new(16, 16).expect("size");
    let e = ContactMasks::new(size, 3.4e38).expect_err("too large");
    assert!(e.to_string().contains("contact amplitude"), "{e}");
    let mut masks = ContactMasks::new(size, MAX_CONTACT_AMPLITUDE).expect("largest");
    let mut mask = vec![0.0; size.cells()];
    mask[8 * 16 + 8] = MAX_MASK_VALUE * 2.0;
    let e = masks.advance(&mask).expect_err("too fast");
    assert!(e.to_string().contains("(8, 8)"), "{e}");
    mask[8 * 16 + 8] = MAX_MASK_VALUE;
    masks.advance(&mask).expect("the limit");
    let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE).expect("params");
    let mut grid = SignedGrid::new(size, params, Boundary::Reflective);
    grid.step_with_contacts(&masks).expect("step");
    for _ in 0..50 {
        grid.step();
    }
    assert!(grid.heights().iter().all(|z| z.is_finite()));
}

/// The pressure patch needs one signed field of metres: signed water takes it (the cells it
/// moves get the same shift on both levels, so the water starts moving at rest), split and
/// classic grids refuse it by name and are left unstepped.
#[test]
fn the_pressure_patch_is_taken_by_signed_water_and_refused_by_split_and_classic() {
    let size = GridSize::new(24, 16).expect("size");
    let params = support::params_for(0.25, Damping::NONE);
    let mut contacts = ContactMasks::new(size, 1.0)
        .expect("masks")
        .with_source(water_core::ContactSource::Displacement);
    contacts.advance(&hull_at(size, 5, 0.05)).expect("mask");
    let mut signed = SignedGrid::new(size, params, Boundary::Reflective);
    signed
        .step_with_contacts(&contacts)
        .expect("signed water takes it");
    let (z, z_old) = (signed.field().current(), signed.field().previous());
    let i = size.index(6, 8);
    assert_eq!(
        (z[i], z_old[i]),
        (0.05, 0.05),
        "moved on both levels, at rest"
    );
    let mut split = SplitGrid::new(size, params, Boundary::Reflective);
    let mut classic = water_core::ClassicGrid::new(size, 1.0, Some(5)).expect("classic");
    let grids: [&mut dyn GridWater; 2] = [&mut split, &mut classic];
    for grid in grids {
        let err = grid.step_with_contacts(&contacts).expect_err("refused");
        assert!(
            matches!(err, water_core::WaterError::ContactSourceNotOffered { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("displacement"), "{err}");
        assert_eq!(grid.steps_taken(), 0, "nothing stepped");
    }
}
