//! Physics on the sphere: spherical harmonics oscillate at the exact frequency on the
//! Laplace-Beltrami stepper; stability limits come from the operator's spectral radius.

use water_core::Damping;
use water_sphere::{GraphOperator, Icosphere, SphereError, SphereStepper, SphereWater};

/// Legendre polynomial P_l(x) by the three-term recurrence.
fn legendre(l: u32, x: f64) -> f64 {
    let (mut p0, mut p1) = (1.0, x);
    if l == 0 {
        return p0;
    }
    for n in 1..l {
        let n = f64::from(n);
        let p2 = ((2.0 * n + 1.0) * x * p1 - n * p0) / (n + 1.0);
        (p0, p1) = (p1, p2);
    }
    p1
}

/// Angular frequency of the projection of the heights on their start, from the times of its
/// zero crossings (linearly interpolated) over `periods` periods of the expected frequency.
fn measured_frequency(water: &mut SphereWater, shape: &[f32], dt: f64, expected: f64) -> f64 {
    let norm: f64 = shape.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    let project = |z: &[f32]| -> f64 {
        z.iter()
            .zip(shape)
            .map(|(&a, &b)| f64::from(a) * f64::from(b))
            .sum::<f64>()
            / norm
    };
    let steps = (3.0 * 2.0 * std::f64::consts::PI / expected / dt).ceil() as u64;
    let mut crossings = Vec::new();
    let mut prev = project(water.heights());
    for n in 1..=steps {
        water.step();
        let s = project(water.heights());
        if (prev > 0.0) != (s > 0.0) {
            let t = (n - 1) as f64 + prev / (prev - s);
            crossings.push(t * dt);
        }
        prev = s;
    }
    assert!(
        crossings.len() >= 4,
        "saw {} zero crossings",
        crossings.len()
    );
    // Consecutive crossings are half a period apart.
    let half_periods = (crossings.len() - 1) as f64;
    let period = 2.0 * (crossings[crossings.len() - 1] - crossings[0]) / half_periods;
    2.0 * std::f64::consts::PI / period
}

#[test]
fn spherical_harmonics_oscillate_at_c_sqrt_l_l_plus_1_over_r_within_one_percent() {
    let (radius, c) = (2.0f32, 1.5f64);
    let sphere = Icosphere::new(5, radius).expect("sphere");
    let probe = SphereWater::new(
        sphere.clone(),
        SphereStepper::LaplaceBeltrami {
            wave_speed: c,
            dt: 1e-4,
        },
        Damping::NONE,
    )
    .expect("probe");
    let dt_max = probe.max_stable_coefficient().sqrt() / c;
    let dt = 0.3 * dt_max;
    for l in 1..=6u32 {
        let mut water = SphereWater::new(
            sphere.clone(),
            SphereStepper::LaplaceBeltrami { wave_speed: c, dt },
            Damping::NONE,
        )
        .expect("water");
        let shape: Vec<f32> = sphere
            .positions()
            .iter()
            .map(|p| legendre(l, f64::from(p.z / radius)) as f32 * 0.01)
            .collect();
        water.set_at_rest(&shape).expect("shape");
        let exact = c * f64::from(l * (l + 1)).sqrt() / f64::from(radius);
        let measured = measured_frequency(&mut water, &shape, dt, exact);
        assert!(
            (measured / exact - 1.0).abs() < 0.01,
            "l = {l}: measured {measured:.5} rad/s, exact {exact:.5}"
        );
    }
}

#[test]
fn power_iteration_has_converged_within_its_margin() {
    let sphere = Icosphere::new(4, 1.0).expect("sphere");
    let adjacency = water_sphere::Adjacency::new(&sphere);
    for op in [
        GraphOperator::mean(&adjacency),
        GraphOperator::laplace_beltrami(&sphere, &adjacency),
    ] {
        let quick = op.spectral_radius(water_sphere::POWER_ITERATIONS);
        let long = op.spectral_radius(20 * water_sphere::POWER_ITERATIONS);
        assert!(long >= quick * (1.0 - 1e-9));
        assert!(
            long <= quick * (1.0 + water_sphere::SPECTRAL_MARGIN),
            "estimate {quick} vs {long}: the margin does not cover the iteration"
        );
    }
}

