//! Impulses on sphere water (a user's click): waves that leave the water's volume unchanged.

use glam::Vec3;

use crate::error::SphereError;
use crate::icosphere::Icosphere;

/// An impulse on sphere water (a user's click): at `direction` (from the centre), reaching `radius` radians along the surface, with
/// peak `amplitude` metres.
///
/// It raises a cosine cap inside half the radius and lowers a ring out to the radius, the ring
/// scaled so the area-weighted sum of the change is zero (a click whose ring holds no vertex
/// takes its cap's water from the vertices next to the cap instead): a wave goes out, and the
/// water's volume does not change, however often the user clicks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereImpulse {
    /// Where, as a direction from the sphere's centre.
    pub direction: Vec3,
    /// Geodesic radius, radians.
    pub radius: f32,
    /// Peak height, metres.
    pub amplitude: f32,
}

impl SphereImpulse {
    /// Validates an impulse.
    ///
    /// # Errors
    /// [`SphereError::Invalid`] for a zero or non-finite direction, a radius outside
    /// `(0, pi]` or an amplitude that is not finite or beyond +-1e6 m.
    pub fn new(direction: Vec3, radius: f32, amplitude: f32) -> Result<Self, SphereError> {
        let bad = |name, value: f32, range| {
            SphereError::Invalid(water_core::WaterError::OutOfRange {
                name,
                value: f64::from(value),
                range,
            })
        };
        // Scaled by its largest component before normalising: the f32 length of [1e30, 0, 0]
        // overflows (and normalises to zero), that of [1e-30, 0, 0] underflows to 0.
        let scale = direction.abs().max_element();
        if !direction.is_finite() || scale == 0.0 {
            return Err(bad(
                "click direction length",
                direction.length(),
                "finite and greater than 0",
            ));
        }
        let direction = direction / scale;
        if !(radius > 0.0 && radius <= std::f32::consts::PI) {
            return Err(bad("click radius", radius, "(0, pi] rad"));
        }
        // Bounded as impulses are: a click of f32::MAX metres makes infinite waves.
        if !amplitude.is_finite() || f64::from(amplitude).abs() > water_core::MAX_IMPULSE_AMPLITUDE
        {
            return Err(SphereError::Invalid(water_core::WaterError::OutOfRange {
                name: "click amplitude",
                value: f64::from(amplitude),
                range: "[-1e6, 1e6] m",
            }));
        }
        Ok(Self {
            direction: direction.normalize(),
            radius,
            amplitude,
        })
    }

    /// The angle from the click's centre to `p`, in units of its radius: the cap is `t < 0.5`,
    /// the ring `0.5 < t < 1`.
    fn reach(&self, p: Vec3) -> f64 {
        let angle = p.normalize().dot(self.direction).clamp(-1.0, 1.0).acos();
        f64::from(angle / self.radius)
    }

    /// Whether the click's cap holds a vertex of `sphere` (the water `heights` raises): a click
    /// narrower than the mesh resolves, between vertices, changes nothing. The twin of
    /// `water_core::Impulse::reaches` on a grid.
    #[must_use]
    pub fn reaches(&self, sphere: &Icosphere) -> bool {
        sphere.positions().iter().any(|&p| self.reach(p) < 0.5)
    }

    /// The change of height at each vertex, with zero area-weighted sum (all zero where the
    /// click does not [`SphereImpulse::reaches`] a vertex).
    #[must_use]
    pub fn heights(&self, sphere: &Icosphere, areas: &[f64]) -> Vec<f32> {
        let profile: Vec<f64> = sphere
            .positions()
            .iter()
            .map(|&p| {
                let t = self.reach(p);
                if t <= 0.5 {
                    0.5 + 0.5 * (std::f64::consts::PI * 2.0 * t).cos()
                } else if t <= 1.0 {
                    -(0.5 - 0.5 * (std::f64::consts::PI * 4.0 * (t - 0.5)).cos())
                } else {
                    0.0
                }
            })
            .collect();
        let (mut up, mut down) = (0.0, 0.0);
        for (w, a) in profile.iter().zip(areas) {
            if *w > 0.0 {
                up += w * a;
            } else {
                down -= w * a;
            }
        }
        if down == 0.0 && up > 0.0 {
            // No vertex lies in the ring (a click narrower than the mesh resolves): the cap's
            // water goes out of the vertices next to it instead, in equal depths, the
            // smallest zero-sum shape the mesh holds (a ring of zero would leave it added).
            return self.cap_and_neighbours(sphere, areas, &profile, up);
        }
        let ring = if down > 0.0 { up / down } else { 0.0 };
        profile
            .iter()
            .map(|&w| (f64::from(self.amplitude) * if w < 0.0 { w * ring } else { w }) as f32)
            .collect()
    }

    /// The cap of `profile` (its positive weights, area-weighted sum `up`), balanced by one
    /// depth taken from every vertex that shares a face with a cap vertex and is not one.
    fn cap_and_neighbours(
        &self,
        sphere: &Icosphere,
        areas: &[f64],
        profile: &[f64],
        up: f64,
    ) -> Vec<f32> {
        let in_cap = |v: u32| profile[v as usize] > 0.0;
        let mut next_to_cap = vec![false; profile.len()];
        for face in sphere.faces() {
            if face.iter().any(|&v| in_cap(v)) {
                for &v in face.iter().filter(|&&v| !in_cap(v)) {
                    next_to_cap[v as usize] = true;
                }
            }
        }
        let around: f64 = areas
            .iter()
            .zip(&next_to_cap)
            .filter(|(_, &n)| n)
            .map(|(a, _)| a)
            .sum();
        // A cap over every vertex would have no neighbour to take from (a cap reaches at most a
        // quarter turn, so none does): no change then, rather than a level rise.
        let depth = if around > 0.0 {
            up / around
        } else {
            return vec![0.0; profile.len()];
        };
        profile
            .iter()
            .zip(&next_to_cap)
            .map(|(&w, &n)| {
                let w = if n { -depth } else { w.max(0.0) };
                (f64::from(self.amplitude) * w) as f32
            })
            .collect()
    }
}
