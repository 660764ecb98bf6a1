//! Waves made back: a body's cross-section with the still water, rasterised into the contact
//! masks `C_new`/`C_old` that the water turns into bow and stern waves.
//! GPU twin of the grid masks: `shaders/rasterise_grid_mask.wgsl` (`water_gpu::ContactMaskRenderer`).
//!
//! A grid cell is covered when its centre on the still-water plane `z = 0` lies inside a hull;
//! a sphere vertex when its rest position (on the sphere of radius `R`) does. Covered points get
//! the body's speed factor (the larger one where bodies overlap). The grid's masks go to
//! [`water_core::ContactMasks`]; the sphere's to [`SphereContacts`], which applies the same
//! events after the sphere's stencil.

use glam::Vec3;

use water_core::{GridSize, MaskPair};
use water_sphere::{Icosphere, SphereWater};

use crate::error::{non_negative, BuoyancyError, Result};
use crate::hull::Hull;
use crate::pose::Pose;

/// Marks the cells of a `size` grid (cells `cell_size` metres) cut by `hulls` on a body at
/// `body`, writing `max(mask, value)` there.
///
/// # Errors
/// [`BuoyancyError::SizeMismatch`] for a mask of the wrong length; [`BuoyancyError::Negative`]
/// for a negative or non-finite `value`; pose errors.
///
/// ```
/// use glam::Vec3;
/// use water_buoyancy::{rasterise_grid_mask, Hull, Pose, Shape};
/// use water_core::GridSize;
/// let size = GridSize::new(16, 16)?;
/// let hull = Hull::new(Shape::cuboid(Vec3::new(0.2, 0.1, 0.5))?, Pose::IDENTITY)?;
/// let mut mask = vec![0.0; size.cells()];
/// rasterise_grid_mask(&[hull], &Pose::from_position(Vec3::new(0.8, 0.8, 0.0))?, size, 0.1, 1.5, &mut mask)?;
/// assert_eq!(mask.iter().filter(|&&c| c == 1.5).count(), 4 * 2); // 0.4 m x 0.2 m of 0.1 m cells
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rasterise_grid_mask(
    hulls: &[Hull],
    body: &Pose,
    size: GridSize,
    cell_size: f32,
    value: f32,
    mask: &mut [f32],
) -> Result<()> {
    body.validate()?;
    crate::error::positive("cell size", cell_size)?;
    non_negative("contact speed factor", value)?;
    check_len("contact mask", size.cells(), mask.len())?;
    if value == 0.0 {
        return Ok(());
    }
    for_each_covered_cell(hulls, body, size, cell_size, |i| {
        mask[i] = mask[i].max(value);
    })
}

/// Samples along each side of a cell that [`waterplane_fractions`] tests.
const FRACTION_SAMPLES: usize = 4;

