//! [`TowPath`]: a route a body is towed along at a set speed.

use glam::{DVec2, Vec2};
use water_buoyancy::Tow;

use crate::error::SceneError;

/// A towed body's route over the water: its horizontal position and velocity follow the path,
/// while the water still lifts and tilts it. Points are in the scene's horizontal plane, metres:
/// `(x, y)` in a z-up scene, `(x, z)` in a y-up one ([`crate::UpAxis::horizontal_to_water`]).
///
/// Its clock is the scene's: the path is at its first point at the scene's time 0, whenever the
/// body is added, so a body towed from step `N` on starts where the path is at `N dt` (put on
/// the path at its first step, not pulled there), and one added after the path's end is parked
/// at its last point.
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
    /// A route through `points` (two or more, finite, metres) at `speed` m/s (greater than 0,
    /// at most [`water_buoyancy::MAX_BODY_SPEED`]).
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
        if !(speed > 0.0 && speed <= water_buoyancy::MAX_BODY_SPEED) {
            return Err(SceneError::TowPath(format!(
                "speed must be greater than 0 and at most {:e} m/s, got {}",
                water_buoyancy::MAX_BODY_SPEED,
                water_core::readable_exact_f32(speed)
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

    /// Where a body on this path starts the step from `start` (s from the path's start) and
    /// the [`Tow`] that holds it along the path through the step of `dt` seconds: the velocity
    /// `(p(start + dt) - p(start)) / dt` (in f64, so a path far along keeps its speed), and the
    /// path's heading at the step's end turned by `heading_offset` (rad: how the body was turned
    /// against its path when it was put on it), so a corner turns it with the path.
    ///
    /// # Errors
    /// [`SceneError::TowPath`] for a `dt` that is not finite and positive or a time that is not
    /// finite.
    pub(crate) fn tow(
        &self,
        heading_offset: f32,
        start: f64,
        dt: f32,
    ) -> Result<(Vec2, Tow), SceneError> {
        if !dt.is_finite() || dt <= 0.0 || !start.is_finite() {
            return Err(SceneError::TowPath(format!(
                "a tow step must start at a finite time and last a finite time greater than \
                 0 s, got {dt:?} s from {start:?} s"
            )));
        }
        let end = start + f64::from(dt);
        let (from, _) = self.at_f64(start);
        let (to, _) = self.at_f64(end);
        let velocity = ((to - from) / f64::from(dt)).as_vec2();
        let tow = Tow::to_heading(velocity, self.heading_at(end) + heading_offset)
            .map_err(|e| SceneError::TowPath(format!("the tow at {start} s: {e}")))?;
        Ok((from.as_vec2(), tow))
    }

    /// The direction of travel `t` seconds after the start, rad counter-clockwise from +x: the
    /// leg's, and the last leg's once parked (0 for a path whose points all coincide).
    #[must_use]
    pub fn heading_at(&self, t: f64) -> f32 {
        let (_, velocity) = self.at_f64(t);
        let along = if velocity == DVec2::ZERO {
            self.points
                .windows(2)
                .map(|w| (w[1] - w[0]).as_dvec2())
                .rfind(|leg| *leg != DVec2::ZERO)
                .unwrap_or(DVec2::X)
        } else {
            velocity
        };
        along.y.atan2(along.x) as f32
    }

    /// Position and velocity `t` seconds after the start (parked at the last point once there).
    #[must_use]
    pub fn at(&self, t: f32) -> (Vec2, Vec2) {
        let (at, velocity) = self.at_f64(f64::from(t));
        (at.as_vec2(), velocity.as_vec2())
    }

    /// [`TowPath::at`] in f64: the distance travelled `speed t` and the place along the legs
    /// stay exact far along a long path (in f32 a path 16 km along is placed to 2 mm).
    fn at_f64(&self, t: f64) -> (DVec2, DVec2) {
        let speed = f64::from(self.speed);
        let mut travelled = speed * t.max(0.0);
        for w in self.points.windows(2) {
            let (a, b) = (w[0].as_dvec2(), w[1].as_dvec2());
            let leg = b - a;
            let length = leg.length();
            if travelled <= length && length > 0.0 {
                let along = leg / length;
                return (a + along * travelled, along * speed);
            }
            travelled -= length;
        }
        (self.points[self.points.len() - 1].as_dvec2(), DVec2::ZERO)
    }
}
