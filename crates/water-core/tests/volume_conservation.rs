//! Volume conservation over long undamped runs: on reflective and periodic grids the mean level
//! is a conserved quantity of the exact recurrence, and the mean-level keeper
//! (`kernels::mean_level`) holds the f32 run to it (`docs/math.md`, section 9;
//! `docs/reliability.md`, "Volume conservation").
//!
//! Each soak starts from water at rest, records `max |z|` after the first 1,000 steps, and then
//! checks at every 10^5 steps that the mean level has moved by less than `1e-4` of the current
//! `max |z|` and that `max |z|` stays within 2x of its early value.

mod support;

use support::{bits, bump, params_for, set_at_rest, signed};
use water_core::kernels::grid_step::grid_step;
use water_core::kernels::mean_level::{
    f16_mean_level_period, mean_level_period, MEAN_LEVEL_PERIOD,
};
use water_core::{
    Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, Parallelism, SignedGrid,
    SplitGrid, TemporalBlocking,
};

/// Worst figures of a soak: `(worst mean-level move / max |z|, worst max |z| / early max |z|)`.
#[derive(Debug)]
struct Soak {
    level_over_peak: f64,
    peak_growth: f64,
}

fn mean(v: &[f32]) -> f64 {
    v.iter().map(|&z| f64::from(z)).sum::<f64>() / v.len() as f64
}

fn peak(v: &[f32]) -> f64 {
    v.iter().fold(0.0f64, |m, &z| m.max(f64::from(z.abs())))
}

/// Runs `steps` steps in runs of `chunk` and returns the worst figures.
fn soak(water: &mut dyn GridWater, steps: u64, chunk: u64) -> Soak {
    let start = mean(&water.heights());
    water.step_many(1000);
    let early = peak(&water.heights());
    let (mut level_over_peak, mut peak_growth) = (0.0f64, 0.0f64);
    for done in (1000..steps).step_by(chunk as usize) {
        water.step_many(chunk.min(steps - done));
        let z = water.heights();
        let p = peak(&z);
        level_over_peak = level_over_peak.max((mean(&z) - start).abs() / p);
        peak_growth = peak_growth.max(p / early);
    }
    Soak {
        level_over_peak,
        peak_growth,
    }
}

fn assert_conserved(what: &str, s: &Soak) {
    eprintln!("{what}: {s:?}");
    assert!(
        s.level_over_peak < 1e-4,
        "{what}: mean level moved by {:e} of max |z| ({s:?})",
        s.level_over_peak
    );
    assert!(
        s.peak_growth < 2.0,
        "{what}: max |z| grew {}x ({s:?})",
        s.peak_growth
    );
}

fn split(w: usize, h: usize, a: f64, boundary: Boundary) -> SplitGrid {
    let mut grid = SplitGrid::new(
        GridSize::new(w, h).expect("size"),
        params_for(a, Damping::NONE),
        boundary,
    );
    let (p, n) = grid.channels_mut();
    for (channel, f, amp) in [
        (p, bump(10.0, 12.0, 5.0), 1.0),
        (n, bump(22.0, 19.0, 4.0), 0.7),
    ] {
        let (cur, old) = channel.levels_mut();
        for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
            let v = (amp * f((i % w) as f64, (i / w) as f64)) as f32;
            (*c, *o) = (v, v);
        }
    }
    grid
}

fn signed_at_rest(boundary: Boundary, a: f64) -> SignedGrid {
    let mut grid = signed(32, 32, a, boundary);
    set_at_rest(&mut grid, bump(11.0, 13.0, 5.0));
    grid
}

/// Soaks a 32 x 32 signed grid at rest in a bump for 10^6 steps, checked every 10^5.
fn assert_signed_soak_conserved(what: &str, boundary: Boundary, a: f64) {
    let s = soak(&mut signed_at_rest(boundary, a), 1_000_000, 100_000);
    assert_conserved(what, &s);
}

/// Signed, reflective, `a = 1/2`, 32 x 32, 10^6 steps. Without the keeper (the code before it,
/// measured by switching it off) the mean level moved by 0.29 of max |z|; with it, 1.1e-7.
#[test]
fn reflective_signed_mean_level_is_conserved_over_a_million_steps() {
    assert_signed_soak_conserved("signed reflective", Boundary::Reflective, 0.5);
}

/// Signed, periodic, `a = 1/4`, 32 x 32, 10^6 steps. Without the keeper: 0.21 of max |z|;
/// with it, 1.6e-7.
#[test]
fn periodic_signed_mean_level_is_conserved_over_a_million_steps() {
    assert_signed_soak_conserved("signed periodic", Boundary::Periodic, 0.25);
}

