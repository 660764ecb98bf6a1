//! [`Tow`]: what a tow holds of a body's motion through a step, as constraints inside it.

use glam::{DVec3, Quat, Vec2};

use crate::error::{finite, Result};

/// The fastest a [`Tow::to_heading`] turns a body, rad/s: 90 degrees a second, so a path's
/// corner turns the body over a few steps (a quarter turn in 1 s) instead of in one step at
/// hundreds of radians a second.
pub const MAX_TOW_TURN_RATE: f32 = std::f32::consts::FRAC_PI_2;

/// A tow: the body's horizontal velocity (x and y, m/s) and its heading (the direction its x
/// axis points seen from above, counter-clockwise from +x) held through a step, the heading at
/// a rate or turned to a target by the step's end, every substep, by whatever force and torque
/// it takes (the constraint's reaction, [`crate::BodyStep::tow`]). Heave, roll and pitch stay
/// free: the water lifts and tilts a towed body, and its drag, pulled through the water at the
/// held speed, trims it as it would a boat towed from its centre of mass.
///
/// In the water's frame (z up): a scene in another frame converts first.
///
/// Why a constraint and not an overwrite: setting a body's velocity after each step leaves its
/// heading free and the force that held its speed unknown (a box towed 30 degrees off its
/// heading turned 6 degrees further, tried by hand). Held inside the step, the tow takes that torque and says
/// what it pulled (`tests/tow.rs`, `docs/math.md` section 10).
///
/// ```
/// use glam::{Vec2, Vec3};
/// use water_buoyancy::{BodyState, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Tow, Wrench};
/// use water_core::FlatWater;
/// // A 4 m, 2,560 kg box towed at 10 m/s along x: it keeps the speed and trims 2 to 3 degrees.
/// let shape = Shape::cuboid(Vec3::new(2.0, 0.8, 0.5))?;
/// let start = BodyState::at_rest(Pose::from_position(Vec3::new(0.0, 0.0, 0.1))?);
/// let body = RigidBody::from_shape(&shape, 2560.0, start)?;
/// let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
/// // About 10 kN of drag at 10 m/s (the default rates are for bodies bobbing in place).
/// let rates = DragRates::new(0.5, 0.05, 4.0)?;
/// let mut boat = FloatingBody::archimedes(body, hulls, 1000.0, rates)?;
/// let tow = Tow::new(Vec2::new(10.0, 0.0), 0.0)?;
/// for _ in 0..400 {
///     boat.step_towed(&FlatWater::default(), &Gravity::EARTH, 0.05, Wrench::ZERO, tow)?;
/// }
/// let state = boat.body.state;
/// assert_eq!(state.linear_velocity.x, 10.0);
/// assert!((state.pose.position.x - 200.0).abs() < 1e-3);
/// let (axis, angle) = state.pose.orientation.to_axis_angle();
/// assert!((1.5..3.0).contains(&angle.to_degrees()), "tilted {} degrees about {axis}", angle.to_degrees());
/// # Ok::<(), water_buoyancy::BuoyancyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tow {
    velocity: Vec2,
    turn: Turn,
}

/// How a tow turns the body's heading.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Turn {
    /// At this rate, rad/s.
    Rate(f32),
    /// To this heading (rad) by the step's end.
    To(f32),
}

impl Tow {
    /// A tow holding the horizontal velocity `velocity` (m/s, water frame) and the rate
    /// `yaw_rate` its heading turns at (rad/s, counter-clockwise seen from above).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotFinite`] naming the value that is not finite;
    /// [`crate::BuoyancyError::OutOfRange`] for a velocity component past
    /// [`crate::MAX_BODY_SPEED`].
    pub fn new(velocity: Vec2, yaw_rate: f32) -> Result<Self> {
        Self::checked(velocity, "tow yaw rate", Turn::Rate(yaw_rate))
    }

