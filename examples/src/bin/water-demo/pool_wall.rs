//! The pool's walls as a force: a crate that reaches the rim is pushed back by a stiff, lightly
//! damped spring, so it bounces off the stone instead of gliding through it. (Past the grid's
//! edge a scene floats a body on still water, so nothing falls; but the rim is drawn there.)

use std::f32::consts::{PI, SQRT_2};

use glam::Vec3;

use crate::floating_crate::CRATE_SIDE_M;

/// Angular frequency of a crate on the wall's spring, rad/s: half a second a swing, so a crate
/// arriving at 1 m/s presses only about 8 cm into the rim, and a step of the coarsest grid
/// (0.03 s) sees a tenth of a swing.
const WALL_ANGULAR_FREQUENCY: f32 = 4.0 * PI;

/// Damping ratio of the wall's spring: a crate leaves the wall at about half the speed it hit
/// it with (restitution `exp(-zeta pi / sqrt(1 - zeta^2))`, 0.53 at 0.2).
const WALL_DAMPING_RATIO: f32 = 0.2;

/// How far from the wall a crate's centre can come before its corners touch the rim, metres:
/// half its diagonal, whichever way it is turned.
const WALL_MARGIN_M: f32 = CRATE_SIDE_M * 0.5 * SQRT_2;

/// The horizontal force (N) the walls of a square pool of `side` metres push a crate of `mass`
/// kg with, its centre at `position` moving at `velocity` (the pool's frame, z up): nothing
/// while its corners are clear of the rim; a spring and damper along each wall it presses into,
/// which only ever push it back into the pool.
#[must_use]
pub fn wall_force(position: Vec3, velocity: Vec3, mass: f32, side: f32) -> Vec3 {
    let (low, high) = (WALL_MARGIN_M, (side - WALL_MARGIN_M).max(WALL_MARGIN_M));
    let omega = WALL_ANGULAR_FREQUENCY;
    let mut force = Vec3::ZERO;
    for axis in 0..2 {
        let p = position[axis];
        // Depth into the wall, signed as the wall's outward direction.
        let depth = if p < low {
            p - low
        } else if p > high {
            p - high
        } else {
            continue;
        };
        let push =
            -mass * (omega * omega * depth + 2.0 * WALL_DAMPING_RATIO * omega * velocity[axis]);
        // The damper must not hold a crate against the wall as it leaves.
        force[axis] = if depth > 0.0 {
            push.min(0.0)
        } else {
            push.max(0.0)
        };
    }
    force
}

#[cfg(test)]
mod tests {
    use water_buoyancy::{Gravity, Wrench};
    use water_core::FlatWater;

    use super::*;
    use crate::floating_crate::{thrown_crate, CRATE_MASS_KG};

    #[test]
    fn nothing_pushes_a_crate_clear_of_the_walls() {
        let f = wall_force(
            Vec3::new(5.0, 5.0, 0.0),
            Vec3::new(3.0, -3.0, 0.0),
            256.0,
            10.0,
        );
        assert_eq!(f, Vec3::ZERO);
    }

    #[test]
    fn a_crate_thrown_at_a_corner_bounces_back_into_the_pool() {
        // Thrown from the middle at the corner (10, 10) of a 10 m pool, landing near it; the
        // wall's force set before every step of the coarsest grid, as the grid scene sets it.
        let side = 10.0;
        let mut body =
            thrown_crate(Vec3::new(9.0, 9.0, 0.0), Vec3::new(1.0, 1.0, 0.0), 0.4).expect("crate");
        let dt = 0.033;
        let mut deepest = 0.0_f32;
        for _ in 0..300 {
            let s = body.body.state;
            let force = wall_force(s.pose.position, s.linear_velocity, CRATE_MASS_KG, side);
            let extra = Wrench {
                force,
                torque: Vec3::ZERO,
            };
            body.step(&FlatWater::default(), &Gravity::EARTH, dt, extra)
                .expect("step");
            let p = body.body.state.pose.position;
            deepest = deepest.max(p.x.max(p.y) - (side - WALL_MARGIN_M));
        }
        let s = body.body.state;
        // It reached the wall (the test would say nothing otherwise) ...
        assert!(deepest > 0.0, "never reached the wall");
        // ... pressed in no more than a few centimetres, never past the rim's 0.8 m ...
        assert!(deepest < 0.1, "{deepest} m into the wall");
        // ... and came back, clear of it and at rest.
        let p = s.pose.position;
        assert!(
            p.x < side - WALL_MARGIN_M && p.y < side - WALL_MARGIN_M,
            "at {p}"
        );
        assert!(
            s.linear_velocity.truncate().length() < 0.05,
            "{}",
            s.linear_velocity
        );
    }
}