/// Signed, periodic, exactly `a = 1/2` on an even grid, where the checkerboard has a double
/// root too. Without the keeper the checkerboard grew: max |z| 112x its early value and the
/// mean level 0.32 of it; with it, 1.6x (the waves' own focusing) and 2.0e-7.
#[test]
fn periodic_checkerboard_at_a_half_stays_bounded_over_a_million_steps() {
    assert_signed_soak_conserved("signed periodic a = 1/2", Boundary::Periodic, 0.5);
}

/// Split, reflective and periodic, `a = 1/2`, 32 x 32, 10^6 steps. Without the keeper the level
/// was off by 0.32 of max |z| (reflective); with it, 2.0e-7 (reflective) and 1.1e-7 (periodic).
#[test]
fn split_mean_level_is_conserved_over_a_million_steps() {
    for boundary in [Boundary::Reflective, Boundary::Periodic] {
        let s = soak(&mut split(32, 32, 0.5, boundary), 1_000_000, 100_000);
        assert_conserved(&format!("split {boundary}"), &s);
    }
}

/// The channels' common mean is removed: `p` and `n` stay as small as the waves they carry.
/// A zero-sum drop kicked into a split grid gives both channels the same rising mean in exact
/// arithmetic (the core rises in `p`, the ring in `n`); without the removal both channels rose
/// to 808 m in 2e5 steps while `p - n` stayed put; with it they stay under 0.42 m.
#[test]
fn split_channels_do_not_grow_together_after_a_zero_sum_kick() {
    let mut grid = split(32, 32, 0.25, Boundary::Reflective);
    grid.add_impulse(
        &Impulse::new(glam::Vec2::new(16.0, 16.0), 6.0, 0.5, ImpulseShape::Drop).expect("drop"),
    );
    grid.step_many(200_000);
    let channel_peak = peak(grid.positive().current()).max(peak(grid.negative().current()));
    eprintln!("split channels after a zero-sum kick: {channel_peak} m");
    assert!(channel_peak < 10.0, "channels reached {channel_peak} m");
}

/// The correction moves both levels to the exact recurrence's sums, so it adds no velocity:
/// after a kick (which gives the mean level a rate `dS/N` per step in exact arithmetic) the
/// level still rises at that rate, measured over the last 1,024 of 10^5 steps, to 1e-3 of it.
/// Without the keeper the rounding kicks, integrated, put the rate 2.4% off (and the level
/// 1.6% off: 23.18 m where the recurrence gives 22.82 m).
#[test]
fn a_kick_keeps_the_mean_level_rate_the_exact_recurrence_gives() {
    let mut grid = signed(32, 32, 0.25, Boundary::Reflective);
    let kick =
        Impulse::new(glam::Vec2::new(16.0, 16.0), 5.0, 0.01, ImpulseShape::Cosine).expect("kick");
    let before = mean(grid.current());
    grid.add_impulse(&kick);
    let rate = mean(grid.current()) - before;
    grid.step_many(100_000 - 1024);
    let start = mean(grid.current());
    grid.step_many(1024);
    let measured = (mean(grid.current()) - start) / 1024.0;
    eprintln!("kick: rate {measured:e}, exact recurrence {rate:e}");
    assert!(
        (measured - rate).abs() < 1e-3 * rate,
        "rate {measured:e}, exact recurrence {rate:e}"
    );
}

/// Temporally blocked runs, split where corrections fall, give the same bits as single steps
/// with their corrections, on any number of threads.
#[test]
fn blocked_runs_apply_the_same_corrections_as_single_steps_bit_for_bit() {
    let size = GridSize::new(96, 80).expect("size");
    let mut single = SignedGrid::new(size, params_for(0.5, Damping::NONE), Boundary::Reflective);
    set_at_rest(&mut single, bump(30.0, 40.0, 9.0));
    let mut blocked = single.clone();
    blocked.set_temporal_blocking(TemporalBlocking::Always);
    blocked.set_parallelism(Parallelism::Parallel);
    let steps = 3 * MEAN_LEVEL_PERIOD + 37;
    assert!(blocked.blocks(steps));
    for _ in 0..steps {
        single.step();
    }
    blocked.step_many(100);
    blocked.step_many(steps - 100);
    assert_eq!(bits(single.current()), bits(blocked.current()));
    assert_eq!(
        bits(single.field().previous()),
        bits(blocked.field().previous())
    );
}