#[test]
fn settings_at_the_limit_stay_bounded_and_beyond_it_are_refused_or_blow_up() {
    let sphere = Icosphere::new(3, 1.0).expect("sphere");
    let probe = SphereWater::new(
        sphere.clone(),
        SphereStepper::Mean { a: 0.1 },
        Damping::NONE,
    )
    .expect("probe");
    let a_max = probe.max_stable_coefficient();
    assert!(a_max > 1.0 && a_max < 4.0, "a_max = {a_max}");
    let rough: Vec<f32> = (0..sphere.positions().len())
        .map(|i| ((i * 7919) % 101) as f32 * 0.01 - 0.5)
        .collect();

    let mut stable = SphereWater::new(
        sphere.clone(),
        SphereStepper::Mean { a: 0.999 * a_max },
        Damping::NONE,
    )
    .expect("stable");
    stable.set_at_rest(&rough).expect("shape");
    stable.step_many(20_000);
    let peak = stable.heights().iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(peak.is_finite() && peak < 50.0, "peak {peak}");

    let err = SphereWater::new(
        sphere.clone(),
        SphereStepper::Mean { a: 1.02 * a_max },
        Damping::NONE,
    )
    .expect_err("beyond the limit");
    match err {
        SphereError::Unstable { name, limit, .. } => {
            assert_eq!(name, "a");
            assert!((limit - a_max).abs() < 1e-12);
        }
        other => panic!("{other:?}"),
    }
    assert!(err_message_names_limit(&sphere));

    // And the limit is real: 10% past the spectral bound the same run blows up. The stepper
    // refuses that setting, so the operator is stepped directly.
    let op = GraphOperator::mean(&water_sphere::Adjacency::new(&sphere));
    let a = 1.1 * 4.0 / op.spectral_radius(5_000);
    let n = rough.len();
    let (mut cur, mut old): (Vec<f64>, Vec<f64>) =
        (rough.iter().map(|&v| f64::from(v)).collect(), vec![0.0; n]);
    old.copy_from_slice(&cur);
    let mut lap = vec![0.0; n];
    for _ in 0..2_000 {
        op.apply(&cur, &mut lap);
        for i in 0..n {
            old[i] = 2.0 * cur[i] - old[i] + a * lap[i];
        }
        std::mem::swap(&mut cur, &mut old);
    }
    assert!(
        cur.iter().any(|v| !v.is_finite() || v.abs() > 1e3),
        "10% past the limit stayed bounded"
    );
}

fn err_message_names_limit(sphere: &Icosphere) -> bool {
    let err = SphereWater::new(
        sphere.clone(),
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt: 10.0,
        },
        Damping::NONE,
    )
    .expect_err("dt far too large");
    let msg = err.to_string();
    msg.contains("dt = 10") && msg.contains("largest stable dt")
}

#[test]
fn the_mean_stepper_is_the_demos_update() {
    let sphere = Icosphere::new(2, 1.0).expect("sphere");
    let mut water = SphereWater::new(
        sphere.clone(),
        SphereStepper::Mean { a: 0.7 },
        Damping::NONE,
    )
    .expect("water");
    let n = sphere.positions().len();
    let start: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
    water.set_at_rest(&start).expect("shape");
    water.step();
    for (i, &z_new) in water.heights().iter().enumerate() {
        let ring = water.adjacency().neighbours(i);
        let mean = ring
            .iter()
            .map(|&j| f64::from(start[j as usize]))
            .sum::<f64>()
            / ring.len() as f64;
        let demo = 0.7 * mean + (2.0 - 0.7) * f64::from(start[i]) - f64::from(start[i]);
        assert!((f64::from(z_new) - demo).abs() < 1e-5, "vertex {i}");
    }
    assert!(matches!(
        SphereWater::new(
            sphere,
            SphereStepper::Mean { a: 0.5 },
            Damping::PerSecond(0.5)
        ),
        Err(SphereError::DampingPerSecond)
    ));
}
