//! Drag as rates per unit mass: the same numbers damp a 1 kg float and a 10 t barge alike.

use crate::error::{non_negative, Result};

/// Largest drag rate (linear 1/s, quadratic 1/m, angular 1/s): a body stopped within a
/// microsecond. Past it the drag coefficients (rate times mass or moment) leave f32 for heavy
/// bodies and the motion stops being finite.
pub const MAX_DRAG_RATE: f32 = 1e6;

/// `value` if it is a rate in `[0, MAX_DRAG_RATE]`.
fn rate(name: &'static str, value: f32) -> Result<f32> {
    if non_negative(name, value)? > MAX_DRAG_RATE {
        return Err(crate::BuoyancyError::OutOfRange {
            name,
            value: f64::from(value),
            range: "[0, 1e6]",
        });
    }
    Ok(value)
}

/// Drag rates of a fully submerged body, per unit of its mass (and, for rotation, per unit of
/// its smallest principal moment of inertia). [`crate::Archimedes::with_drag_rates`] turns them
/// into coefficients for one body.
///
/// ```
/// use glam::Vec3;
/// use water_buoyancy::{Archimedes, BodyState, DragRates, RigidBody, Shape};
/// let shape = Shape::cuboid(Vec3::new(0.5, 0.5, 0.25))?;
/// let body = RigidBody::from_shape(&shape, 250.0, BodyState::default())?;
/// let water = Archimedes::new(1000.0)?.with_drag_rates(DragRates::DEFAULT, &body)?;
/// assert_eq!(water.linear_drag(), 4.0 * 250.0); // N s/m
/// # Ok::<(), water_buoyancy::BuoyancyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DragRates {
    /// Linear drag over mass, 1/s: a submerged body's speed decays as `exp(-linear t)`.
    pub linear: f32,
    /// Quadratic drag over mass, 1/m: the speed of a submerged body halves over `1 / quadratic`
    /// metres travelled (from this term alone).
    pub quadratic: f32,
    /// Angular drag over the smallest principal moment of inertia, 1/s: the spin about that
    /// axis decays as `exp(-angular t)` (slower about the others).
    pub angular: f32,
}

impl DragRates {
    /// Rates that make floating bodies look right in a game or a tool: a body dropped on the
    /// water stops bobbing within a few heave periods, yet still rides the waves.
    ///
    /// * `linear = 4 /s`: half-life 0.17 s when fully submerged; a half-submerged body gets half
    ///   of it (drag scales with the wet share), which damps a crate's heave (period about 1 s)
    ///   to a few percent of its drop in two or three bobs.
    /// * `quadratic = 0.5 /m`: a body thrown in at 5 m/s loses half its speed within 2 m,
    ///   as a splash does, and the term vanishes at the slow speeds of floating.
    /// * `angular = 4 /s`: the rolling of a tipped crate settles as fast as its heave.
    ///
    /// The integrator treats drag implicitly, so no rate limits the time step.
    pub const DEFAULT: Self = Self {
        linear: 4.0,
        quadratic: 0.5,
        angular: 4.0,
    };

    /// Checked rates.
    ///
    /// # Errors
    /// [`crate::BuoyancyError::Negative`] / [`crate::BuoyancyError::NotFinite`] for a negative or
    /// non-finite rate, [`crate::BuoyancyError::OutOfRange`] for one past [`MAX_DRAG_RATE`].
    pub fn new(linear: f32, quadratic: f32, angular: f32) -> Result<Self> {
        Ok(Self {
            linear: rate("linear drag rate", linear)?,
            quadratic: rate("quadratic drag rate", quadratic)?,
            angular: rate("angular drag rate", angular)?,
        })
    }
}

impl Default for DragRates {
    fn default() -> Self {
        Self::DEFAULT
    }
}
