//! Dispersive water over a varying depth (`DispersiveGrid::set_depth`): a uniform map steps
//! as the relation at that depth does; over three depths at once, each region's waves
//! oscillate at Airy's frequency for its own depth; over a beach with a dry shore the volume
//! is kept and the water stays bounded; a step too long for the deepest cell is refused.

mod support;

use std::f64::consts::TAU;

use water_core::kernels::spectral_depth::MAX_NODES;
use water_core::{
    AiryDispersion, Boundary, Damping, Depth, DispersiveGrid, GridSize, GridWater, WaterError,
};

const G: f64 = 9.81;

fn deep(size: GridSize, cell: f64, dt: f64) -> DispersiveGrid {
    let airy = AiryDispersion::gravity_waves(G).expect("gravity");
    DispersiveGrid::new(size, cell, dt, Damping::NONE, airy, Boundary::Periodic).expect("grid")
}

/// A rough field with both levels set apart, so the waves move.
fn roughen(water: &mut DispersiveGrid, amplitude: f32) {
    let cells = water.size().cells();
    let rough: Vec<f32> = (0..cells)
        .map(|i| amplitude * (((i * 7919) % 613) as f32 / 613.0 - 0.5))
        .collect();
    let (cur, old) = water.field_mut().levels_mut();
    cur.copy_from_slice(&rough);
    old.iter_mut()
        .enumerate()
        .for_each(|(i, o)| *o = rough[(i + 1) % cells]);
}

/// A map of one depth is stepped by the flux form exactly as the relation with that depth is
/// stepped per mode (every mode, the Nyquist ones included): a rough field agrees within 1e-4
/// of its largest height after 300 steps.
#[test]
fn a_uniform_map_steps_as_the_relation_at_its_depth() {
    let size = GridSize::new(48, 40).expect("size");
    let (cell, d, dt) = (0.05, 0.3, 0.02);
    let airy = AiryDispersion::new(G, 0.0, 1000.0, Some(d)).expect("airy");
    let mut relation =
        DispersiveGrid::new(size, cell, dt, Damping::NONE, airy, Boundary::Periodic).expect("grid");
    let mut map = deep(size, cell, dt);
    map.set_depth(&Depth::uniform(size, d as f32).expect("depth"))
        .expect("stable");
    assert_eq!(map.depth_nodes().len(), 1);
    assert!((map.depth_nodes()[0] - d).abs() < 1e-6);
    roughen(&mut relation, 0.01);
    roughen(&mut map, 0.01);
    relation.step_many(300);
    map.step_many(300);
    let (a, b) = (relation.heights(), map.heights());
    let top = a.iter().fold(0.0f32, |m, z| m.max(z.abs()));
    let worst = a
        .iter()
        .zip(&b)
        .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
    eprintln!("uniform map against the relation: {worst:.2e} of {top:.2e}");
    assert!(top > 1e-3, "the water moves ({top})");
    assert!(worst <= 1e-4 * top, "{worst} of {top}");
}

/// The bands tests: three bands of `BAND` rows, each of its own depth, with smooth 16-row
/// steps between them (the grid is periodic in y).
const BAND: usize = 192;
const BAND_DEPTHS: [f64; 3] = [0.04, 0.12, 0.5];

fn band_depth(depths: &[f64; 3], y: f64) -> f64 {
    let rows = (3 * BAND) as f64;
    // Each band's depth weighted by a smooth indicator of its rows.
    let mut sum = 0.0;
    let mut weight = 0.0;
    for (b, &d) in depths.iter().enumerate() {
        let centre = (b as f64 + 0.5) * BAND as f64;
        let mut offset = (y - centre).abs();
        offset = offset.min(rows - offset);
        let inside = 0.5 * (1.0 - ((offset - BAND as f64 / 2.0) / 8.0).tanh());
        sum += inside * d;
        weight += inside;
    }
    sum / weight
}

