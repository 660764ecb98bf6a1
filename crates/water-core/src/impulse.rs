//! Impulses: a click, a raindrop or a splash that adds height to the current surface.

use std::fmt;
use std::str::FromStr;

use glam::Vec2;

use crate::error::{finite, Result, WaterError};
use crate::size::GridSize;

/// Radial profile `f(r/R)` of an impulse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImpulseShape {
    /// Only the cell nearest to the centre, weight 1.
    Point,
    /// `1 - r/R`: a cone.
    Linear,
    /// `0.5 + 0.5 cos(pi r/R)`: a smooth bump.
    Cosine,
    /// A zero-sum drop: a cosine bump of radius `R/2` surrounded by a negative cosine ring out to
    /// `R`, scaled so that the amounts added to the cells inside the grid sum to zero. Repeated
    /// drops therefore do not raise the mean water level (an impulse of non-zero sum gives the
    /// mean level a velocity that reflective and periodic boundaries keep forever).
    Drop,
}

impl ImpulseShape {
    /// All shapes.
    pub const ALL: [Self; 4] = [Self::Point, Self::Linear, Self::Cosine, Self::Drop];

    /// Name used in scenario files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Point => "point",
            Self::Linear => "linear",
            Self::Cosine => "cosine",
            Self::Drop => "drop",
        }
    }

    /// The profile at `t = r/R` in `[0, 1]` (before the drop's ring is rescaled).
    #[must_use]
    pub fn profile(self, t: f32) -> f32 {
        match self {
            Self::Point => 1.0,
            Self::Linear => 1.0 - t,
            Self::Cosine => 0.5 + 0.5 * (std::f32::consts::PI * t).cos(),
            Self::Drop => {
                if t <= 0.5 {
                    0.5 + 0.5 * (std::f32::consts::PI * 2.0 * t).cos()
                } else {
                    // A negative bump centred at t = 0.75, zero at both ends of the ring.
                    -(0.5 - 0.5 * (std::f32::consts::PI * 4.0 * (t - 0.5)).cos())
                }
            }
        }
    }
}

impl fmt::Display for ImpulseShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown impulse shape name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown impulse shape {0:?}; expected one of point, linear, cosine, drop")]
pub struct UnknownShape(pub String);

impl FromStr for ImpulseShape {
    type Err = UnknownShape;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownShape(s.to_owned()))
    }
}

/// An impulse centred at `centre` (in cells: cell `(x, y)` has its centre at integer
/// coordinates `(x, y)`), reaching `radius` cells, with peak `amplitude`.
///
/// What `amplitude` means depends on [`Impulse::displacement`]:
///
/// - `false` (the default), a *kick*: `amplitude * f(r/R)` is added to the current level `z^s`
///   only, so the surface gets a vertical velocity of about `amplitude / dt` at the peak. The
///   bump the next steps show is not `amplitude` metres high: it depends on `dt`, the wave
///   speed and the shape (a wide kick keeps rising for several steps).
/// - `true`, a *displacement*: the same amount is added to the previous level `z^(s-1)` as
///   well, so the surface takes the shape at rest (zero vertical velocity) and `amplitude` is
///   the height of the bump in metres (classic mode: integer height units).
///
/// Cells outside the grid are clipped: an impulse partly or wholly outside the grid adds only
/// to the cells it covers inside (nothing, if none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impulse {
    centre: Vec2,
    radius: f32,
    amplitude: f32,
    shape: ImpulseShape,
    displacement: bool,
}

impl Impulse {
    /// Validates and builds an impulse.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] for NaN or infinite inputs, [`WaterError::NotPositive`] for a
    /// radius <= 0 (allowed for [`ImpulseShape::Point`], which ignores it).
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{Impulse, ImpulseShape};
    /// let drop = Impulse::new(Vec2::new(64.0, 64.0), 6.0, 0.5, ImpulseShape::Cosine)?;
    /// assert_eq!(drop.radius(), 6.0);
    /// assert!(Impulse::new(Vec2::new(f32::NAN, 0.0), 6.0, 0.5, ImpulseShape::Cosine).is_err());
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn new(centre: Vec2, radius: f32, amplitude: f32, shape: ImpulseShape) -> Result<Self> {
        finite("impulse x", f64::from(centre.x))?;
        finite("impulse y", f64::from(centre.y))?;
        finite("impulse amplitude", f64::from(amplitude))?;
        let radius_f64 = finite("impulse radius", f64::from(radius))?;
        if shape != ImpulseShape::Point && radius_f64 <= 0.0 {
            return Err(WaterError::NotPositive {
                name: "impulse radius",
                value: radius_f64,
            });
        }
        Ok(Self {
            centre,
            radius,
            amplitude,
            shape,
            displacement: false,
        })
    }

