//! The `buoyancy` target: shapes, poses, masses, drag and time steps from fuzz bytes, then a
//! floating body stepped a few steps on still water or on a grid with a wave.

use arbitrary::Arbitrary;
use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    BodyState, BuoyancyError, Divergence, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody,
    Shape, Wrench, MAX_BODY_SPEED, MAX_BODY_SPIN,
};
use water_core::{
    Boundary, Damping, FlatWater, GridSize, GridWater, HeightSource, Impulse, ImpulseShape,
    SignedGrid, WaveParams,
};

use crate::names_value;
use crate::num::Num;

/// Most steps taken.
const MAX_STEPS: u8 = 24;

/// One fuzz input.
#[derive(Arbitrary, Debug)]
pub struct Input {
    shape: u8,
    /// Box half extents, or sphere and capsule radius and capsule half length.
    dims: [Num; 3],
    mass: Num,
    position: [Num; 3],
    /// Euler angles in radians, or with `raw_quaternion` a quaternion's x, y, z and w.
    rotation: [Num; 4],
    raw_quaternion: bool,
    velocity: [Num; 3],
    angular_velocity: [Num; 3],
    drag: [Num; 3],
    density: Num,
    dt: Num,
    force: [Num; 3],
    wavy: bool,
    steps: u8,
}

/// Checks one input.
///
/// # Panics
/// When a promise breaks (see the crate's documentation).
pub fn run(input: &Input) {
    let d = input.dims.map(|n| n.get32(0.05, 2.0));
    let shape = match input.shape % 3 {
        0 => Shape::cuboid(Vec3::from(d)),
        1 => Shape::sphere(d[0]),
        _ => Shape::capsule(d[0], d[1]),
    };
    let Some(shape) = accepted(shape, &|e| refusal(e, &[d[0], d[1], d[2]])) else {
        return;
    };
    let position = Num::vec3(input.position, -3.0, 3.0);
    let r = input.rotation.map(|n| n.get32(-4.0, 4.0));
    let orientation = if input.raw_quaternion {
        Quat::from_xyzw(r[0], r[1], r[2], r[3])
    } else {
        Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2])
    };
    let pose = Pose::new(position, orientation);
    let Some(pose) = accepted(pose, &|e| match e {
        BuoyancyError::NotUnitQuaternion { length } => {
            assert!(
                !((length - 1.0).abs() <= 1e-3),
                "refused a unit quaternion: {e}"
            );
            assert!(e.to_string().contains(&length.to_string()), "{e}");
        }
        _ => refusal(
            e,
            &[
                position.to_array(),
                orientation.to_array()[..3].try_into().expect("3"),
            ]
            .concat()
            .into_iter()
            .chain([orientation.w])
            .collect::<Vec<_>>(),
        ),
    }) else {
        return;
    };
    let velocity = Num::vec3(input.velocity, -5.0, 5.0);
    let angular_velocity = Num::vec3(input.angular_velocity, -5.0, 5.0);
    // Values a caller would not use, accepted by the constructors, whose motion may stop being
    // finite: hulls thinner than a millimetre, masses past 1e12 kg or under a gram. Such a body
    // must end in a typed `Diverged` (never a panic); other bodies stay finite. Speeds past
    // MAX_BODY_SPEED, spins past MAX_BODY_SPIN and drag past MAX_DRAG_RATE are refused by the
    // constructors (checked by `refusal` below).
    let wild = d.iter().any(|v| !(1e-3..=1e4).contains(v))
        || !(1e-3..=1e12).contains(&input.mass.get32(0.1, 2000.0));
    let state = BodyState {
        pose,
        linear_velocity: velocity,
        angular_velocity,
    };
    let mass = input.mass.get32(0.1, 2000.0);
    let refused_body = |e: &BuoyancyError| match e {
        // A mass whose inertia leaves f32 (or underflows to 0): the tensor is named.
        BuoyancyError::BadInertia { .. } => {}
        _ => refusal(
            e,
            &[mass]
                .into_iter()
                .chain(velocity.to_array())
                .chain(angular_velocity.to_array())
                .collect::<Vec<_>>(),
        ),
    };
    let Some(body) = accepted(RigidBody::from_shape(&shape, mass, state), &refused_body) else {
        return;
    };
    let hull = Hull::new(shape, Pose::IDENTITY);
    let Some(hull) = accepted(hull, &|e| match e {
        // A shape of 1e30 m is accepted by `Shape` and refused here under the mesh's own name
        // (docs/reliability.md, "Findings").
        BuoyancyError::NotFinite { name, .. } if *name == "hull max edge" => {
            assert!(d.iter().any(|v| *v > 1e18), "{e} for {d:?}");
        }
        _ => refusal(e, &d),
    }) else {
        return;
    };
    let rates = input.drag.map(|n| n.get32(0.0, 8.0));
    let Some(rates) = accepted(DragRates::new(rates[0], rates[1], rates[2]), &|e| {
        refusal(e, &rates)
    }) else {
        return;
    };
    let density = input.density.get32(500.0, 1500.0);
    let floating = FloatingBody::archimedes(body, vec![hull], density, rates);
    let Some(mut floating) = accepted(floating, &|e| match e {
        // Rates times a mass or moment past f32: named as the drag coefficient they make.
        BuoyancyError::NotFinite { name, .. } if name.ends_with("drag") => {}
        _ => refusal(e, &[density]),
    }) else {
        return;
    };
    let dt = input.dt.get32(1e-4, 0.1);
    let force = Num::vec3(input.force, -1e4, 1e4);
    let extra = Wrench {
        // A push of 3.4e38 N is refused as `Diverged` at once, by design; pushes a game gives
        // must keep the body finite.
        force: if force.is_finite() && force.abs().max_element() <= 1e6 {
            force
        } else {
            Vec3::ZERO
        },
        torque: Vec3::ZERO,
    };
    let wave = wavy_water(input.wavy);
    let view = wave.as_ref().map(SignedGrid::view);
    let flat = FlatWater::default();
    let water: &dyn HeightSource = match &view {
        Some(view) => view,
        None => &flat,
    };
    // A raw dt far past 0.1 s may take thousands of body substeps a step (dt 32 s at 56 rad/s:
    // about 1,800, at some 77 us each): one such step checks what more would, and keeps the
    // fuzzer's rate (24 of them held it to 14 inputs a second).
    let steps = input.steps % (MAX_STEPS + 1);
    let steps = if dt > 0.1 { steps.min(1) } else { steps };
    for step in 0..steps {
        match floating.step(water, &Gravity::EARTH, dt, extra) {
            Ok(result) => {
                let s = floating.body.state;
                assert!(
                    s.pose.position.is_finite()
                        && s.pose.orientation.is_finite()
                        && s.linear_velocity.is_finite()
                        && s.angular_velocity.is_finite()
                        && result.wrench.force.is_finite()
                        && result.submerged_volume.is_finite(),
                    "step {step}: {s:?} {result:?} for {input:?}"
                );
            }
            Err(BuoyancyError::TimeStepTooLong { .. }) => return,
            Err(e @ (BuoyancyError::NotPositive { .. } | BuoyancyError::NotFinite { .. })) => {
                names_value(&e, "dt", f64::from(dt));
                return;
            }
            // Wild sizes and masses may stop being finite within a step: reported, typed, with
            // what diverged.
            Err(BuoyancyError::Diverged { .. }) if wild => return,
            // A push that takes the body past the speed or spin a body may have stops it
            // there, finite, by name.
            Err(BuoyancyError::Diverged {
                cause: Divergence::TooFast(v) | Divergence::TooMuchSpin(v),
                ..
            }) => {
                let over = v.abs().max_element();
                assert!(
                    v.is_finite() && (over > MAX_BODY_SPEED || over > MAX_BODY_SPIN),
                    "step {step}: stopped at {v} for {input:?}"
                );
                return;
            }
            Err(e) => panic!("step {step} of an accepted body failed: {e}; {input:?}"),
        }
    }
}

