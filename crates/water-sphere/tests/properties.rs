//! Property tests: random accepted radii, steppers and clicks give finite sphere water; radii
//! outside the allowed range and clicks toward huge or tiny directions are handled by name.

use glam::Vec3;
use proptest::prelude::*;
use water_core::Damping;
use water_sphere::RADIUS_RANGE;
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn accepted_spheres_and_clicks_step_finite(
        level in 0u32..3,
        radius_exp in -6.0..9.0f32,
        mean in any::<bool>(),
        fraction in 0.05..0.9f64,
        dir in (-1e30..1e30f32, -1.0..1.0f32, -1.0..1.0f32),
        click_radius in 0.1..3.0f32,
        amplitude in -1.0..1.0f32,
    ) {
        let radius = 10f32.powf(radius_exp).clamp(RADIUS_RANGE.0, RADIUS_RANGE.1);
        let sphere = Icosphere::new(level, radius).expect("radius in range");
        // A stepper at a fraction of its limit: probe the limit with a refused setting first.
        let probe = if mean {
            SphereStepper::Mean { a: 1e6 }
        } else {
            SphereStepper::LaplaceBeltrami { wave_speed: 1.0, dt: 1e6 * f64::from(radius) }
        };
        let limit = match SphereWater::new(sphere.clone(), probe, Damping::NONE) {
            Err(water_sphere::SphereError::Unstable { limit, .. }) => limit,
            other => return Err(TestCaseError::fail(format!("{other:?}"))),
        };
        let stepper = if mean {
            SphereStepper::Mean { a: fraction * limit }
        } else {
            SphereStepper::LaplaceBeltrami { wave_speed: 1.0, dt: fraction * limit }
        };
        let mut water = SphereWater::new(sphere, stepper, Damping::PerStep(0.999))
            .expect("below the limit");
        let click = SphereImpulse::new(Vec3::new(dir.0, dir.1, dir.2), click_radius, amplitude)
            .expect("a finite, non-zero direction");
        prop_assert!((click.direction.length() - 1.0).abs() < 1e-5, "{}", click.direction);
        water.add_impulse(&click);
        for _ in 0..20 {
            water.step();
        }
        prop_assert!(water.heights().iter().all(|z| z.is_finite() && z.abs() <= 100.0));
        prop_assert!(water.volume().is_finite());
    }

    #[test]
    fn radii_outside_the_range_are_refused_by_name(
        radius in prop_oneof![
            Just(f32::NAN), Just(f32::INFINITY), Just(0.0f32), -1e6..0.0f32,
            1e-30..9e-7f32, 1.1e9..f32::MAX,
        ],
    ) {
        let e = Icosphere::new(1, radius).expect_err("outside the range");
        let m = e.to_string();
        prop_assert!(m.contains("radius"), "{}", m);
        let v = f64::from(radius);
        prop_assert!(m.contains(&v.to_string()) || m.contains(&format!("{v:?}")), "{}", m);
    }
}