/// The fraction of each grid cell (`size` cells of `cell_size` metres) that `hulls` on a body
/// at `body` cover on the still-water plane `z = 0`, in steps of 1/16 (a 4 x 4 lattice of
/// points a cell, a point under two hulls once): `(cell index, fraction)` for every cell of the
/// grid with a covered point, and the whole cut's area, m^2, measured on the same lattice
/// continued past the grid's edges (so a body half off the grid still has its whole cut).
/// Unlike the centre test of [`rasterise_grid_mask`], a hull's edge moves these fractions a
/// sixteenth at a time rather than a whole row of cells at once.
///
/// ```
/// use glam::Vec3;
/// use water_buoyancy::{waterplane_fractions, Hull, Pose, Shape};
/// use water_core::GridSize;
/// // A 0.4 m x 0.2 m cut centred on a cell corner of 0.1 m cells: 0.08 m^2 in all.
/// let hulls = [Hull::new(Shape::cuboid(Vec3::new(0.2, 0.1, 0.1))?, Pose::IDENTITY)?];
/// let body = Pose::from_position(Vec3::new(0.8, 0.8, 0.0))?;
/// let (cells, area) = waterplane_fractions(&hulls, &body, GridSize::new(16, 16)?, 0.1)?;
/// let on_grid: f32 = cells.iter().map(|&(_, f)| f * 0.01).sum();
/// assert!((on_grid - 0.08).abs() < 1e-6 && (area - 0.08).abs() < 1e-6);
/// // Moved half off the grid's left edge: half the cells, the whole area.
/// let body = Pose::from_position(Vec3::new(0.0, 0.8, 0.0))?;
/// let (cells, area) = waterplane_fractions(&hulls, &body, GridSize::new(16, 16)?, 0.1)?;
/// let on_grid: f32 = cells.iter().map(|&(_, f)| f * 0.01).sum();
/// assert!((on_grid - 0.04).abs() < 1e-6 && (area - 0.08).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`BuoyancyError::Negative`] for a bad `cell_size`; pose errors.
pub fn waterplane_fractions(
    hulls: &[Hull],
    body: &Pose,
    size: GridSize,
    cell_size: f32,
) -> Result<(Vec<(usize, f32)>, f32)> {
    body.validate()?;
    crate::error::positive("cell size", cell_size)?;
    let poses: Vec<Pose> = hulls.iter().map(|h| h.world_pose(body)).collect();
    if hulls.is_empty() {
        return Ok((Vec::new(), 0.0));
    }
    // The cells any hull's extent along x and y touches, on the grid or past its edges.
    let (mut lo, mut hi) = (
        glam::Vec2::splat(f32::INFINITY),
        glam::Vec2::splat(f32::NEG_INFINITY),
    );
    for (hull, pose) in hulls.iter().zip(&poses) {
        for (k, axis) in [Vec3::X, Vec3::Y].into_iter().enumerate() {
            let local = pose.inverse_transform_vector(axis);
            let position = pose.position.dot(axis);
            lo[k] = lo[k].min(position - hull.shape().support(-local));
            hi[k] = hi[k].max(position + hull.shape().support(local));
        }
    }
    let covered_at = |p: glam::Vec2| {
        let p = p.extend(0.0);
        hulls
            .iter()
            .zip(&poses)
            .any(|(hull, pose)| hull.shape().contains(pose.inverse_transform_point(p)))
    };
    // The grid's cells the extent touches.
    let cells = |lo: f32, hi: f32, count: usize| {
        let first = (lo / cell_size).floor().max(0.0);
        let last = (hi / cell_size).floor().min(count as f32 - 1.0);
        first as usize..(last + 1.0).max(first) as usize
    };
    let (xs, ys) = (
        cells(lo.x, hi.x, size.width()),
        cells(lo.y, hi.y, size.height()),
    );
    let n = FRACTION_SAMPLES;
    let mut fractions = Vec::new();
    let mut covered_total = 0_u64;
    for y in ys {
        for x in xs.clone() {
            let mut covered = 0_u32;
            for j in 0..n {
                for i in 0..n {
                    let offset = glam::Vec2::new(i as f32 + 0.5, j as f32 + 0.5) / n as f32;
                    let p = (glam::Vec2::new(x as f32, y as f32) + offset) * cell_size;
                    covered += u32::from(covered_at(p));
                }
            }
            covered_total += u64::from(covered);
            if covered > 0 {
                fractions.push((size.index(x, y), covered as f32 / (n * n) as f32));
            }
        }
    }
    let grid_extent = glam::Vec2::new(size.width() as f32, size.height() as f32) * cell_size;
    let area = if lo.cmpge(glam::Vec2::ZERO).all() && hi.cmplt(grid_extent).all() {
        // All of the cut is on the grid: its area is the cells' fractions.
        covered_total as f32 / (n * n) as f32 * cell_size * cell_size
    } else {
        // Some of it lies past the edges: the whole cut on a lattice as fine as the cells' (at
        // most 512 points a side, so a hull far larger than the grid costs no more).
        let spacing = (hi - lo).max_element().max(0.0) / 512.0;
        let spacing = spacing.max(cell_size / n as f32);
        let counts = ((hi - lo) / spacing).ceil().max(glam::Vec2::ONE);
        let step = (hi - lo) / counts;
        let mut inside = 0_u64;
        for j in 0..counts.y as u32 {
            for i in 0..counts.x as u32 {
                let p = lo + step * glam::Vec2::new(i as f32 + 0.5, j as f32 + 0.5);
                inside += u64::from(covered_at(p));
            }
        }
        inside as f32 * step.x * step.y
    };
    Ok((fractions, area))
}

