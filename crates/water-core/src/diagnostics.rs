//! Diagnostics: total volume and the discrete energy the leapfrog stencil conserves.

use crate::boundary::Boundary;
use crate::size::GridSize;

/// Water volume above the rest level, `h^2 * sum(z)`, in cubic metres for heights in metres and
/// `cell_size = h` in metres.
#[must_use]
pub fn volume<T: Copy + Into<f64>>(heights: &[T], cell_size: f64) -> f64 {
    heights.iter().map(|&z| z.into()).sum::<f64>() * cell_size * cell_size
}

/// The discrete energy `E = 1/2 |z - z_old|^2 + a/2 <K z, z_old>` (m^2, summed over cells, not
/// multiplied by the cell area), where `K` is the graph Laplacian of the grid for `boundary`.
///
/// For the undamped stencil with a fixed, reflective or periodic boundary this is exactly
/// conserved in exact arithmetic (`docs/math.md`, section Energy), and non-negative whenever
/// `a <= 1/2`. `<K u, v>` is evaluated edge by edge as `sum (u_i - u_j)(v_i - v_j)`.
#[must_use]
pub fn discrete_energy<T: Copy + Into<f64>>(
    size: GridSize,
    boundary: Boundary,
    a: f64,
    cur: &[T],
    old: &[T],
) -> f64 {
    let (w, h) = (size.width(), size.height());
    let wraps = boundary == Boundary::Periodic;
    face_energy(size, cur, old, |x, y| {
        let east = if x + 1 < w || wraps { a } else { 0.0 };
        let south = if y + 1 < h || wraps { a } else { 0.0 };
        (east, south)
    })
}

/// [`discrete_energy`] over a varying depth: each face's link weighted by its own Courant number,
/// `E = 1/2 |z - z_old|^2 + 1/2 sum_faces a_f (z_i - z_j)(z_old_i - z_old_j)` (m^2). The stencil of
/// [`crate::kernels::depth_step`] conserves it exactly in exact arithmetic when undamped with a
/// fixed, reflective or periodic boundary (its operator is symmetric, `docs/math.md`, "Depth").
#[must_use]
pub fn discrete_energy_over_depth<T: Copy + Into<f64>>(
    faces: &crate::kernels::depth_step::FaceCourants,
    cur: &[T],
    old: &[T],
) -> f64 {
    let size = faces.size();
    face_energy(size, cur, old, |x, y| {
        let i = size.index(x, y);
        (f64::from(faces.east()[i]), f64::from(faces.south()[i]))
    })
}

/// `1/2 |z - z_old|^2 + 1/2 sum_faces a_f (z_i - z_j)(z_old_i - z_old_j)`, with `faces(x, y)` the
/// Courant numbers of cell `(x, y)`'s east and south faces (0 past an edge that does not wrap).
fn face_energy<T: Copy + Into<f64>>(
    size: GridSize,
    cur: &[T],
    old: &[T],
    faces: impl Fn(usize, usize) -> (f64, f64),
) -> f64 {
    let (w, h) = (size.width(), size.height());
    let z = |i: usize| cur[i].into();
    let zo = |i: usize| old[i].into();
    let kinetic: f64 = (0..size.cells())
        .map(|i| (z(i) - zo(i)).powi(2))
        .sum::<f64>()
        * 0.5;
    let link = |i: usize, j: usize| (z(i) - z(j)) * (zo(i) - zo(j));
    let mut potential = 0.0;
    for y in 0..h {
        for x in 0..w {
            let i = size.index(x, y);
            let (east, south) = faces(x, y);
            if east != 0.0 {
                potential += east * link(i, size.index((x + 1) % w, y));
            }
            if south != 0.0 {
                potential += south * link(i, size.index(x, (y + 1) % h));
            }
        }
    }
    kinetic + 0.5 * potential
}
