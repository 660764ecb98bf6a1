//! Physics: the absorbing boundary reflects less than 5% of a pulse at normal incidence, and
//! at 30 and 60 degrees what first-order theory says (Mur's edge is first order).
//!
//! Method: the same circular pulse runs on a small absorbing grid and, as the reference, on a
//! much larger grid whose edges are too far away to matter in the time measured. Along the
//! small grid's horizontal centre line near its left edge, the only difference between the two
//! runs is the wave reflected from that edge at normal incidence (reflections from the top and
//! bottom edges reach the line later than the window ends). The reflected amplitude is compared
//! with the amplitude the reference shows at the mirror image point beyond the edge, which has
//! travelled the same distance from the source.

mod support;

use support::{bump, set_at_rest, signed};
use water_core::{Boundary, GridWater, SignedGrid};

const SMALL: usize = 201;
const LARGE: usize = 801;
const PULSE_RADIUS: f64 = 8.0;

fn reflection_ratio(boundary: Boundary, a: f64) -> f64 {
    let offset = (LARGE - SMALL) / 2; // small grid's (0, 0) inside the large grid
    let centre = (SMALL / 2) as f64;
    let mut small = signed(SMALL, SMALL, a, boundary);
    let mut large = signed(LARGE, LARGE, a, Boundary::Fixed);
    set_at_rest(&mut small, bump(centre, centre, PULSE_RADIUS));
    let o = offset as f64;
    set_at_rest(&mut large, bump(centre + o, centre + o, PULSE_RADIUS));

    let half = centre; // distance from the source to the left edge, cells
    let cells_per_step = a.sqrt();
    // Stop before the top/bottom reflections reach the probe points (at 2*half) minus the pulse.
    let steps = ((2.0 * half - 2.0 * PULSE_RADIUS - 4.0) / cells_per_step) as usize;
    let row = SMALL / 2;
    // 5 to 39 cells from the left edge.
    let probes: Vec<Probe> = (5..40)
        .map(|p| Probe::at((p, row), SMALL, LARGE, offset))
        .collect();
    measured_reflection(&mut small, &mut large, steps, &probes)
}

/// A probe point near the small grid's left edge, as cell indices: the point in the small grid,
/// the same point in the reference grid, and its mirror image beyond the edge in the reference.
struct Probe {
    small: usize,
    large: usize,
    mirror: usize,
}

impl Probe {
    /// The probe at cell `(p, y)` of a small grid `width` cells wide, whose cell `(0, 0)` is
    /// cell `(offset, offset)` of a reference grid `reference_width` cells wide: its mirror
    /// point lies `p` cells beyond the small grid's left edge.
    fn at((p, y): (usize, usize), width: usize, reference_width: usize, offset: usize) -> Self {
        let row = (y + offset) * reference_width;
        Self {
            small: y * width + p,
            large: row + p + offset,
            mirror: row + offset - 1 - p,
        }
    }
}

/// Steps the small grid and its reference `steps` times and returns the largest wave the edge
/// reflected at any probe (small minus reference) over the largest incident one at their mirror
/// images.
fn measured_reflection(
    small: &mut SignedGrid,
    large: &mut SignedGrid,
    steps: usize,
    probes: &[Probe],
) -> f64 {
    let (mut reflected, mut incident) = (0.0f64, 0.0f64);
    for _ in 0..steps {
        small.step();
        large.step();
        let (zs, zl) = (small.current(), large.current());
        for probe in probes {
            let (s, l) = (zs[probe.small], zl[probe.large]);
            reflected = reflected.max(f64::from((s - l).abs()));
            incident = incident.max(f64::from(zl[probe.mirror].abs()));
        }
    }
    assert!(incident > 0.0, "the pulse reached the mirror points");
    reflected / incident
}

#[test]
fn absorbing_edge_reflects_under_five_percent_at_normal_incidence() {
    for a in [0.25, 0.5] {
        let r = reflection_ratio(Boundary::Absorbing, a);
        assert!(
            r < 0.05,
            "a = {a}: reflected {:.2}% of the pulse",
            r * 100.0
        );
    }
}

#[test]
fn the_measurement_sees_full_reflection_from_a_reflective_edge() {
    // Guards the method: a mirror-like edge must show up as a large reflection.
    let r = reflection_ratio(Boundary::Reflective, 0.25);
    assert!(r > 0.5, "reflective edge measured at only {r}");
}

