//! Impulses: a click, a raindrop or a splash that adds height to the current surface.
//! GPU twins: `shaders/add_impulse.wgsl`, `shaders/add_impulse_f16.wgsl` and
//! `shaders/add_impulse_fragment.wgsl` add the amounts [`Impulse::for_each_cell`] gives.

use glam::Vec2;

use crate::error::{finite, Result, WaterError};
use crate::land::LandMask;
use crate::named::display_and_parse_by_name;
use crate::size::GridSize;

/// Largest |amplitude| of an impulse, metres (classic mode: height units): a thousand
/// kilometres, so that heights stay far below f32's range (3.4e38) however many impulses a run
/// adds and however a kick grows into a bump.
pub const MAX_IMPULSE_AMPLITUDE: f64 = 1e6;

/// Largest impulse radius, cells: beyond any grid (65,536 cells a side), so every radius that
/// touches the grid is allowed, and `r/R` stays a finite f32.
pub const MAX_IMPULSE_RADIUS: f64 = 1e6;

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
    /// `R`, scaled so that the amounts added to the cells that hold water (inside the grid, off
    /// the fixed rim, not land) sum to zero. Repeated drops therefore do not raise the mean water
    /// level (an impulse of non-zero sum gives the mean level a velocity that reflective and
    /// periodic boundaries keep forever). A drop too small for its ring to reach a cell centre
    /// (`R` about 1 or less) puts the trough on the crest's 4-neighbours instead, so the sum is
    /// zero for every radius (see [`Impulse::for_each_cell`] and `docs/math.md`).
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

/// Checks an impulse amplitude (metres; classic mode: height units) against
/// [`MAX_IMPULSE_AMPLITUDE`], and a size other than 0 against `f32::MIN_POSITIVE` (less would be
/// flushed to 0: an impulse taken and lost). Callers that read the amplitude as f64 check it before narrowing,
/// so the message names the number given rather than the `inf` it would become.
///
/// # Errors
/// [`WaterError::NotFinite`] or [`WaterError::OutOfRange`] naming the value and the limit.
pub fn check_impulse_amplitude(amplitude: f64) -> Result<f64> {
    finite("impulse amplitude", amplitude)?;
    // A size below f32's least normal number would be 0 (or flushed to it) in the water: an
    // impulse accepted and then lost.
    let size = amplitude.abs();
    if size > MAX_IMPULSE_AMPLITUDE || crate::below_f32_normal(size) {
        return Err(WaterError::OutOfRange {
            name: "impulse amplitude",
            value: amplitude,
            range: "[-1e6, 1e6] and 0 or at least 1.17549435e-38 in size (m; classic mode: height \
                    units)",
        });
    }
    Ok(amplitude)
}

/// Error for an unknown impulse shape name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown impulse shape {0:?}; expected one of point, linear, cosine, drop")]
pub struct UnknownShape(pub String);