/// Calls `visit` with the index of each cell whose centre on the still-water plane lies inside
/// one of `hulls` (once per hull that covers it).
fn for_each_covered_cell(
    hulls: &[Hull],
    body: &Pose,
    size: GridSize,
    cell_size: f32,
    mut visit: impl FnMut(usize),
) -> Result<()> {
    body.validate()?;
    crate::error::positive("cell size", cell_size)?;
    for hull in hulls {
        let pose = hull.world_pose(body);
        // The hull's extent along a world axis: its support along that axis in its own frame.
        // Tighter than its bounding ball (a 0.8 m x 0.5 m box: 8 x 5 cells to test, not 11 x
        // 11), and the pose is made once, not once a cell.
        // Widened by a thousandth of a cell, so a centre on the hull's face that rounding puts
        // just outside the extent is still tested: `contains` alone decides.
        let margin = 1e-3 * cell_size;
        let extent = |axis: Vec3| {
            let local = pose.inverse_transform_vector(axis);
            let position = pose.position.dot(axis);
            (
                position - hull.shape().support(-local) - margin,
                position + hull.shape().support(local) + margin,
            )
        };
        // The cells whose centres lie in [lo, hi], clamped to the grid.
        let cells = |(lo, hi): (f32, f32), n: usize| {
            let first = (lo / cell_size - 0.5).ceil().max(0.0) as usize;
            let last = ((hi / cell_size - 0.5).floor()).min(n as f32 - 1.0);
            if last < 0.0 {
                first..0
            } else {
                first..last as usize + 1
            }
        };
        let xs = cells(extent(Vec3::X), size.width());
        let ys = cells(extent(Vec3::Y), size.height());
        for y in ys {
            for x in xs.clone() {
                let p = Vec3::new(
                    (x as f32 + 0.5) * cell_size,
                    (y as f32 + 0.5) * cell_size,
                    0.0,
                );
                if hull.shape().contains(pose.inverse_transform_point(p)) {
                    visit(size.index(x, y));
                }
            }
        }
    }
    Ok(())
}

/// Marks the vertices of `sphere` (centred at the origin) cut by `hulls` on a body at `body`,
/// writing `max(mask, value)` there.
///
/// # Errors
/// As [`rasterise_grid_mask`].
pub fn rasterise_sphere_mask(
    hulls: &[Hull],
    body: &Pose,
    sphere: &Icosphere,
    value: f32,
    mask: &mut [f32],
) -> Result<()> {
    body.validate()?;
    non_negative("contact speed factor", value)?;
    check_len("contact mask", sphere.positions().len(), mask.len())?;
    if value == 0.0 {
        return Ok(());
    }
    for hull in hulls {
        let centre = hull.world_pose(body).position;
        let reach2 = hull.bounding_radius().powi(2);
        for (c, &p) in mask.iter_mut().zip(sphere.positions()) {
            if p.distance_squared(centre) <= reach2 && hull.contains(body, p) {
                *c = c.max(value);
            }
        }
    }
    Ok(())
}

/// Bow and stern waves on sphere water: the current and previous per-vertex contact masks and
/// the amplitude `A` (m per unit of speed factor), applied after each step exactly as the
/// grid's signed mode applies them.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereContacts {
    masks: MaskPair,
}

impl SphereContacts {
    /// Empty masks for `vertices` vertices.
    ///
    /// # Errors
    /// [`BuoyancyError::Water`] with [`water_core::WaterError::NotFinite`] for a NaN or
    /// infinite amplitude, [`water_core::WaterError::OutOfRange`] past
    /// +-[`water_core::MAX_CONTACT_AMPLITUDE`] (the grids' limit, [`MaskPair::new`]).
    pub fn new(vertices: usize, amplitude: f32) -> Result<Self> {
        Ok(Self {
            masks: MaskPair::new(vertices, amplitude)?,
        })
    }

    /// Starts a step: the current mask becomes `C_old`, `mask` becomes `C_new`.
    ///
    /// # Errors
    /// [`BuoyancyError::SizeMismatch`] for the wrong length; [`BuoyancyError::Water`] with
    /// [`water_core::WaterError::BadMaskValue`] for a negative or non-finite value (masks
    /// unchanged).
    pub fn advance(&mut self, mask: &[f32]) -> Result<()> {
        check_len("contact mask", self.masks.new_mask().len(), mask.len())?;
        // One row of vertices: a bad value's `x` is its vertex.
        Ok(self
            .masks
            .advance(mask, "sphere contact mask", mask.len())?)
    }

    water_core::mask_pair_accessors!();

    /// One step of `water`, then the bow and stern events on its new heights.
    ///
    /// # Errors
    /// [`BuoyancyError::SizeMismatch`] if `water` has another vertex count.
    pub fn step(&self, water: &mut SphereWater) -> Result<()> {
        check_len("sphere water", self.new_mask().len(), water.heights().len())?;
        water.step();
        // Only the new level changes: `heights_mut` copies just that one out of the layout.
        let (a, new, old) = (self.amplitude(), self.new_mask(), self.old_mask());
        water_core::apply_signed_events(a, new, old, water.heights_mut());
        Ok(())
    }
}

pub(crate) fn check_len(what: &'static str, expected: usize, actual: usize) -> Result<()> {
    if expected == actual {
        Ok(())
    } else {
        Err(BuoyancyError::SizeMismatch {
            what,
            expected,
            actual,
        })
    }
}