/// The oblique measurement's grid: the source 50 cells from the left and bottom edges, room
/// above it for the 60-degree probes.
const OBLIQUE_W: usize = 161;
const OBLIQUE_H: usize = 321;
const SOURCE: f64 = 50.0;
/// The reference grid's margin around the small one: its own edges' echoes arrive after the
/// window ends.
const MARGIN: usize = 130;

/// Reflection from the left absorbing edge of waves meeting it at `degrees` from the normal:
/// by the image-source picture, the wave the edge reflects toward a point Q near it is the
/// incident wave at Q's mirror image beyond the edge times the reflection coefficient. The
/// probes Q (5 to 19 cells in from the edge) lie on rays from the source's image at
/// `degrees`; the window ends before the bottom edge's echo reaches any of them.
fn oblique_reflection_ratio(boundary: Boundary, a: f64, degrees: f64) -> f64 {
    let tan = degrees.to_radians().tan();
    let mut small = signed(OBLIQUE_W, OBLIQUE_H, a, boundary);
    let (lw, lh) = (OBLIQUE_W + 2 * MARGIN, OBLIQUE_H + 2 * MARGIN);
    let mut large = signed(lw, lh, a, Boundary::Fixed);
    set_at_rest(&mut small, bump(SOURCE, SOURCE, PULSE_RADIUS));
    let m = MARGIN as f64;
    set_at_rest(&mut large, bump(SOURCE + m, SOURCE + m, PULSE_RADIUS));
    // The source's image across the left edge (which lies half a cell left of cell 0).
    let image_x = -1.0 - SOURCE;
    let probes: Vec<(usize, usize)> = (5..20)
        .map(|p| {
            let y = SOURCE + (p as f64 - image_x) * tan;
            (p, y.round() as usize)
        })
        .collect();
    // The bottom edge's echo, from the source's image below it, must not reach a probe.
    let bottom_image = (SOURCE, -1.0 - SOURCE);
    let echo = probes
        .iter()
        .map(|&(p, y)| {
            ((p as f64 - bottom_image.0).powi(2) + (y as f64 - bottom_image.1).powi(2)).sqrt()
        })
        .fold(f64::INFINITY, f64::min);
    let reach = echo - 2.0 * PULSE_RADIUS - 4.0;
    assert!(
        2.0 * m > reach + 2.0 * PULSE_RADIUS,
        "the reference's own edges stay out of the window"
    );
    let steps = (reach / a.sqrt()) as usize;
    let probes: Vec<Probe> = probes
        .iter()
        .map(|&q| Probe::at(q, OBLIQUE_W, lw, MARGIN))
        .collect();
    measured_reflection(&mut small, &mut large, steps, &probes)
}

/// Mur's edge is first order: at incidence theta it reflects `(1 - cos theta) / (1 + cos
/// theta)` of a wave, 7.2% at 30 degrees and 33.3% at 60. Measured within 3 points of that at
/// both `a` (6.1% and 6.2% at 30 degrees, 33.0% and 33.4% at 60; 2.7% at normal incidence,
/// where the theory's 0 leaves the discretisation's share); the same measurement sees a
/// reflective edge return all of it (100%) at every angle.
#[test]
fn oblique_waves_are_reflected_as_first_order_theory_says() {
    for degrees in [30.0_f64, 60.0] {
        let cos = degrees.to_radians().cos();
        let theory = (1.0 - cos) / (1.0 + cos);
        for a in [0.25, 0.5] {
            let r = oblique_reflection_ratio(Boundary::Absorbing, a, degrees);
            eprintln!(
                "{degrees} degrees, a = {a}: {:.2}% reflected (first-order theory {:.2}%)",
                r * 100.0,
                theory * 100.0
            );
            assert!(
                (r - theory).abs() < 0.03,
                "{degrees} degrees, a = {a}: {:.2}% against {:.2}%",
                r * 100.0,
                theory * 100.0
            );
        }
        let mirror = oblique_reflection_ratio(Boundary::Reflective, 0.25, degrees);
        assert!(
            mirror > 0.9,
            "{degrees} degrees: a reflective edge measured at {mirror}"
        );
    }
}