display_and_parse_by_name!(ImpulseShape, UnknownShape);

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
    /// radius <= 0 (allowed for [`ImpulseShape::Point`], which ignores it),
    /// [`WaterError::OutOfRange`] for an |amplitude| over [`MAX_IMPULSE_AMPLITUDE`] or between 0
    /// and `f32::MIN_POSITIVE`, or a radius over [`MAX_IMPULSE_RADIUS`].
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
        check_impulse_amplitude(f64::from(amplitude))?;
        let radius_f64 = finite("impulse radius", f64::from(radius))?;
        if radius_f64 > MAX_IMPULSE_RADIUS {
            return Err(WaterError::OutOfRange {
                name: "impulse radius",
                value: radius_f64,
                range: "at most 1e6 cells",
            });
        }
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

    /// The same impulse with its centre moved by `by` cells: from world cells into a
    /// [`crate::FollowingWindow`]'s cells, say (`by = -origin`).
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] if the moved centre is not finite.
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{Impulse, ImpulseShape};
    /// let drop = Impulse::new(Vec2::new(130.0, 70.0), 6.0, 0.5, ImpulseShape::Cosine)?;
    /// let in_window = drop.moved_by(Vec2::new(-100.0, -50.0))?;
    /// assert_eq!(in_window.centre(), Vec2::new(30.0, 20.0));
    /// assert_eq!((in_window.radius(), in_window.amplitude()), (6.0, 0.5));
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn moved_by(self, by: Vec2) -> Result<Self> {
        let centre = self.centre + by;
        finite("impulse x", f64::from(centre.x))?;
        finite("impulse y", f64::from(centre.y))?;
        Ok(Self { centre, ..self })
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

    /// Whether the impulse covers any cell centre of a grid of `size` (land and edges counted):
    /// a cell within its radius, or for a point the cell nearest it. False for one that lies
    /// wholly beyond the grid, which lands nowhere on it. Geometry only: no cell is visited.
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{GridSize, Impulse, ImpulseShape};
    /// let size = GridSize::new(16, 16)?;
    /// let near = Impulse::new(Vec2::new(18.0, 8.0), 3.0, 0.1, ImpulseShape::Cosine)?;
    /// let far = Impulse::new(Vec2::new(19.0, 8.0), 3.0, 0.1, ImpulseShape::Cosine)?;
    /// assert!(near.reaches(size)); // cell 15 lies 3 cells from its centre
    /// assert!(!far.reaches(size));
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    #[must_use]
    pub fn reaches(&self, size: GridSize) -> bool {
        let (width, height) = (size.width() as f32, size.height() as f32);
        if self.shape == ImpulseShape::Point {
            // The nearest cell, as `for_each_cell` takes it.
            let (x, y) = (self.centre.x.round(), self.centre.y.round());
            return (0.0..width).contains(&x) && (0.0..height).contains(&y);
        }
        // The cell nearest the centre is the one a covering impulse covers first: within the
        // radius as `covered_at` measures it. (A drop covers cells within its radius too.)
        let nearest = Vec2::new(
            self.centre.x.round().clamp(0.0, width - 1.0),
            self.centre.y.round().clamp(0.0, height - 1.0),
        );
        (nearest - self.centre).length() <= self.radius
    }

    /// Calls `add(index, amount)` for every covered cell, in row-major order.
    ///
    /// Only cells that can hold water take part: with `interior_only` the edge cells are skipped
    /// (a fixed boundary, and classic mode, hold them at 0), and the cells `land` marks are
    /// skipped too (they are zeroed after every step, so an amount given to them would vanish
    /// and, for a [`ImpulseShape::Drop`], break its zero sum). A drop's amounts sum to zero over
    /// the cells reported here (up to f32 rounding), for every radius, wherever it lies.
    ///
    /// The amounts are the same whether or not the impulse is a [`Impulse::displacement`]; the
    /// grid decides which time levels they go to.
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{GridSize, Impulse, ImpulseShape, LandMask};
    /// let size = GridSize::new(16, 16)?;
    /// let mut land = LandMask::empty(size);
    /// land.add_rect(0, 0, 8, 16)?; // the left half is land
    /// let drop = Impulse::new(Vec2::new(8.0, 8.0), 4.0, 0.3, ImpulseShape::Drop)?;
    /// let mut sum = 0.0f64;
    /// drop.for_each_cell(size, false, Some(&land), |i, amount| {
    ///     assert!(i % 16 >= 8, "no amount lands on land");
    ///     sum += f64::from(amount);
    /// });
    /// assert!(sum.abs() < 1e-6);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn for_each_cell(
        &self,
        size: GridSize,
        interior_only: bool,
        land: Option<&LandMask>,
        mut add: impl FnMut(usize, f32),
    ) {
        let cells = WetCells::new(size, interior_only, land);
        if self.shape == ImpulseShape::Point {
            let (x, y) = (self.centre.x.round(), self.centre.y.round());
            if x >= 0.0 && y >= 0.0 && cells.wet(x as usize, y as usize) {
                add(size.index(x as usize, y as usize), self.amplitude);
            }
            return;
        }
        if self.shape == ImpulseShape::Drop {
            self.drop_cells(&cells, add);
            return;
        }
        let (xs, ys) = cells.covering(self.centre, self.radius, 0);
        for y in ys {
            for x in xs.clone() {
                if let Some(t) = self.covered_at(&cells, x, y) {
                    add(size.index(x, y), self.amplitude * self.shape.profile(t));
                }
            }
        }
    }

    /// `r/R` at cell `(x, y)` if the impulse covers it and it holds water.
    fn covered_at(&self, cells: &WetCells<'_>, x: usize, y: usize) -> Option<f32> {
        let dist = (Vec2::new(x as f32, y as f32) - self.centre).length();
        (dist <= self.radius && cells.wet(x, y)).then(|| dist / self.radius)
    }

    /// The zero-sum drop. A drop that the grid resolves (its crest and its ring each reach a wet
    /// cell with non-zero weight) has its ring scaled so that the sum is zero. A drop smaller
    /// than the grid resolves, or whose ring lies wholly on land or off the grid, keeps a crest
    /// and puts the opposite amount, in equal shares, on the wet cells next to the crest (its
    /// 4-neighbours that are not crest cells): the smallest zero-sum shape the grid can hold, a
    /// discrete Laplacian for a one-cell crest. Widening the ring instead would change the
    /// drop's size with the grid's position under it; the neighbours keep it as small as asked.
    fn drop_cells(&self, cells: &WetCells<'_>, mut add: impl FnMut(usize, f32)) {
        // One cell of margin around the covered cells, for the fallback ring.
        let (xs, ys) = cells.covering(self.centre, self.radius, 1);
        let (bw, bh) = (xs.len(), ys.len());
        if bw == 0 || bh == 0 {
            return;
        }
        let (bx, by) = (xs.start, ys.start);
        // Per cell of the box: `r/R` where covered and wet.
        let t: Vec<Option<f32>> = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| self.covered_at(cells, x, y))
            .collect();
        let mut weights: Vec<f32> = t
            .iter()
            .map(|t| t.map_or(0.0, |t| self.shape.profile(t)))
            .collect();
        let (mut pos, mut neg) = (0.0f64, 0.0f64);
        for &w in &weights {
            if w > 0.0 {
                pos += f64::from(w);
            } else {
                neg -= f64::from(w);
            }
        }
        let mut ring = vec![false; weights.len()];
        if pos > 0.0 && neg > 0.0 {
            // Scale the negative ring so the (clipped) shape sums to zero.
            let ring_scale = (pos / neg) as f32;
            for w in &mut weights {
                if *w < 0.0 {
                    *w *= ring_scale;
                }
            }
        } else {
            if pos == 0.0 {
                // The crest (radius R/2) reaches no cell centre: the crest is a cosine bump over
                // the whole radius, so the drop covers exactly the cells a cosine impulse would.
                for (w, t) in weights.iter_mut().zip(&t) {
                    *w = t.map_or(0.0, |t| ImpulseShape::Cosine.profile(t));
                    pos += f64::from(*w);
                }
            } else {
                // No ring weight: only the crest stays (ring cells here weigh exactly 0).
                for w in &mut weights {
                    *w = w.max(0.0);
                }
            }
            if pos == 0.0 {
                return; // the impulse covers no wet cell with any weight: it adds nothing
            }
            let crest = |i: usize| weights[i] > 0.0;
            let mut count = 0usize;
            for y in 0..bh {
                for x in 0..bw {
                    let i = y * bw + x;
                    let next_to_crest = (x > 0 && crest(i - 1))
                        || (x + 1 < bw && crest(i + 1))
                        || (y > 0 && crest(i - bw))
                        || (y + 1 < bh && crest(i + bw));
                    if !crest(i) && next_to_crest && cells.wet(bx + x, by + y) {
                        ring[i] = true;
                        count += 1;
                    }
                }
            }
            if count == 0 {
                // No wet cell can take the opposite amount (a crest walled in by land or the
                // fixed rim): adding the crest alone would change the volume, so add nothing.
                return;
            }
            let share = (-pos / count as f64) as f32;
            for (w, _) in weights.iter_mut().zip(&ring).filter(|(_, r)| **r) {
                *w = share;
            }
        }
        let size = cells.size;
        for y in 0..bh {
            for x in 0..bw {
                let i = y * bw + x;
                if t[i].is_some() || ring[i] {
                    add(size.index(bx + x, by + y), self.amplitude * weights[i]);
                }
            }
        }
    }
}

