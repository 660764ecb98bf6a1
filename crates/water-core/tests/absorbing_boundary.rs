//! Physics: the absorbing boundary reflects less than 5% of a pulse at normal incidence.
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
use water_core::{Boundary, GridWater};

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
    let probes: Vec<usize> = (5..40).collect(); // distance from the left edge, cells
    let (mut reflected, mut incident) = (0.0f64, 0.0f64);
    for _ in 0..steps {
        small.step();
        large.step();
        let (zs, zl) = (small.current(), large.current());
        for &p in &probes {
            let s = zs[row * SMALL + p];
            let l = zl[(row + offset) * LARGE + p + offset];
            reflected = reflected.max(f64::from((s - l).abs()));
            // Mirror point: p cells beyond the left edge, in the large grid.
            let mirror = zl[(row + offset) * LARGE + offset - 1 - p];
            incident = incident.max(f64::from(mirror.abs()));
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
