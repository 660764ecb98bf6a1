//! Property tests: random accepted shapes, masses, poses and time steps give bodies that stay
//! finite on water; refused numbers give the typed error naming the value.

use glam::{EulerRot, Quat, Vec3};
use proptest::prelude::*;
use water_buoyancy::{
    BodyState, BuoyancyError, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape,
    Wrench,
};
use water_core::FlatWater;

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.05..2.0f32, 0.05..2.0f32, 0.05..2.0f32)
            .prop_map(|(x, y, z)| Shape::cuboid(Vec3::new(x, y, z)).expect("box")),
        (0.05..2.0f32).prop_map(|r| Shape::sphere(r).expect("ball")),
        (0.05..1.0f32, 0.0..2.0f32).prop_map(|(r, l)| Shape::capsule(r, l).expect("capsule")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn accepted_bodies_stay_finite(
        shape in shape(),
        density_ratio in 0.05..3.0f32,
        position in (-2.0..2.0f32, -2.0..2.0f32, -2.0..2.0f32),
        angles in (-3.2..3.2f32, -3.2..3.2f32, -3.2..3.2f32),
        velocity in (-5.0..5.0f32, -5.0..5.0f32, -5.0..5.0f32),
        rates in (0.0..8.0f32, 0.0..2.0f32, 0.0..8.0f32),
        dt in 1e-3..0.05f32,
    ) {
        // Mass from a density relative to water: from floating high to sinking fast.
        let mass = density_ratio * 1000.0 * shape.volume();
        let orientation = Quat::from_euler(EulerRot::XYZ, angles.0, angles.1, angles.2);
        let pose = Pose::new(Vec3::new(position.0, position.1, position.2), orientation)
            .expect("finite position, unit rotation");
        let state = BodyState {
            pose,
            linear_velocity: Vec3::new(velocity.0, velocity.1, velocity.2),
            angular_velocity: Vec3::ZERO,
        };
        let body = RigidBody::from_shape(&shape, mass, state).expect("positive mass");
        let hull = Hull::new(shape, Pose::IDENTITY).expect("hull");
        let rates = DragRates::new(rates.0, rates.1, rates.2).expect("non-negative rates");
        let mut floating =
            FloatingBody::archimedes(body, vec![hull], 1000.0, rates).expect("body");
        for step in 0..40 {
            let result = floating
                .step(&FlatWater::default(), &Gravity::EARTH, dt, Wrench::ZERO)
                .map_err(|e| TestCaseError::fail(format!("step {step}: {e}")))?;
            let s = floating.body.state;
            prop_assert!(
                s.pose.position.is_finite() && s.linear_velocity.is_finite()
                    && s.angular_velocity.is_finite() && result.submerged_volume.is_finite(),
                "step {}: {:?}", step, s
            );
            // Bounded: weight and full-depth buoyancy give at most g down or
            // (rho_water / rho_body - 1) g up, and drag only slows, so the speed is at most
            // the start speed plus that acceleration times the time run.
            let most_acceleration = 9.81 * (1.0f32).max(1.0 / density_ratio - 1.0);
            let bound = 5.0 * 3f32.sqrt() + most_acceleration * dt * (step + 1) as f32 + 1.0;
            prop_assert!(s.linear_velocity.length() <= bound, "{} > {}", s.linear_velocity, bound);
        }
    }

    #[test]
    fn refused_numbers_are_named(
        bad in prop_oneof![
            Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY), Just(0.0f32),
            -1e6..-1e-6f32,
        ],
        which in 0usize..4,
    ) {
        let (result, name) = match which {
            0 => (Shape::sphere(bad).map(|_| ()), "sphere radius"),
            1 => (Shape::cuboid(Vec3::new(1.0, bad, 1.0)).map(|_| ()), "box half extent"),
            2 => (
                RigidBody::new(bad, glam::Mat3::IDENTITY, BodyState::default()).map(|_| ()),
                "mass",
            ),
            _ => (DragRates::new(1.0, bad, 1.0).map(|_| ()), "quadratic drag rate"),
        };
        if which == 3 && bad == 0.0 {
            prop_assert!(result.is_ok(), "a zero drag rate is allowed");
            return Ok(());
        }
        let e = result.expect_err("refused");
        let value = match &e {
            BuoyancyError::NotFinite { value, .. }
            | BuoyancyError::NotPositive { value, .. }
            | BuoyancyError::Negative { value, .. } => *value,
            other => return Err(TestCaseError::fail(format!("{other}"))),
        };
        let m = e.to_string();
        prop_assert!(m.contains(name), "{}", m);
        prop_assert!(value.to_bits() == f64::from(bad).to_bits() || bad.is_nan(), "{}", m);
        prop_assert!(m.contains(&f64::from(bad).to_string()), "{}", m);
    }
}