    /// A tow holding the horizontal velocity `velocity` (m/s) that turns the body to `heading`
    /// (rad: the direction its x axis points seen from above, counter-clockwise from +x) by
    /// the step's end, at the rate each substep needs to get there in the time left, but never
    /// faster than [`MAX_TOW_TURN_RATE`] (a larger turn takes more steps). What a path holds a
    /// body to: a rate alone lets the heading creep (a turn about a heeled body's axes is not a
    /// turn about the vertical, to second order).
    ///
    /// # Errors
    /// As [`Tow::new`].
    pub fn to_heading(velocity: Vec2, heading: f32) -> Result<Self> {
        Self::checked(velocity, "tow heading", Turn::To(heading))
    }

    /// A tow holding `velocity` and turning as `turn` says, once the velocity and the turn's
    /// value (`turn_name` names it in errors) are found finite.
    fn checked(velocity: Vec2, turn_name: &'static str, turn: Turn) -> Result<Self> {
        let (Turn::Rate(value) | Turn::To(value)) = turn;
        finite("tow velocity x", velocity.x)?;
        finite("tow velocity y", velocity.y)?;
        finite(turn_name, value)?;
        // A body held past the speed limit would be stopped at its first substep.
        if let Some(c) = [velocity.x, velocity.y]
            .into_iter()
            .find(|c| c.abs() > crate::MAX_BODY_SPEED)
        {
            return Err(crate::BuoyancyError::OutOfRange {
                name: "tow velocity component",
                value: f64::from(c),
                range: "[-1e4, 1e4] m/s",
            });
        }
        Ok(Self { velocity, turn })
    }

    /// The held horizontal velocity, m/s.
    #[must_use]
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }

    /// The held rate of turning of the heading, rad/s, for a tow made by [`Tow::new`]; `None`
    /// for one that turns to a heading.
    #[must_use]
    pub fn yaw_rate(&self) -> Option<f32> {
        match self.turn {
            Turn::Rate(rate) => Some(rate),
            Turn::To(_) => None,
        }
    }

    /// The heading it turns to by the step's end, rad, for a tow made by [`Tow::to_heading`].
    #[must_use]
    pub fn heading(&self) -> Option<f32> {
        match self.turn {
            Turn::Rate(_) => None,
            Turn::To(heading) => Some(heading),
        }
    }

    /// The tow's three constraints on the velocity vector `(v, omega)` of a body turned by
    /// `orientation`: `v_x`, `v_y`, and the rate at which its heading turns (the direction its
    /// x axis points seen from above: `d psi / dt = omega_z - x_z (omega . x_h) / |x_h|^2`, `x`
    /// its x axis, `x_h` that axis's horizontal part), so a heeled or trimmed body keeps its
    /// heading too. A body whose x axis stands vertical has no heading: then `omega_z` is held
    /// (at 0 for a tow to a heading).
    /// `time_left`: seconds to the step's end (a heading is reached by then, turning no faster
    /// than [`MAX_TOW_TURN_RATE`]), never taken shorter than the substep `h`.
    pub(crate) fn constraints(
        &self,
        orientation: Quat,
        time_left: f32,
        h: f32,
    ) -> [([f64; 6], f64); 3] {
        let x = (orientation.as_dquat().normalize() * DVec3::X).to_array();
        let across = x[0] * x[0] + x[1] * x[1];
        let rate = match self.turn {
            Turn::Rate(rate) => f64::from(rate),
            // No heading to turn to: held still.
            Turn::To(_) if across <= 1e-6 => 0.0,
            Turn::To(heading) => {
                let now = x[1].atan2(x[0]);
                let turn = (f64::from(heading) - now).rem_euclid(std::f64::consts::TAU);
                // The shorter way round, in (-pi, pi].
                let turn = if turn > std::f64::consts::PI {
                    turn - std::f64::consts::TAU
                } else {
                    turn
                };
                let max = f64::from(MAX_TOW_TURN_RATE);
                (turn / f64::from(time_left.max(h))).clamp(-max, max)
            }
        };
        let heading = if across > 1e-6 {
            [
                0.0,
                0.0,
                0.0,
                -x[2] * x[0] / across,
                -x[2] * x[1] / across,
                1.0,
            ]
        } else {
            [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        };
        [
            ([1.0, 0.0, 0.0, 0.0, 0.0, 0.0], f64::from(self.velocity.x)),
            ([0.0, 1.0, 0.0, 0.0, 0.0, 0.0], f64::from(self.velocity.y)),
            (heading, rate),
        ]
    }
}