/// Over a map of three bands of `depths` (64 columns of 2 cm, dt = 0.02 s), a standing wave
/// 32 cells long in each band (a Gaussian band across the band's middle) is stepped `steps`
/// times; its frequency, measured from the zero crossings of its projection on `cos(k x)`, is
/// checked within 2% of Airy's omega at the band's own depth. Gives the reference depths.
fn bands_oscillate_at_airys_frequency(depths: [f64; 3], steps: u32) -> Vec<f64> {
    bands_oscillate_at_airys_frequency_at(depths, steps, 0.02, 0.02)
}

/// [`bands_oscillate_at_airys_frequency`] on cells of `cell` m stepped by `dt` s.
fn bands_oscillate_at_airys_frequency_at(
    depths: [f64; 3],
    steps: u32,
    cell: f64,
    dt: f64,
) -> Vec<f64> {
    let w = 64usize;
    let size = GridSize::new(w, 3 * BAND).expect("size");
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| band_depth(&depths, (i / w) as f64) as f32)
        .collect();
    // Made over the deepest band's depth, whose step limit the map keeps (deep water's is
    // shorter).
    let deepest = depths.iter().copied().fold(0.0, f64::max);
    let airy = AiryDispersion::new(G, 0.0, 1000.0, Some(deepest)).expect("airy");
    let mut water =
        DispersiveGrid::new(size, cell, dt, Damping::NONE, airy, Boundary::Periodic).expect("grid");
    water
        .set_depth(&Depth::from_cells(size, metres).expect("depth"))
        .expect("stable");
    let nodes = water.depth_nodes().to_vec();
    eprintln!("{depths:?}: reference depths {nodes:?}");
    let k = TAU / (32.0 * cell);
    let shape: Vec<f32> = (0..size.cells())
        .map(|i| {
            let (x, y) = ((i % w) as f64, (i / w) as f64);
            let band = (y / BAND as f64).floor();
            let off = y - (band + 0.5) * BAND as f64;
            ((k * x * cell).cos() * (-(off * off) / (2.0 * 32.0 * 32.0)).exp()) as f32
        })
        .collect();
    let (cur, old) = water.field_mut().levels_mut();
    cur.copy_from_slice(&shape);
    old.copy_from_slice(&shape);
    // Each band's projection on cos(k x) over its middle 96 rows.
    let projection = |z: &[f32], band: usize| -> f64 {
        let centre = (band * BAND + BAND / 2) as isize;
        (centre - 48..centre + 48)
            .flat_map(|y| (0..w).map(move |x| (x, y as usize)))
            .map(|(x, y)| f64::from(z[y * w + x]) * (k * x as f64 * cell).cos())
            .sum()
    };
    let mut crossings = [Vec::new(), Vec::new(), Vec::new()];
    let mut before: Vec<f64> = (0..3)
        .map(|b| projection(water.heights().as_slice(), b))
        .collect();
    for n in 1..=steps {
        water.step();
        let heights = water.heights();
        for b in 0..3 {
            let now = projection(&heights, b);
            if before[b].signum() != now.signum() {
                crossings[b].push((f64::from(n - 1) + before[b] / (before[b] - now)) * dt);
            }
            before[b] = now;
        }
    }
    for (b, &d) in depths.iter().enumerate() {
        let c = &crossings[b];
        assert!(c.len() >= 5, "band {b}: {} crossings", c.len());
        let omega = std::f64::consts::PI * (c.len() - 1) as f64 / (c[c.len() - 1] - c[0]);
        let exact = AiryDispersion::new(G, 0.0, 1000.0, Some(d))
            .expect("airy")
            .omega(k);
        let error = (omega - exact).abs() / exact;
        eprintln!(
            "depth {d} m: omega {omega:.4} against Airy {exact:.4} rad/s ({:.3}%)",
            error * 100.0
        );
        assert!(error < 0.02, "depth {d}: {omega} against {exact}");
    }
    nodes
}

