//! Dispersive water against Airy's relation `omega^2 = (g k + sigma k^3 / rho) tanh(k d)`:
//! every resolved Fourier mode (wavelength >= 4 cells) oscillates at its own Airy frequency in
//! deep water, at finite depth and for capillary ripples; the sponge of an absorbing grid takes
//! what reaches it; too long a step is refused with the limit named.

mod support;

use std::f64::consts::{PI, TAU};

use water_core::{
    AiryDispersion, Boundary, Damping, DispersiveGrid, GridSize, GridWater, WaterError,
    WATER_DENSITY, WATER_SURFACE_TENSION,
};

const N: usize = 64;

/// Modes `(mx, my)` of an `N x N` grid: `mx` and `my` wavelengths across it, each at least 4
/// cells long, along the axes, the diagonals and in between, with both signs.
const MODES: [(i32, i32); 12] = [
    (1, 0),
    (2, 0),
    (4, 0),
    (8, 0),
    (16, 0),
    (0, 16),
    (1, 1),
    (3, -5),
    (8, 8),
    (11, -7),
    (-4, 9),
    (0, 5),
];

/// The angular frequency of mode `(mx, my)` measured from the zero crossings of cell (0, 0)
/// over `steps` steps, starting at rest at its crest.
fn measured_omega(
    airy: AiryDispersion,
    cell: f64,
    dt: f64,
    (mx, my): (i32, i32),
    steps: u32,
) -> f64 {
    let size = GridSize::new(N, N).expect("size");
    let mut water = DispersiveGrid::new(size, cell, dt, Damping::NONE, airy, Boundary::Periodic)
        .expect("stable");
    let shape: Vec<f32> = (0..N * N)
        .map(|i| {
            let (x, y) = ((i % N) as f64, (i / N) as f64);
            (TAU * (f64::from(mx) * x + f64::from(my) * y) / N as f64).cos() as f32
        })
        .collect();
    let (cur, old) = water.field_mut().levels_mut();
    cur.copy_from_slice(&shape);
    old.copy_from_slice(&shape);
    support::crossing_omega(&mut water, dt, steps, 6)
}

/// Every mode of `MODES` within 2% of Airy's omega; returns the largest error seen.
fn check_modes(name: &str, airy: AiryDispersion, cell: f64, steps: u32) -> f64 {
    let size = GridSize::new(N, N).expect("size");
    let probe = DispersiveGrid::new(size, cell, 1e-9, Damping::NONE, airy, Boundary::Periodic)
        .expect("grid");
    let dt = 0.3 * probe.max_stable_dt();
    let mut worst = 0.0f64;
    for mode in MODES {
        let k = TAU / (N as f64 * cell) * f64::from(mode.0).hypot(f64::from(mode.1));
        let exact = airy.omega(k);
        let omega = measured_omega(airy, cell, dt, mode, steps);
        let error = (omega - exact).abs() / exact;
        worst = worst.max(error);
        assert!(
            error < 0.02,
            "{name}: mode {mode:?} (wavelength {:.2} cells): omega {omega:.5} against Airy \
             {exact:.5} rad/s ({:.3}%)",
            TAU / k / cell,
            error * 100.0
        );
    }
    eprintln!("{name}: every mode within {:.2e} of Airy's omega", worst);
    worst
}

#[test]
fn deep_water_modes_oscillate_at_airys_frequency() {
    let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
    check_modes("deep water, h = 0.1 m", airy, 0.1, 3_000);
}

#[test]
fn finite_depth_modes_oscillate_at_airys_frequency() {
    let airy = AiryDispersion::new(9.81, 0.0, WATER_DENSITY, Some(0.2)).expect("airy");
    check_modes("d = 0.2 m, h = 0.05 m", airy, 0.05, 3_000);
}

#[test]
fn capillary_ripples_oscillate_at_airys_frequency() {
    let airy = AiryDispersion::new(9.81, WATER_SURFACE_TENSION, WATER_DENSITY, None).expect("airy");
    // At h = 2 mm the shortest modes are capillary (k^3 term 60 times the gravity term at
    // wavelength 4 cells), the longest gravity-capillary.
    check_modes("capillary, h = 2 mm", airy, 0.002, 12_000);
}

/// Packets of 16-cell and 32-cell waves running at the edge of an absorbing grid are taken by
/// its 24-cell sponge: what comes back holds less than 1% (16 cells) and 5% (32 cells, not a
/// wavelength and a half of sponge) of the packet's amplitude.
#[test]
fn the_sponge_takes_wave_packets() {
    for (wavelength, bound) in [(16.0, 0.01), (32.0, 0.05)] {
        let reflected = sponge_reflection(wavelength);
        eprintln!(
            "sponge: {:.2}% of a {wavelength}-cell packet's amplitude came back",
            reflected * 100.0
        );
        assert!(
            reflected < bound,
            "{wavelength} cells: {:.2}% came back",
            reflected * 100.0
        );
    }
}

