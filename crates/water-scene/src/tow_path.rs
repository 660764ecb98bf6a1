//! [`TowPath`]: a route a body is towed along at a set speed.

use glam::Vec2;

use crate::error::SceneError;

/// A towed body's route over the water: its horizontal position and velocity follow the path,
/// while the water still lifts and tilts it. Points are in the scene's horizontal plane, metres:
/// `(x, y)` in a z-up scene, `(x, z)` in a y-up one ([`crate::UpAxis::horizontal_to_water`]).
///
/// ```
/// use glam::Vec2;
/// use water_scene::TowPath;
/// let path = TowPath::new(vec![Vec2::ZERO, Vec2::new(10.0, 0.0)], 2.0)?;
/// let (at, velocity) = path.at(1.5);
/// assert_eq!(at, Vec2::new(3.0, 0.0));
/// assert_eq!(velocity, Vec2::new(2.0, 0.0));
/// assert_eq!(path.at(100.0), (Vec2::new(10.0, 0.0), Vec2::ZERO)); // parked at the end
/// # Ok::<(), water_scene::SceneError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TowPath {
    points: Vec<Vec2>,
    speed: f32,
}

impl TowPath {
    /// A route through `points` (two or more, finite, metres) at `speed` m/s (finite, > 0).
    ///
    /// # Errors
    /// [`SceneError::TowPath`] naming what is wrong.
    pub fn new(points: Vec<Vec2>, speed: f32) -> Result<Self, SceneError> {
        if points.len() < 2 {
            return Err(SceneError::TowPath(format!(
                "a path needs two or more points, got {}",
                points.len()
            )));
        }
        if let Some(bad) = points.iter().find(|p| !p.is_finite()) {
            return Err(SceneError::TowPath(format!(
                "path points must be finite, got {bad}"
            )));
        }
        if !speed.is_finite() || speed <= 0.0 {
            return Err(SceneError::TowPath(format!(
                "speed must be a finite number greater than 0 m/s, got {speed}"
            )));
        }
        Ok(Self { points, speed })
    }

    /// The waypoints, metres.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Speed along the path, m/s.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// The same route with every point carried by `map` (a change of frame that keeps lengths).
    pub(crate) fn mapped(&self, map: impl Fn(Vec2) -> Vec2) -> Self {
        Self {
            points: self.points.iter().map(|&p| map(p)).collect(),
            speed: self.speed,
        }
    }

    /// Position and velocity `t` seconds after the start (parked at the last point once there).
    #[must_use]
    pub fn at(&self, t: f32) -> (Vec2, Vec2) {
        let mut travelled = self.speed * t.max(0.0);
        for w in self.points.windows(2) {
            let leg = w[1] - w[0];
            let length = leg.length();
            if travelled <= length && length > 0.0 {
                let along = leg / length;
                return (w[0] + along * travelled, along * self.speed);
            }
            travelled -= length;
        }
        (self.points[self.points.len() - 1], Vec2::ZERO)
    }
}
