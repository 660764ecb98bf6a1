//! Foam: its decay is the half-life's exactly, breaking crests of a choppy Gerstner wave cover
//! the fraction of the surface the trochoid's Jacobian says, hulls' bow and stern events raise
//! it, and it stays where it is in the world when the grid moves.

mod support;

use std::f64::consts::{PI, TAU};

use glam::Vec2;
use support::bits;
use water_core::ocean::{AmbientSea, SeaSample};
use water_core::{shift_cells, ContactMasks, FoamField, GridSize, WaterError};

/// Coverage decays as `2^(-t / half_life)` from each cell's last source, to 1e-6 over ten
/// half-lives, and a second source adds to what is left and starts the decay again.
#[test]
fn foam_decays_by_its_half_life_exactly() {
    let half_life = 1.7;
    let mut foam = FoamField::new(GridSize::new(4, 4).expect("size"), half_life).expect("foam");
    foam.raise(5, 1.0, 0.0);
    let mut worst = 0.0f64;
    for k in 0..=170 {
        let t = f64::from(k) * 0.1;
        let exact = (-t / half_life).exp2();
        worst = worst.max((f64::from(foam.coverage_at(5, t)) - exact).abs());
    }
    assert!(worst <= 1e-6, "largest error {worst}");
    // Half a half-life on, 0.2 more: 2^-0.5 + 0.2, decaying from t = 0.85 s.
    foam.raise(5, 0.2, 0.85);
    let start = 0.5f64.sqrt() + 0.2;
    for t in [0.85, 2.0, 5.0] {
        let exact = start * (-(t - 0.85) / half_life).exp2();
        let got = f64::from(foam.coverage_at(5, t));
        assert!((got - exact).abs() <= 1e-6, "t = {t}: {got} vs {exact}");
    }
    // Capped at full cover; nothing for a NaN or negative amount.
    foam.raise(6, 3.0, 0.0);
    foam.raise(7, f32::NAN, 0.0);
    foam.raise(7, -1.0, 0.0);
    assert_eq!(
        (foam.coverage_at(6, 0.0), foam.coverage_at(7, 0.0)),
        (1.0, 0.0)
    );
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err = FoamField::new(GridSize::new(4, 4).expect("size"), bad).expect_err("refused");
        let named = matches!(
            err,
            WaterError::NotPositive {
                name: "foam half_life",
                ..
            } | WaterError::NotFinite {
                name: "foam half_life",
                ..
            }
        );
        assert!(named, "{bad}: {err}");
    }
}

/// A choppy Gerstner wave of amplitude `A`, wavenumber `k` and choppiness `lambda` has
/// Jacobian `J = 1 - lambda k A cos(phi)` at phase `phi` of the undisplaced surface, so it
/// breaks (`J < threshold`) over the phases with `cos(phi) > c = (1 - threshold) / (lambda k A)`:
/// a fraction `arccos(c) / pi` of the phase. Foam lies on fixed cells, and a stretch `d phi` of
/// phase covers `J d phi` of the world, so the covered fraction of the cells is
/// `(arccos(c) - lambda k A sqrt(1 - c^2)) / pi` (the folds are squeezed together). The test
/// checks the cells' fraction within 2% of it, and that it is well below the phase's.
#[test]
fn breaking_covers_the_fraction_a_gerstner_waves_jacobian_gives() {
    // A wavelength that is no whole number of cells, so the cells sample every phase.
    let (amplitude, wavelength, choppiness, threshold) = (0.5, 9.73, 2.0, 0.5f32);
    let sea = AmbientSea::regular_wave(amplitude, wavelength, 9.81, None, choppiness).expect("sea");
    let frame = sea.frame(3.7);
    // 41 wavelengths of 0.1 m cells along x, 4 rows.
    let size = GridSize::new(4000, 4).expect("size");
    let points: Vec<Vec2> = (0..size.cells())
        .map(|i| {
            Vec2::new(
                (i % 4000) as f32 * 0.1 + 0.05,
                (i / 4000) as f32 * 0.1 + 0.05,
            )
        })
        .collect();
    let mut samples = vec![
        SeaSample {
            height: 0.0,
            normal: glam::Vec3::Z,
            vertical_velocity: 0.0,
            jacobian: 1.0,
        };
        points.len()
    ];
    frame.samples_into(&points, &mut samples);
    let jacobians: Vec<f32> = samples.iter().map(|s| s.jacobian).collect();
    let mut foam = FoamField::new(size, 2.0).expect("foam");
    let broke = foam
        .add_breaking(&jacobians, threshold, 0.0)
        .expect("sources");
    let covered = foam.coverage(0.0).iter().filter(|&&f| f == 1.0).count();
    assert_eq!(covered, broke);
    let fraction = covered as f64 / size.cells() as f64;
    let steepness = choppiness * TAU / wavelength * amplitude;
    let c = (1.0 - f64::from(threshold)) / steepness;
    let of_phase = c.acos() / PI;
    let of_cells = (c.acos() - steepness * (1.0 - c * c).sqrt()) / PI;
    eprintln!("covered {fraction:.4} of the cells, the trochoid says {of_cells:.4}");
    assert!(
        (fraction / of_cells - 1.0).abs() < 0.02,
        "covered {fraction} of the cells, the trochoid says {of_cells} ({of_phase} of its phase)"
    );
    assert!(
        fraction < 0.6 * of_phase,
        "folds are squeezed: {fraction} vs {of_phase}"
    );
}

