//! The `sphere` target: icosphere levels and radii, steppers, damping and clicks from fuzz
//! bytes, then sphere water stepped a few steps.

use arbitrary::Arbitrary;
use water_core::{Damping, WaterError};
use water_sphere::{Icosphere, SphereError, SphereImpulse, SphereStepper, SphereWater};

use crate::num::Num;
use crate::{all_finite, names_value};

/// Most steps taken.
const MAX_STEPS: u8 = 32;

/// One fuzz input.
#[derive(Arbitrary, Debug)]
pub struct Input {
    /// Any level, only checked when its mesh would be too large to build.
    probe_level: u32,
    /// Level 0 to 3 (12 to 642 vertices) is built and stepped.
    level: u8,
    radius: Num,
    mean: bool,
    /// The mean stepper's `a`, or the Laplace-Beltrami stepper's wave speed.
    a_or_speed: Num,
    /// Laplace-Beltrami `dt`; [`Num::In`] is a fraction of 0.3 s.
    dt: Num,
    damping_per_second: bool,
    damping: Num,
    clicks: Vec<ClickInput>,
    steps: u8,
}

/// A click and the step it lands before.
#[derive(Arbitrary, Debug)]
pub struct ClickInput {
    direction: [Num; 3],
    radius: Num,
    amplitude: Num,
    step: u8,
}

/// Checks one input.
///
/// # Panics
/// When a promise breaks (see the crate's documentation).
pub fn run(input: &Input) {
    let vertices = water_sphere::vertex_count(input.probe_level);
    if vertices > water_sphere::MAX_VERTICES {
        let e = Icosphere::new(input.probe_level, 1.0).expect_err("too many vertices");
        let m = e.to_string();
        // The count is named exactly where it fits in u64, and in short past it (where
        // `vertex_count` saturates), never as u64's maximum.
        assert!(
            m.contains(&input.probe_level.to_string())
                && (vertices == u64::MAX || m.contains(&vertices.to_string()))
                && !m.contains(&u64::MAX.to_string()),
            "{m}"
        );
    }
    let radius = input.radius.get32(0.01, 1e4);
    let sphere = match Icosphere::new(u32::from(input.level % 4), radius) {
        Ok(s) => s,
        Err(e) => {
            let (lo, hi) = water_sphere::RADIUS_RANGE;
            assert!(!(lo..=hi).contains(&radius), "radius {radius} refused: {e}");
            names_value(&e, "radius", f64::from(radius));
            return;
        }
    };
    let r = f64::from(radius);
    let stepper = if input.mean {
        SphereStepper::Mean {
            a: input.a_or_speed.get(0.0, 2.5),
        }
    } else {
        SphereStepper::LaplaceBeltrami {
            wave_speed: input.a_or_speed.get(0.0, 2.0 * r),
            dt: input.dt.get(0.0, 0.3),
        }
    };
    let d = input.damping.get(0.9, 1.0);
    let damping = if input.damping_per_second {
        Damping::PerSecond(d)
    } else {
        Damping::PerStep(d)
    };
    let mut water = match SphereWater::new(sphere, stepper, damping) {
        Ok(w) => w,
        Err(e) => {
            refused(&e, stepper, d);
            return;
        }
    };
    let mut clicks = Vec::new();
    for c in &input.clicks {
        let direction = Num::vec3(c.direction, -1.0, 1.0);
        let radius = c.radius.get32(0.0, 4.0);
        let amplitude = c.amplitude.get32(-1.0, 1.0);
        match SphereImpulse::new(direction, radius, amplitude) {
            Ok(click) => {
                let n = click.direction;
                assert!(
                    n.is_finite() && (n.length() - 1.0).abs() < 1e-3,
                    "click toward {direction} accepted as {n}"
                );
                clicks.push((c.step % (MAX_STEPS + 1), click));
            }
            Err(e) => {
                let m = e.to_string();
                assert!(
                    m.contains("click direction")
                        || m.contains("click radius")
                        || m.contains("click amplitude"),
                    "{m}"
                );
            }
        }
    }
    for step in 0..input.steps % (MAX_STEPS + 1) {
        for (_, click) in clicks.iter().filter(|(at, _)| *at == step) {
            water.add_impulse(click);
        }
        water.step();
        all_finite(
            &format!("heights after step {step} of {input:?}"),
            water.heights(),
        );
    }
    assert!(water.volume().is_finite());
}

/// Checks the refusal of sphere water's parameters.
fn refused(e: &SphereError, stepper: SphereStepper, d: f64) {
    match e {
        SphereError::Invalid(
            inner @ (WaterError::NotFinite { name, value }
            | WaterError::NotPositive { name, value }
            | WaterError::OutOfRange { name, value, .. }),
        ) => {
            let given = match (*name, stepper) {
                ("a", SphereStepper::Mean { a }) => a,
                ("wave_speed", SphereStepper::LaplaceBeltrami { wave_speed, .. }) => wave_speed,
                ("dt", SphereStepper::LaplaceBeltrami { dt, .. }) => dt,
                ("damping" | "damping_per_second", _) => d,
                other => panic!("refusal names {other:?}: {inner}"),
            };
            assert!(
                given.to_bits() == value.to_bits() || given.is_nan(),
                "{inner}"
            );
            names_value(inner, name, given);
        }
        SphereError::Unstable { name, value, limit } => {
            assert!(value > limit, "{e}");
            names_value(e, name, *value);
        }
        SphereError::DampingPerSecond => assert!(matches!(stepper, SphereStepper::Mean { .. })),
        other => panic!("unexpected refusal: {other}"),
    }
}