/// Three regions of one grid, 0.04, 0.12 and 0.5 m deep: a standing wave 32 cells long in each
/// oscillates within 2% of Airy's omega at the region's own depth; the middle depth lies
/// between the reference depths, so its omega comes from the interpolation.
#[test]
fn each_region_oscillates_at_airys_frequency_for_its_depth() {
    let nodes = bands_oscillate_at_airys_frequency(BAND_DEPTHS, 260);
    assert!(!nodes.iter().any(|&n| (n - BAND_DEPTHS[1]).abs() < 0.01));
}

/// A beach from 1 m deep to a dry shore, undamped and periodic: over 3,000 steps of a rough
/// field the volume moves by less than 1e-4 of the largest height times the area (no water
/// passes the shore or is made by the interpolation), the largest height stays within 2x of
/// its value after 100 steps, and the energy of the flux form within 5%.
#[test]
fn a_beach_keeps_its_volume_and_stays_bounded() {
    let (w, h, cell) = (96usize, 64usize, 0.05);
    let size = GridSize::new(w, h).expect("size");
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| 1.0 - 1.3 * ((i % w) as f32 / (w - 1) as f32))
        .collect();
    let depth = Depth::from_cells(size, metres).expect("depth");
    let probe = AiryDispersion::new(G, 0.0, 1000.0, Some(1.0)).expect("airy");
    let limit = DispersiveGrid::new(size, cell, 1e-9, Damping::NONE, probe, Boundary::Periodic)
        .expect("grid")
        .max_stable_dt();
    let mut water = deep(size, cell, 0.9 * limit);
    water.set_depth(&depth).expect("stable");
    assert!(water.depth_nodes().len() >= 2, "{:?}", water.depth_nodes());
    roughen(&mut water, 0.01);
    // The rough field on the dry cells too would start the mean level moving (the step clears
    // them from the new level only): dry, as `set_depth` leaves them.
    // At rest in that shape (equal levels), so the mean level starts still.
    let dry = depth.land();
    let (cur, old) = water.field_mut().levels_mut();
    for (i, &is_dry) in dry.cells().iter().enumerate() {
        if is_dry {
            cur[i] = 0.0;
        }
    }
    old.copy_from_slice(cur);
    water.step_many(100);
    let (volume, energy) = (water.volume(), water.energy());
    let top = |water: &DispersiveGrid| water.heights().iter().fold(0.0f32, |m, z| m.max(z.abs()));
    let top_start = top(&water);
    water.step_many(3_000);
    let (volume_end, energy_end, top_end) = (water.volume(), water.energy(), top(&water));
    let area = size.cells() as f64 * cell * cell;
    let moved = (volume_end - volume).abs() / area;
    eprintln!(
        "beach: mean level moved {moved:.2e} m; energy {energy:.6e} -> {energy_end:.6e}; \
         largest height {top_start:.3e} -> {top_end:.3e}"
    );
    assert!(moved <= 1e-4 * f64::from(top_start), "{moved}");
    assert!(top_end <= 2.0 * top_start, "{top_start} -> {top_end}");
    assert!(
        (energy_end - energy).abs() <= 0.05 * energy,
        "{energy} -> {energy_end}"
    );
}

