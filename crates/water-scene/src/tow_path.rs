//! [`TowPath`]: a route a body is towed along at a set speed.

use glam::Vec2;
use water_buoyancy::Tow;

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

    /// The [`Tow`] that takes a body at `from` (horizontal, m) to where the path is at `end` (s
    /// from its start) over the step from `start` to `end`: the velocity
    /// `(at(end) - from) / (end - start)`, so a body off the path (placed elsewhere, or drifted
    /// by rounding) is brought back onto it in one step, and the heading the path has at `end`
    /// turned by `heading_offset` (rad: how the body was turned against the path when it was
    /// put on it), so a corner turns it with the path.
    ///
    /// # Errors
    /// [`SceneError::TowPath`] for a step that does not last a finite positive time, or a tow
    /// whose velocity is not finite (a body too far from its path for f32).
    pub(crate) fn tow(
        &self,
        from: Vec2,
        heading_offset: f32,
        start: f32,
        end: f32,
    ) -> Result<Tow, SceneError> {
        let dt = end - start;
        if !dt.is_finite() || dt <= 0.0 {
            return Err(SceneError::TowPath(format!(
                "a tow step must last a finite time greater than 0 s, got {dt} (from {start} s \
                 to {end} s)"
            )));
        }
        let (after, _) = self.at(end);
        Tow::to_heading((after - from) / dt, self.heading_at(end) + heading_offset)
            .map_err(|e| SceneError::TowPath(format!("the tow from {from}: {e}")))
    }

    /// The direction of travel `t` seconds after the start, rad counter-clockwise from +x: the
    /// leg's, and the last leg's once parked (0 for a path whose points all coincide).
    #[must_use]
    pub fn heading_at(&self, t: f32) -> f32 {
        let (_, velocity) = self.at(t);
        let along = if velocity == Vec2::ZERO {
            self.points
                .windows(2)
                .map(|w| w[1] - w[0])
                .rfind(|leg| *leg != Vec2::ZERO)
                .unwrap_or(Vec2::X)
        } else {
            velocity
        };
        along.y.atan2(along.x)
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