    /// The same impulse as a displacement (`true`: the surface takes the shape at rest and
    /// `amplitude` is the bump's height in metres) or as a kick (`false`, the default: the
    /// amounts are added to the current level only and act like a vertical velocity).
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{Impulse, ImpulseShape};
    /// let kick = Impulse::new(Vec2::new(32.0, 32.0), 8.0, 0.2, ImpulseShape::Cosine)?;
    /// assert!(!kick.displacement());
    /// let bump = kick.with_displacement(true);
    /// assert!(bump.displacement());
    /// assert_eq!(bump.amplitude(), 0.2);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    #[must_use]
    pub fn with_displacement(self, displacement: bool) -> Self {
        Self {
            displacement,
            ..self
        }
    }

    /// Whether the impulse is a displacement (added to both the current and the previous level:
    /// zero vertical velocity, `amplitude` is the bump's height in metres) rather than a kick
    /// (added to the current level only).
    #[must_use]
    pub fn displacement(&self) -> bool {
        self.displacement
    }

    /// Centre, in cells.
    #[must_use]
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    /// Radius `R`, in cells.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Peak amplitude, metres (classic mode: integer height units): the bump's height for a
    /// displacement, the amount added to the current level only for a kick (see [`Impulse`]).
    #[must_use]
    pub fn amplitude(&self) -> f32 {
        self.amplitude
    }

    /// Radial profile.
    #[must_use]
    pub fn shape(&self) -> ImpulseShape {
        self.shape
    }

    /// Calls `add(index, amount)` for every covered cell, in row-major order. With
    /// `interior_only`, edge cells are skipped (a fixed boundary holds them at 0).
    pub fn for_each_cell(
        &self,
        size: GridSize,
        interior_only: bool,
        mut add: impl FnMut(usize, f32),
    ) {
        let (lo, hi_x, hi_y) = if interior_only {
            (1, size.width() - 1, size.height() - 1)
        } else {
            (0, size.width(), size.height())
        };
        if self.shape == ImpulseShape::Point {
            let (x, y) = (self.centre.x.round(), self.centre.y.round());
            if x >= lo as f32 && y >= lo as f32 && x < hi_x as f32 && y < hi_y as f32 {
                add(size.index(x as usize, y as usize), self.amplitude);
            }
            return;
        }
        let r = self.radius;
        let clamp = |v: f32, hi: usize| v.clamp(lo as f32, hi as f32) as usize;
        let (x0, x1) = (
            clamp((self.centre.x - r).ceil(), hi_x),
            clamp((self.centre.x + r).floor() + 1.0, hi_x),
        );
        let (y0, y1) = (
            clamp((self.centre.y - r).ceil(), hi_y),
            clamp((self.centre.y + r).floor() + 1.0, hi_y),
        );
        let covered = || {
            (y0..y1).flat_map(move |y| {
                (x0..x1).filter_map(move |x| {
                    let d = Vec2::new(x as f32, y as f32) - self.centre;
                    let dist = d.length();
                    (dist <= r).then(|| (size.index(x, y), self.shape.profile(dist / r)))
                })
            })
        };
        if self.shape == ImpulseShape::Drop {
            // Scale the negative ring so the clipped shape sums to zero.
            let (mut pos, mut neg) = (0.0f64, 0.0f64);
            for (_, w) in covered() {
                if w > 0.0 {
                    pos += f64::from(w);
                } else {
                    neg -= f64::from(w);
                }
            }
            let ring_scale = if neg > 0.0 { (pos / neg) as f32 } else { 0.0 };
            for (i, w) in covered() {
                let w = if w < 0.0 { w * ring_scale } else { w };
                add(i, self.amplitude * w);
            }
        } else {
            for (i, w) in covered() {
                add(i, self.amplitude * w);
            }
        }
    }
}
