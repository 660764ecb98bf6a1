//! Property tests: random accepted parameters give finite, bounded water in every mode and
//! boundary; random refused ones give the typed error naming the value. A few dozen cases of
//! small grids, so the suite takes seconds (the fuzz targets in `fuzz/` go wider).

use glam::Vec2;
use proptest::prelude::*;
use water_core::{
    Boundary, ClassicGrid, Damping, GridSize, GridWater, Impulse, ImpulseShape, LandMask,
    SignedGrid, SplitGrid, WaterError, WaveParams,
};

/// Numbers no parameter accepts where a positive finite one is needed.
fn not_positive_or_finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        -1e9..-1e-9,
    ]
}

/// `(h, c, dt)` with `dt` a fraction of the largest stable step, so `a <= 1/2`.
fn stable_params() -> impl Strategy<Value = (f64, f64, f64)> {
    (0.01..10.0f64, 0.01..50.0f64, 0.05..=1.0f64)
        .prop_map(|(h, c, s)| (h, c, s * h / (c * 2f64.sqrt())))
}

#[derive(Debug, Clone)]
struct Drop {
    at: (f32, f32),
    radius: f32,
    amplitude: f32,
    shape: ImpulseShape,
    displacement: bool,
    step: u32,
}

fn drops() -> impl Strategy<Value = Vec<Drop>> {
    let one = (
        (-4.0..28.0f32, -4.0..28.0f32),
        0.5..10.0f32,
        -1.0..1.0f32,
        prop::sample::select(ImpulseShape::ALL.to_vec()),
        any::<bool>(),
        0..40u32,
    )
        .prop_map(|(at, radius, amplitude, shape, displacement, step)| Drop {
            at,
            radius,
            amplitude,
            shape,
            displacement,
            step,
        });
    prop::collection::vec(one, 1..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn accepted_parameters_give_finite_bounded_water(
        (w, h) in (3usize..24, 3usize..24),
        (cell, speed, dt) in stable_params(),
        damping in prop_oneof![
            (0.9..=1.0f64).prop_map(Damping::PerStep),
            (0.1..=1.0f64).prop_map(Damping::PerSecond),
        ],
        boundary in prop::sample::select(Boundary::ALL.to_vec()),
        split in any::<bool>(),
        drops in drops(),
        land in prop::option::of((0usize..24, 0usize..24, 1usize..6, 1usize..6)),
    ) {
        let size = GridSize::new(w, h).expect("3..24 cells");
        let params = WaveParams::new(cell, speed, dt, damping).expect("a <= 1/2");
        prop_assert!(params.courant() <= 0.5 + 1e-9);
        let mut water: Box<dyn GridWater> = if split {
            Box::new(SplitGrid::new(size, params, boundary))
        } else {
            Box::new(SignedGrid::new(size, params, boundary))
        };
        if let Some((x0, y0, dx, dy)) = land {
            let mut mask = LandMask::empty(size);
            mask.add_rect(x0, y0, x0 + dx, y0 + dy).expect("a non-empty rectangle");
            water.set_land(mask).expect("same size");
        }
        let mut total = 0.0f32;
        const STEPS: u32 = 40;
        for step in 0..STEPS {
            for d in drops.iter().filter(|d| d.step == step) {
                let impulse = Impulse::new(Vec2::from(d.at), d.radius, d.amplitude, d.shape)
                    .expect("finite values, positive radius");
                water.add_impulse(&impulse.with_displacement(d.displacement));
                total += d.amplitude.abs();
            }
            water.step();
        }
        // Bounded: a stable stencil keeps the oscillating part within the energy it was given,
        // and an impulse of non-zero sum moves the mean level at most its amplitude per step.
        let bound = 8.0 * total * (STEPS as f32 + 1.0);
        for (i, z) in water.heights().iter().enumerate() {
            prop_assert!(z.is_finite() && z.abs() <= bound, "cell {i}: {z} (bound {bound})");
        }
        prop_assert!(water.volume().is_finite() && water.energy().is_finite());
    }

    #[test]
    fn classic_grids_stay_within_i16_and_never_panic(
        (w, h) in (3usize..24, 3usize..24),
        shift in prop::option::of(1u32..=15),
        amplitude in -40_000.0..40_000.0f32,
        radius in 0.5..12.0f32,
    ) {
        let size = GridSize::new(w, h).expect("size");
        let mut ripple = ClassicGrid::new(size, 1.0, shift).expect("shift in 1..=15");
        let centre = Vec2::new(w as f32 / 2.0, h as f32 / 2.0);
        ripple.add_impulse(&Impulse::new(centre, radius, amplitude, ImpulseShape::Cosine)
            .expect("impulse"));
        for _ in 0..30 {
            ripple.step();
        }
        prop_assert_eq!(ripple.current().len(), size.cells());
        prop_assert!(ripple.volume().is_finite());
    }

    #[test]
    fn refused_numbers_are_named_in_the_error(
        bad in not_positive_or_finite(),
        which in 0usize..3,
    ) {
        let mut args = [0.1, 1.0, 0.01];
        args[which] = bad;
        let name = ["cell_size", "wave_speed", "dt"][which];
        let e = WaveParams::new(args[0], args[1], args[2], Damping::NONE)
            .expect_err("not finite or not positive");
        let value = match &e {
            WaterError::NotFinite { name: n, value } | WaterError::NotPositive { name: n, value } => {
                prop_assert_eq!(*n, name);
                *value
            }
            other => return Err(TestCaseError::fail(format!("{other}"))),
        };
        prop_assert!(value.to_bits() == bad.to_bits() || bad.is_nan());
        let message = e.to_string();
        prop_assert!(message.contains(name) && message.contains(&bad.to_string()), "{}", message);
    }

    #[test]
    fn steps_past_the_limit_are_refused_with_the_largest_stable_one(
        h in 0.01..10.0f64,
        c in 0.01..50.0f64,
        over in 1.001..100.0f64,
    ) {
        let max_dt = h / (c * 2f64.sqrt());
        let e = WaveParams::new(h, c, over * max_dt, Damping::NONE).expect_err("a > 1/2");
        match e {
            WaterError::Unstable { courant, limit, max_stable_dt } => {
                prop_assert!(courant > limit);
                prop_assert!((max_stable_dt - max_dt).abs() <= 1e-12 * max_dt);
            }
            other => return Err(TestCaseError::fail(format!("{other}"))),
        }
    }

    #[test]
    fn damping_outside_zero_to_one_is_refused_by_name(
        d in prop_oneof![-10.0..=0.0f64, 1.0000001..10.0f64, Just(f64::NAN)],
        per_second in any::<bool>(),
    ) {
        let (damping, name) = if per_second {
            (Damping::PerSecond(d), "damping_per_second")
        } else {
            (Damping::PerStep(d), "damping")
        };
        let e = WaveParams::new(0.1, 1.0, 0.01, damping).expect_err("outside (0, 1]");
        prop_assert!(e.to_string().contains(name), "{}", e);
    }

    /// A per-step damping factor, or an impulse's amplitude, below f32's least normal number
    /// would be 0 in the f32 water (full damping; an impulse that adds nothing): refused by name
    /// with the least it takes, while that least itself is taken.
    #[test]
    fn numbers_that_f32_holds_as_zero_are_refused_not_lost(
        tiny in prop_oneof![Just(1e-320f64), Just(1e-46f64), 1e-300..1.1e-38f64],
        negative in any::<bool>(),
    ) {
        let e = WaveParams::new(0.1, 1.0, 0.01, Damping::PerStep(tiny)).expect_err("below f32");
        prop_assert!(e.to_string().contains("damping") && e.to_string().contains("1.17549435e-38"), "{}", e);
        let least = f64::from(f32::MIN_POSITIVE);
        prop_assert!(WaveParams::new(0.1, 1.0, 0.01, Damping::PerStep(least)).is_ok());
        let amplitude = if negative { -tiny } else { tiny };
        let e = water_core::check_impulse_amplitude(amplitude).expect_err("below f32");
        prop_assert!(e.to_string().contains("impulse amplitude") && e.to_string().contains("1.17549435e-38"), "{}", e);
        prop_assert!(water_core::check_impulse_amplitude(least).is_ok());
        prop_assert!(water_core::check_impulse_amplitude(0.0).is_ok());
    }

    #[test]
    fn grid_sizes_outside_the_limits_name_the_axis_and_value(
        small in 0usize..3,
        large in 65_537usize..10_000_000,
        width_bad in any::<bool>(),
        use_large in any::<bool>(),
    ) {
        let bad = if use_large { large } else { small };
        let (w, h, axis) = if width_bad { (bad, 16, "width") } else { (16, bad, "height") };
        let e = GridSize::new(w, h).expect_err("outside 3..=65536");
        prop_assert!(
            matches!(e, WaterError::GridDimension { axis: a, value, .. } if a == axis && value == bad),
            "{}", e
        );
        prop_assert!(e.to_string().contains(&bad.to_string()));
    }

    #[test]
    fn impulses_with_a_bad_number_are_refused_by_name(
        bad in prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY)],
        which in 0usize..4,
    ) {
        let mut v = [8.0f32, 8.0, 3.0, 0.5];
        v[which] = bad;
        let name = ["impulse x", "impulse y", "impulse radius", "impulse amplitude"][which];
        let e = Impulse::new(Vec2::new(v[0], v[1]), v[2], v[3], ImpulseShape::Cosine)
            .expect_err("not finite");
        prop_assert!(e.to_string().contains(name), "{}", e);
        prop_assert!(e.to_string().contains(&f64::from(bad).to_string()), "{}", e);
    }

    #[test]
    fn classic_shifts_outside_one_to_fifteen_are_refused_with_the_shift(
        shift in prop_oneof![Just(0u32), 16u32..u32::MAX],
    ) {
        let size = GridSize::new(8, 8).expect("size");
        let e = ClassicGrid::new(size, 1.0, Some(shift)).expect_err("outside 1..=15");
        prop_assert!(e.to_string().contains("classic_shift"), "{}", e);
        prop_assert!(e.to_string().contains(&shift.to_string()), "{}", e);
    }
}