/// Damped grids, and fixed or absorbing edges, take or lose water by design: their steps are
/// the bare stencil, bit for bit, past several correction periods.
#[test]
fn damped_and_open_grids_are_the_bare_stencil_bit_for_bit() {
    let size = GridSize::new(40, 36).expect("size");
    let cases = [
        (Boundary::Reflective, Damping::PerStep(0.999)),
        (Boundary::Periodic, Damping::PerStep(0.999)),
        (Boundary::Fixed, Damping::NONE),
        (Boundary::Absorbing, Damping::NONE),
    ];
    for (boundary, damping) in cases {
        let params = params_for(0.4, damping);
        let mut grid = SignedGrid::new(size, params, boundary);
        set_at_rest(&mut grid, bump(14.0, 15.0, 6.0));
        let k = params.coefficients();
        let (mut cur, mut old) = (grid.current().to_vec(), grid.field().previous().to_vec());
        let steps = 2 * MEAN_LEVEL_PERIOD + 5;
        grid.step_many(steps);
        for _ in 0..steps {
            grid_step(size, k, boundary, &cur, &mut old, Parallelism::Serial);
            std::mem::swap(&mut cur, &mut old);
        }
        assert_eq!(bits(grid.current()), bits(&cur), "{boundary} {damping:?}");
    }
}

/// `(cells, f32 period, f16 period)`: the correction periods derived by hand for grids of
/// these sizes (`docs/math.md`, section 9).
const DERIVED_PERIODS: [(usize, u64, u64); 8] = [
    (8 * 8, 32, 4),
    (24 * 20, 32, 4),
    (32 * 32, 32, 4),
    (64 * 64, 128, 4),
    (128 * 128, 256, 8),
    (256 * 256, 512, 16),
    (1024 * 1024, 1024, 32),
    (4096 * 4096, 4096, 64),
];

/// The period grows with the grid as derived (`docs/math.md`, section 9): the largest power of
/// two with `K <= N / 32` and `K^(3/2) <= 64 sqrt(N)`, at least 32.
#[test]
fn the_correction_period_grows_with_the_cell_count_as_derived() {
    for (cells, period, _) in DERIVED_PERIODS {
        assert_eq!(mean_level_period(cells), period, "{cells} cells");
    }
}

/// f16 storage's period (`docs/math.md`, section 9): the largest power of two with
/// `K^(3/2) <= sqrt(N) / 4`, at least 4 and at most the f32 period.
#[test]
fn the_f16_correction_period_grows_with_the_cell_count_as_derived() {
    for (cells, _, period) in DERIVED_PERIODS {
        assert_eq!(f16_mean_level_period(cells), period, "{cells} cells");
    }
}

/// At a larger grid's longer period (128 x 128: 256 steps) no step changes the volume's rate by
/// more than its own rounding bound `2 N eps max |z|` (measured: 0.17 of it), and the mean level
/// stays within 1e-4 of max |z| (measured: 3.5e-6). Without the keeper the level moved by
/// 3.1e-4 of max |z| in these 20,000 steps.
#[test]
fn a_longer_period_on_a_larger_grid_keeps_each_step_within_its_rounding() {
    let (w, h) = (128, 128);
    assert_eq!(mean_level_period(w * h), 256);
    let mut grid = signed(w, h, 0.25, Boundary::Reflective);
    set_at_rest(&mut grid, bump(48.0, 51.0, 24.0));
    let cells = (w * h) as f64;
    let volume = |g: &SignedGrid| g.current().iter().map(|&z| f64::from(z)).sum::<f64>();
    let v0 = volume(&grid);
    let (mut v_prev, mut v) = (v0, v0);
    let (mut worst_accel, mut worst_level) = (0.0f64, 0.0f64);
    for _ in 0..20_000 {
        grid.step();
        let v_next = volume(&grid);
        let peak = peak(grid.current());
        let bound = 2.0 * cells * peak * f64::from(f32::EPSILON);
        worst_accel = worst_accel.max((v_next - 2.0 * v + v_prev).abs() / bound);
        worst_level = worst_level.max((v_next - v0).abs() / cells / peak);
        (v_prev, v) = (v, v_next);
    }
    eprintln!("128 x 128: worst accel {worst_accel} bounds, level {worst_level:e} of max |z|");
    assert!(
        worst_accel <= 1.0,
        "a step moved the rate by {worst_accel} bounds"
    );
    assert!(
        worst_level < 1e-4,
        "mean level moved by {worst_level:e} of max |z|"
    );
}

/// 64 x 64, reflective, `a = 1/2`, 10^6 steps at its period of 128. Without the keeper the mean
/// level moved by 0.35 of max |z|; with it, 4.2e-7. The period is capped by the level's wander
/// within it (`K^(3/2) <= 64 sqrt(N)`): a period of 4,096 here gave 3.1e-5.
#[test]
fn the_mean_level_of_a_larger_grid_is_conserved_at_its_period_over_a_million_steps() {
    let mut grid = signed(64, 64, 0.5, Boundary::Reflective);
    set_at_rest(&mut grid, bump(22.0, 27.0, 9.0));
    let s = soak(&mut grid, 1_000_000, 100_000);
    assert_conserved("signed reflective 64 x 64", &s);
}