/// The map's deepest cell sets the limit: a step the 1 cm relation allows is refused over a
/// map whose deepest cell is 2 m, naming the limit there; half of it is taken.
#[test]
fn the_deepest_cell_sets_the_step_limit() {
    let size = GridSize::new(32, 32).expect("size");
    let cell = 0.1;
    let deepest = AiryDispersion::new(G, 0.0, 1000.0, Some(2.0)).expect("airy");
    let limit = DispersiveGrid::new(size, cell, 1e-9, Damping::NONE, deepest, Boundary::Periodic)
        .expect("grid")
        .max_stable_dt();
    let shallow = AiryDispersion::new(G, 0.0, 1000.0, Some(0.01)).expect("airy");
    let mut water = DispersiveGrid::new(
        size,
        cell,
        1.05 * limit,
        Damping::NONE,
        shallow,
        Boundary::Periodic,
    )
    .expect("stable over 1 cm");
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| 0.01 + 1.99 * (i % 32) as f32 / 31.0)
        .collect();
    let map = Depth::from_cells(size, metres).expect("depth");
    match water.set_depth(&map) {
        Err(WaterError::DispersiveUnstable { max_stable_dt, .. }) => {
            assert!(
                (max_stable_dt - limit).abs() < 1e-9 * limit,
                "{max_stable_dt}"
            );
        }
        other => panic!("{other:?}"),
    }
    let mut water = deep(size, cell, 0.5 * limit);
    water.set_depth(&map).expect("stable");
    assert!(water.depth_nodes().len() >= 3);
}

/// Over a map from 1 cm to 2 m the waves of each depth keep Airy's frequency: bands 1 cm,
/// 14.5 cm and 2 m deep each oscillate within 2% of Airy's omega at their depth (measured, not
/// the interpolation's own estimate), the middle one between the reference depths.
#[test]
fn a_map_from_a_centimetre_to_two_metres_keeps_airys_frequency_at_each_depth() {
    let depths = [0.01, 0.145, 2.0];
    let nodes = bands_oscillate_at_airys_frequency(depths, 300);
    assert!(
        !nodes.iter().any(|&n| (n - depths[1]).abs() < 0.01),
        "{nodes:?}"
    );
}

/// A map from 1 mm to 10 km on 5 cm cells: past the deep limit (every resolved mode in deep
/// water) and below the shallow one (every mode in shallow water) the relation needs no more
/// reference depths, so the map is taken with at most `MAX_NODES` of them; over 2,000 steps
/// the energy stays within 5% (the heights grow where the water is a millimetre deep, as
/// shoaling makes them). The frequencies over such a range:
/// `a_map_from_5_mm_to_10_km_keeps_airys_frequency_at_each_depth`.
#[test]
fn a_map_from_a_millimetre_to_ten_kilometres_is_taken_within_tolerance() {
    let size = GridSize::new(64, 48).expect("size");
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| 0.001 * 10f32.powf(7.0 * (i % 64) as f32 / 63.0))
        .collect();
    let mut water = deep(size, 0.05, 0.01);
    water
        .set_depth(&Depth::from_cells(size, metres).expect("depth"))
        .expect("taken");
    let nodes = water.depth_nodes().len();
    eprintln!("1 mm to 10 km: {nodes} reference depths");
    assert!(nodes <= MAX_NODES, "{nodes}");
    roughen(&mut water, 0.01);
    water.step_many(100);
    let energy = water.energy();
    water.step_many(2_000);
    let energy_end = water.energy();
    eprintln!("energy {energy:.6e} -> {energy_end:.6e}");
    assert!(water.heights().iter().all(|z| z.is_finite()));
    assert!(
        (energy_end - energy).abs() <= 0.05 * energy,
        "{energy} -> {energy_end}"
    );
}

/// Near the stability limit the reference depths still keep each depth's frequency, also where
/// every face is below the shallow-water limit: on 1 m cells, bands 3 mm, 2 cm and 5 cm deep at
/// 95% of the limit the 5 cm water sets (there `omega dt` of the fastest mode nears `pi`, so
/// `L = 1 - cos(omega dt)` is no longer proportional to the depth, as it is for short steps)
/// each oscillate within 2% of Airy's omega. Such steps were refused from about 58% of the
/// limit before the reference depths could reach below the shallow-water limit.
#[test]
fn a_shallow_map_near_the_stability_limit_keeps_airys_frequency_at_each_depth() {
    let size = GridSize::new(64, 3 * BAND).expect("size");
    let deepest = AiryDispersion::new(G, 0.0, 1000.0, Some(0.05)).expect("airy");
    let limit = DispersiveGrid::new(size, 1.0, 1e-9, Damping::NONE, deepest, Boundary::Periodic)
        .expect("grid")
        .max_stable_dt();
    let dt = 0.95 * limit;
    let nodes = bands_oscillate_at_airys_frequency_at([0.003, 0.02, 0.05], 520, 1.0, dt);
    eprintln!("dt {dt:.4} s of a {limit:.4} s limit: reference depths {nodes:?}");
    assert!(nodes.len() > 1, "{nodes:?}");
}