/// A hull that moved one cell along +x makes a bow event ahead and a stern event behind: those
/// cells gain the wake's coverage, the cells it still covers do not, nor does a hull heaving in
/// place.
#[test]
fn a_moving_hull_leaves_foam_at_its_bow_and_stern() {
    let size = GridSize::new(8, 4).expect("size");
    let mut masks = ContactMasks::new(size, 0.01).expect("masks");
    let hull = |x0: usize| -> Vec<f32> {
        (0..32)
            .map(|i| f32::from(u8::from((x0..x0 + 3).contains(&(i % 8)) && i / 8 == 1)))
            .collect()
    };
    masks.advance(&hull(2)).expect("mask");
    masks.advance(&hull(3)).expect("mask");
    let mut foam = FoamField::new(size, 1.0).expect("foam");
    foam.add_wake(&masks, 0.4, 0.0).expect("wake");
    let row: Vec<f32> = (8..16).map(|i| foam.coverage_at(i, 0.0)).collect();
    assert_eq!(row, [0.0, 0.0, 0.4, 0.0, 0.0, 0.4, 0.0, 0.0]);
    // The displacement source's masks hold each cell's depth under the hull: a hull heaving in
    // place changes them every step, and makes no bow or stern.
    let heaved: Vec<f32> = hull(3).iter().map(|c| c * 0.7).collect();
    masks.advance(&heaved).expect("mask");
    let mut still = FoamField::new(size, 1.0).expect("foam");
    still.add_wake(&masks, 0.4, 0.0).expect("wake");
    assert!(
        (0..32).all(|i| still.coverage_at(i, 0.0) == 0.0),
        "a heaving hull made foam"
    );
    let other = ContactMasks::new(GridSize::new(4, 4).expect("size"), 0.01).expect("masks");
    assert!(
        foam.add_wake(&other, 0.4, 0.0).is_err(),
        "masks of another grid"
    );
}

/// Foam moves with a grid that follows a focus: after a shift its coverage is the coverage
/// before, moved by `shift_cells`, to the bit, at every later time; a patch stays put in the
/// world across shifts that keep it on the grid.
#[test]
fn foam_stays_put_in_the_world_when_the_grid_moves() {
    let size = GridSize::new(16, 12).expect("size");
    let mut foam = FoamField::new(size, 0.8).expect("foam");
    for (k, i) in [20usize, 21, 37, 100, 150].into_iter().enumerate() {
        foam.raise(i, 0.2 * (k + 1) as f32, 0.1 * k as f64);
    }
    let mut world = foam.coverage(1.0);
    for (dx, dy) in [(3, -2), (-5, 1), (1, 4)] {
        foam.shift(dx, dy);
        shift_cells(&mut world, size, dx, dy, 0.0);
        let moved = foam.coverage(1.0);
        assert_eq!(bits(&moved), bits(&world), "after ({dx}, {dy})");
    }
    let later = foam.coverage(2.5);
    assert!(
        later.iter().zip(&world).all(|(l, w)| *l <= *w),
        "still decaying"
    );
}

/// Surf: a wet cell shallower than `shore_depth` turns white when the surface there stands above
/// McCowan's limit, 0.78 of its still depth, and not below it; deeper water, dry land and a NaN
/// height never foam.
#[test]
fn surf_breaks_at_mccowans_limit_on_shallow_cells_only() {
    use water_core::SURF_BREAKING_RATIO;
    // One row of interest in a 8 x 3 grid: rows 1 and 2 are deep and still.
    let size = GridSize::new(8, 3).expect("size");
    let mut foam = FoamField::new(size, 3.0).expect("foam");
    // Depths (m): dry, three shallow cells, one at the shore depth, deep water.
    let mut depths = vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.0, 4.0, 1.0];
    depths.resize(24, 10.0);
    let limit = |d: f32| SURF_BREAKING_RATIO * d;
    let mut heights = vec![
        1.0,                                      // dry: never
        f32::from_bits(limit(0.5).to_bits() + 1), // just past the limit: breaks
        limit(1.0),                               // at the limit: holds
        limit(1.5) + 0.1,                         // past it: breaks
        limit(2.0) + 1.0,                         // at the shore depth itself: not a shore cell
        -3.0,                                     // a trough: never
        10.0,                                     // deep water: never
        f32::NAN,                                 // no height: never
    ];
    heights.resize(24, 0.0);
    let broke = foam.add_shore(&heights, &depths, 2.0, 0.5).expect("surf");
    let white: Vec<f32> = (0..24).map(|i| foam.coverage_at(i, 0.5)).collect();
    let mut expected = vec![0.0; 24];
    (expected[1], expected[3]) = (1.0, 1.0);
    assert_eq!(white, expected);
    assert_eq!(broke, 2);
    // It decays from the surf's time like every source.
    assert_eq!(foam.coverage_at(1, 3.5), 0.5);
    for bad in [0.0, -1.0, f32::NAN] {
        let err = foam
            .add_shore(&heights, &depths, bad, 0.0)
            .expect_err("refused");
        assert!(err.to_string().contains("foam shore_depth"), "{err}");
    }
    let err = foam
        .add_shore(&heights[..23], &depths, 2.0, 0.0)
        .expect_err("short heights");
    assert!(matches!(err, WaterError::SizeMismatch { .. }), "{err}");
}
