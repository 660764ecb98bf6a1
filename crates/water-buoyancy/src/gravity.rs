//! Which way is down: uniform gravity over a flat sea, radial gravity on a planet.

use glam::Vec3;

use crate::error::{finite_vec, positive, BuoyancyError, Result};

/// Standard gravity, m/s^2.
pub const STANDARD_GRAVITY: f32 = 9.806_65;

/// The gravitational field bodies fall in and float against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gravity {
    /// The same acceleration everywhere, m/s^2 (a grid's water lies in the `xy` plane, so
    /// `(0, 0, -9.81)`).
    Uniform(Vec3),
    /// Toward `centre` with magnitude `acceleration` (m/s^2) everywhere: a planet of sphere
    /// water.
    Radial {
        /// The planet's centre, world metres.
        centre: Vec3,
        /// Magnitude of the acceleration, m/s^2.
        acceleration: f32,
    },
}

impl Gravity {
    /// Standard gravity along `-z`, for grid water.
    pub const EARTH: Self = Self::Uniform(Vec3::new(0.0, 0.0, -STANDARD_GRAVITY));

    /// Checks the field.
    ///
    /// # Errors
    /// [`BuoyancyError::NotFinite`]/[`BuoyancyError::NotPositive`] for a zero, NaN or infinite
    /// acceleration.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::Uniform(g) => {
                finite_vec("gravity", g)?;
                if g.length_squared() == 0.0 {
                    return Err(BuoyancyError::NotPositive {
                        name: "gravity magnitude",
                        value: 0.0,
                    });
                }
            }
            Self::Radial {
                centre,
                acceleration,
            } => {
                finite_vec("gravity centre", centre)?;
                positive("gravity acceleration", acceleration)?;
            }
        }
        Ok(())
    }

    /// Acceleration at `position`, m/s^2. At a planet's exact centre it is zero.
    #[must_use]
    pub fn at(&self, position: Vec3) -> Vec3 {
        match *self {
            Self::Uniform(g) => g,
            Self::Radial {
                centre,
                acceleration,
            } => -(position - centre).normalize_or_zero() * acceleration,
        }
    }

    /// Unit vector against gravity at `position` (`+z` for [`Gravity::EARTH`]; zero at a
    /// planet's centre).
    #[must_use]
    pub fn up_at(&self, position: Vec3) -> Vec3 {
        -self.at(position).normalize_or_zero()
    }

    /// Magnitude of the acceleration at `position`, m/s^2 (zero at a planet's centre).
    #[must_use]
    pub fn magnitude_at(&self, position: Vec3) -> f32 {
        self.at(position).length()
    }
}