/// The fraction of a packet's amplitude (root of the energy ratio in the middle rows) left
/// after it ran into the sponge and three times its travel time passed.
fn sponge_reflection(wavelength_cells: f64) -> f64 {
    let (w, h) = (384usize, 192usize);
    let size = GridSize::new(w, h).expect("size");
    let cell = 0.1;
    let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
    let probe = DispersiveGrid::new(size, cell, 1e-9, Damping::NONE, airy, Boundary::Absorbing)
        .expect("grid");
    let dt = 0.3 * probe.max_stable_dt();
    let mut water = DispersiveGrid::new(size, cell, dt, Damping::NONE, airy, Boundary::Absorbing)
        .expect("grid");
    // A right-going packet: z = A(x) cos(k x - omega t) at t = 0 and t = -dt, uniform across y
    // (the sponge at the top and bottom edges is away from the measured middle rows).
    let k = TAU / (wavelength_cells * cell);
    let omega = airy.omega(k);
    let centre = 200.0;
    support::set_travelling_packet(&mut water, (k, omega), (centre, 24.0), cell, dt);
    let middle = |z: &[f32]| -> f64 {
        (h / 2 - 8..h / 2 + 8)
            .flat_map(|y| (40..w - 40).map(move |x| y * w + x))
            .map(|i| f64::from(z[i]).powi(2))
            .sum()
    };
    let start = middle(water.field().current());
    // Deep water's group speed is half its phase speed; the packet's slower parts need about
    // three times the centre's travel to the edge and back.
    let group = 0.5 * omega / k;
    let steps = (3.0 * (w as f64 - centre) * cell / group / dt) as u64;
    water.step_many(steps);
    (middle(water.field().current()) / start).sqrt()
}

#[test]
fn a_step_past_the_fastest_modes_period_limit_is_refused() {
    let size = GridSize::new(32, 32).expect("size");
    let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
    let omega_max = airy.omega(PI * 2f64.sqrt() / 0.1);
    let limit = PI / omega_max;
    let grid = |dt| DispersiveGrid::new(size, 0.1, dt, Damping::NONE, airy, Boundary::Periodic);
    assert!(grid(limit * 0.99).is_ok());
    match grid(limit * 1.01) {
        Err(e @ WaterError::DispersiveUnstable { max_stable_dt, .. }) => {
            assert!((max_stable_dt - limit).abs() < 1e-12 * limit);
            // dt as written, the limit to four digits toward zero (stable as printed).
            let e = e.to_string();
            assert!(
                e.contains(&format!("dt = {:?} s is not below", limit * 1.01)),
                "{e}"
            );
            assert!(
                e.contains(&format!(
                    "pi / omega_max = {} s",
                    water_core::readable_at_most(limit)
                )),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    let err = DispersiveGrid::new(size, 0.1, 0.01, Damping::NONE, airy, Boundary::Reflective)
        .expect_err("reflective");
    assert!(err.to_string().contains("periodic or absorbing"), "{err}");
}

/// Undamped on a periodic grid, the energy the exact recurrence keeps (each mode's
/// `1/2 |Z - Z_old|^2 + (1 - cos(omega dt)) Re(Z conj Z_old)`) stays within 1e-4 of itself over
/// 2,000 steps of a rough field with surface tension, and the mean level moves by less than
/// 1e-4 of the largest height.
#[test]
fn energy_and_volume_are_conserved() {
    let size = GridSize::new(96, 64).expect("size");
    let airy =
        AiryDispersion::new(9.81, WATER_SURFACE_TENSION, WATER_DENSITY, Some(0.3)).expect("airy");
    let probe = DispersiveGrid::new(size, 0.01, 1e-9, Damping::NONE, airy, Boundary::Periodic)
        .expect("grid");
    let dt = 0.5 * probe.max_stable_dt();
    let mut water =
        DispersiveGrid::new(size, 0.01, dt, Damping::NONE, airy, Boundary::Periodic).expect("grid");
    let rough: Vec<f32> = (0..size.cells())
        .map(|i| 0.001 * (((i * 7919) % 613) as f32 / 613.0 - 0.5))
        .collect();
    let (cur, old) = water.field_mut().levels_mut();
    cur.copy_from_slice(&rough);
    // The previous level: the same field a cell to the left, so the waves move and the mean
    // level stands still.
    old.iter_mut()
        .enumerate()
        .for_each(|(i, o)| *o = rough[(i + 1) % rough.len()]);
    let (energy, volume) = (water.energy(), water.volume());
    assert!(energy > 0.0);
    water.step_many(2_000);
    let (energy_end, volume_end) = (water.energy(), water.volume());
    eprintln!("energy {energy:.6e} -> {energy_end:.6e}, volume {volume:.6e} -> {volume_end:.6e}");
    assert!(
        (energy_end - energy).abs() <= 1e-4 * energy,
        "energy {energy} -> {energy_end}"
    );
    // The mean level (volume over area) moves by less than 1e-4 of the largest height.
    let area = size.cells() as f64 * 0.01 * 0.01;
    let top = f64::from(water.heights().iter().fold(0.0f32, |m, z| m.max(z.abs())));
    let moved = (volume_end - volume).abs() / area;
    assert!(
        moved <= 1e-4 * top,
        "mean level moved {moved:e} m, largest height {top:e} m"
    );
}