/// `Some(value)`, or `None` after `check` looked at the refusal.
fn accepted<T>(result: Result<T, BuoyancyError>, check: &dyn Fn(&BuoyancyError)) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(e) => {
            check(&e);
            None
        }
    }
}

/// Checks that a refusal of a plain number names it and shows one of `given`.
fn refusal(e: &BuoyancyError, given: &[f32]) {
    match e {
        BuoyancyError::NotFinite { name, value }
        | BuoyancyError::NotPositive { name, value }
        | BuoyancyError::Negative { name, value }
        | BuoyancyError::OutOfRange { name, value, .. } => {
            assert!(
                given
                    .iter()
                    .any(|g| f64::from(*g).to_bits() == value.to_bits() || g.is_nan()),
                "{e} shows none of {given:?}"
            );
            names_value(e, name, *value);
        }
        other => panic!("unexpected refusal: {other}"),
    }
}

/// A small grid with a wave running, or `None` for still water.
fn wavy_water(wavy: bool) -> Option<SignedGrid> {
    if !wavy {
        return None;
    }
    let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE).expect("stable");
    let size = GridSize::new(48, 48).expect("size");
    let mut grid = SignedGrid::new(size, params, Boundary::Reflective);
    let bump = Impulse::new(Vec2::new(24.0, 24.0), 8.0, 0.2, ImpulseShape::Cosine).expect("bump");
    grid.add_impulse(&bump.with_displacement(true));
    for _ in 0..10 {
        grid.step();
    }
    Some(grid)
}