/// The cells an impulse may add to: inside the grid (inside its rim with `interior_only`) and
/// not land.
struct WetCells<'a> {
    size: GridSize,
    lo: usize,
    hi_x: usize,
    hi_y: usize,
    land: Option<&'a LandMask>,
}

impl<'a> WetCells<'a> {
    fn new(size: GridSize, interior_only: bool, land: Option<&'a LandMask>) -> Self {
        let (lo, hi_x, hi_y) = if interior_only {
            (1, size.width() - 1, size.height() - 1)
        } else {
            (0, size.width(), size.height())
        };
        Self {
            size,
            lo,
            hi_x,
            hi_y,
            land,
        }
    }

    fn wet(&self, x: usize, y: usize) -> bool {
        x >= self.lo
            && y >= self.lo
            && x < self.hi_x
            && y < self.hi_y
            && self.land.is_none_or(|land| !land.is_land(x, y))
    }

    /// Column and row ranges of the allowed cells within `radius + margin` cells of `centre`
    /// (a bounding box: callers still test the distance).
    fn covering(
        &self,
        centre: Vec2,
        radius: f32,
        margin: usize,
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let m = margin as f32;
        let clamp = |v: f32, hi: usize| v.clamp(self.lo as f32, hi as f32) as usize;
        let xs = clamp((centre.x - radius).ceil() - m, self.hi_x)
            ..clamp((centre.x + radius).floor() + 1.0 + m, self.hi_x);
        let ys = clamp((centre.y - radius).ceil() - m, self.hi_y)
            ..clamp((centre.y + radius).floor() + 1.0 + m, self.hi_y);
        (xs, ys)
    }
}