/// Over a map from 5 mm to 10 km the waves of each depth keep Airy's frequency: bands 5 mm,
/// 6 cm and 10 km deep each oscillate within 2% of Airy's omega at their depth, measured.
#[test]
fn a_map_from_5_mm_to_10_km_keeps_airys_frequency_at_each_depth() {
    bands_oscillate_at_airys_frequency([0.005, 0.06, 10_000.0], 320);
}

/// The mean level of a rough field on undamped periodic dispersive water over `steps` steps, as
/// a fraction of the largest height then: what the keeper holds (the spectral step keeps the
/// mean exactly only in exact arithmetic).
fn mean_level_drift(water: &mut DispersiveGrid, steps: u64) -> f64 {
    roughen(water, 0.01);
    let cells = water.size().cells() as f64;
    let mean = |w: &DispersiveGrid| w.heights().iter().map(|&v| f64::from(v)).sum::<f64>() / cells;
    // The exact recurrence moves the mean at the rate the two levels start with (0 here: the
    // previous level is the current one's values in another order).
    let old: f64 = water.field().previous().iter().map(|&v| f64::from(v)).sum();
    let start = mean(water);
    let rate = start - old / cells;
    water.step_many(steps);
    let expected = start + rate * steps as f64;
    let largest = water.heights().iter().fold(0f32, |m, v| m.max(v.abs()));
    (mean(water) - expected).abs() / f64::from(largest)
}

/// Undamped periodic dispersive water keeps its mean level where the exact recurrence puts it
/// (the keeper of the wave grids, `MeanLevelKeeper`, holding the sums of both levels): a rough
/// field over 20,000 steps on 64 x 64 (deep water) and over 10,000 on a 64 x 48 map from 0.1 to
/// 2 m within 1e-5 of its largest height. Without the keeper the 64 x 64 run moved 4e-4.
#[test]
fn undamped_periodic_dispersive_water_keeps_its_mean_level() {
    let mut water = deep(GridSize::new(64, 64).expect("size"), 0.05, 0.02);
    assert!(water.keeps_mean_level());
    let drift = mean_level_drift(&mut water, 20_000);
    eprintln!("deep water, 20,000 steps: mean level {drift:.2e} of the largest height");
    assert!(drift < 1e-5, "{drift}");
    let size = GridSize::new(64, 48).expect("size");
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| 0.1 + 1.9 * (i % 64) as f32 / 63.0)
        .collect();
    let mut water = deep(size, 0.05, 0.01);
    water
        .set_depth(&Depth::from_cells(size, metres).expect("depth"))
        .expect("stable");
    assert!(water.keeps_mean_level());
    let drift = mean_level_drift(&mut water, 10_000);
    eprintln!("over a depth map, 10,000 steps: mean level {drift:.2e} of the largest height");
    assert!(drift < 1e-5, "{drift}");
    // Damped or sponge-edged water does not conserve its volume: no keeper there.
    let airy = AiryDispersion::gravity_waves(G).expect("airy");
    let size = GridSize::new(64, 64).expect("size");
    for (damping, boundary) in [
        (Damping::PerStep(0.999), Boundary::Periodic),
        (Damping::NONE, Boundary::Absorbing),
    ] {
        let water = DispersiveGrid::new(size, 0.05, 0.02, damping, airy, boundary).expect("grid");
        assert!(!water.keeps_mean_level(), "{boundary:?}");
    }
}
