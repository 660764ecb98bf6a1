//! A tumbling body's rotation with no torque: Euler's equations keep the angular momentum
//! `|I Omega|` and the energy `Omega . I Omega / 2`; spin about the largest or smallest
//! principal axis is stable, and spin about the middle one flips over and back (the
//! tennis-racket, or Dzhanibekov, effect). Each checked at a game's step and at long steps.

use glam::{DMat3, DVec3, Quat, Vec3};
use water_buoyancy::{
    BodyState, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Wrench,
};
use water_core::FlatWater;

/// A 2 t box of 1.88 m x 4 m x 1.52 m (principal moments about x, y and z of 3,050, 974 and
/// 3,255 kg m^2: x is the middle axis), 1,000 km above the water so only gravity acts (it falls 441 km in 300 s), spinning at
/// `spin` rad/s (body axes) with no drag.
fn tumbling_box(spin: Vec3) -> FloatingBody {
    let shape = Shape::cuboid(Vec3::new(0.94, 2.0, 0.76)).expect("shape");
    let state = BodyState {
        pose: Pose::new(Vec3::new(0.0, 0.0, 1e6), Quat::IDENTITY).expect("pose"),
        linear_velocity: Vec3::ZERO,
        angular_velocity: spin,
    };
    let body = RigidBody::from_shape(&shape, 2000.0, state).expect("body");
    let hull = Hull::new(shape, Pose::IDENTITY).expect("hull");
    let rates = DragRates::new(0.0, 0.0, 0.0).expect("rates");
    FloatingBody::archimedes(body, vec![hull], 1000.0, rates).expect("floating")
}

/// The spin in body axes, rad/s, in f64.
fn body_spin(body: &RigidBody) -> DVec3 {
    let axes = DMat3::from_quat(body.state.pose.orientation.as_dquat().normalize());
    axes.transpose() * body.state.angular_velocity.as_dvec3()
}

/// Angular momentum magnitude (kg m^2/s) and rotational energy (J).
fn invariants(body: &RigidBody) -> (f64, f64) {
    let spin = body_spin(body);
    let momentum = body.inertia().as_dmat3() * spin;
    (momentum.length(), 0.5 * spin.dot(momentum))
}

/// Steps the box for `seconds` at `dt`, returning the largest relative change of |L| and of
/// the energy, and the smallest and largest body-axes spin about x, y and z seen.
fn tumble(spin: Vec3, dt: f32, seconds: f32) -> (f64, f64, DVec3, DVec3) {
    let mut floating = tumbling_box(spin);
    let (l0, e0) = invariants(&floating.body);
    let (mut dl, mut de) = (0.0_f64, 0.0_f64);
    let (mut low, mut high) = (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN));
    let steps = (seconds / dt).round() as usize;
    for step in 0..steps {
        floating
            .step(&FlatWater::default(), &Gravity::EARTH, dt, Wrench::ZERO)
            .unwrap_or_else(|e| panic!("step {step} at dt {dt}: {e}"));
        let (l, e) = invariants(&floating.body);
        dl = dl.max((l - l0).abs() / l0);
        de = de.max((e - e0).abs() / e0);
        let spin = body_spin(&floating.body);
        low = low.min(spin);
        high = high.max(spin);
    }
    (dl, de, low, high)
}

#[test]
fn a_tumbling_box_keeps_its_angular_momentum_and_energy() {
    // Near the middle axis, the most sensitive motion: it flips every ~30 s.
    for dt in [1.0 / 60.0, 0.1, 1.0] {
        let (dl, de, _, _) = tumble(Vec3::new(0.5, 0.02, 0.01), dt, 300.0);
        assert!(dl < 1e-4, "|L| moved by {dl:e} of itself at dt {dt}");
        assert!(de < 1e-4, "the energy moved by {de:e} of itself at dt {dt}");
    }
}

#[test]
fn spin_about_the_middle_axis_flips_and_about_the_others_does_not() {
    for dt in [1.0 / 60.0, 1.0] {
        // Middle axis (x): the spin about it reverses and comes back.
        let (_, _, low, high) = tumble(Vec3::new(0.5, 0.02, 0.01), dt, 120.0);
        assert!(
            low.x < -0.45 && high.x > 0.45,
            "no flip at dt {dt}: x spin {} .. {}",
            low.x,
            high.x
        );
        // Largest (z) and smallest (y) moments: the spin stays about its axis.
        let (_, _, low, _) = tumble(Vec3::new(0.02, 0.01, 0.5), dt, 120.0);
        assert!(low.z > 0.49, "spin about z fell to {} at dt {dt}", low.z);
        let (_, _, low, _) = tumble(Vec3::new(0.02, 0.5, 0.01), dt, 120.0);
        assert!(low.y > 0.49, "spin about y fell to {} at dt {dt}", low.y);
    }
}

/// A fuzzer's case: the box above (1,996 kg, no drag) in water of 32.5 kg/m^3, so it sinks for
/// good, spinning at 0.6 rad/s, stepped at 32.5 s. The explicit gyroscopic term then grew its
/// spin every substep, to 5.8e16 rad/s in the 9th step and NaN velocity in the 10th. The
/// midpoint rule keeps its spin at what |L| and the energy allow, step after step, until its
/// fall passes the 1e4 m/s a body may have (about 38 steps of sinking at 0.81 g: its own
/// volume's water holds up a fifth of its weight) and it is stopped by name.
#[test]
fn a_sinking_box_tumbling_through_long_steps_stays_finite() {
    use water_buoyancy::{BuoyancyError, Divergence};
    let shape = Shape::cuboid(Vec3::new(0.937_34, 2.0, 0.761_92)).expect("shape");
    let orientation = Quat::from_euler(glam::EulerRot::XYZ, -0.360_78, 3.983_09, 0.0);
    let state = BodyState {
        pose: Pose::new(Vec3::ZERO, orientation).expect("pose"),
        linear_velocity: Vec3::new(-0.450_9, 0.5, -3.672),
        angular_velocity: Vec3::new(-0.429_6, -0.450_9, 0.0),
    };
    let body = RigidBody::from_shape(&shape, 1996.55, state).expect("body");
    let hull = Hull::new(shape, Pose::IDENTITY).expect("hull");
    let rates = DragRates::new(0.0, 0.0, 0.0).expect("rates");
    let mut floating = FloatingBody::archimedes(body, vec![hull], 32.5, rates).expect("float");
    let push = Wrench {
        force: Vec3::splat(32.5),
        torque: Vec3::ZERO,
    };
    let mut start = None;
    for step in 0..64 {
        match floating.step(&FlatWater::default(), &Gravity::EARTH, 32.5, push) {
            Ok(_) => {}
            Err(BuoyancyError::Diverged {
                cause: Divergence::TooFast(v),
                ..
            }) => {
                assert!(step >= 30 && v.z < -1e4, "step {step}: {v}");
                return;
            }
            Err(e) => panic!("step {step}: {e}"),
        }
        // After the first step it is 4 km down, where the buoyancy acts at the centre of mass:
        // no torque, so the spin's invariants hold (to rounding) through every substep.
        let (l, e) = invariants(&floating.body);
        let (l0, e0) = *start.get_or_insert((l, e));
        assert!(
            (l - l0).abs() < 1e-3 * l0 && (e - e0).abs() < 1e-3 * e0,
            "step {step}: |L| {l} (from {l0}), energy {e} (from {e0})"
        );
    }
    panic!("a fall at nearly g for 64 steps of 32.5 s was never stopped at 1e4 m/s");
}
