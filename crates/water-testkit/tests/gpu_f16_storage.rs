//! f16 storage on the compute backend does exactly what f32 storage does, rounded: every store
//! rounds to nearest f16 (ties to even) bit for bit as the host does; every step, impulse, land
//! change and contact event gives the f32 result rounded; odd widths pack correctly; and what is
//! not offered is refused by name. How the rounding errors add up is gpu_f16_accuracy.rs.

use glam::Vec2;
use water_core::{
    Boundary, ContactMasks, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask,
    WaveParams,
};
use water_gpu::GpuGridWater;
use water_gpu::{f16_to_f32, f32_to_f16, round_to_f16};
use water_gpu::{ComputeGrid, GpuBackend, GpuContext, GpuError, GpuGrid, GridSpec, StorageFormat};
use water_testkit::gpu_or_return;

/// `a = 1/4`, `b = 1`, no damping: then a cell whose four neighbours are 0 and whose previous
/// value is 0 steps to itself, and a cell whose own values are 0 steps to a quarter of its
/// neighbours' sum. Both are exact in f32, so what the GPU stores is the rounding alone.
fn probe_spec(mode: GridMode, size: GridSize) -> GridSpec {
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::NONE).expect("params");
    GridSpec::new(size, params, Boundary::Periodic, mode)
}

/// `spec` on the compute backend in f16 storage.
fn f16_grid(gpu: &GpuContext, spec: GridSpec) -> ComputeGrid {
    ComputeGrid::with_storage(&gpu.device, &gpu.queue, spec, StorageFormat::F16).expect("f16 grid")
}

/// A checkerboard on a 256 x 256 grid: the "white" cells (x + y odd) hold 0, the "black" ones
/// f16 values in bands of 8 rows, band `b` in binade `b % 31` (0: the subnormals), negative in
/// every other band. The 1024 black cells of a band take the 1024 mantissas once each, in an
/// order scrambled by `multiplier` (odd), so every finite f16 magnitude appears and neighbours have
/// unrelated mantissas: about a quarter of the white cells' quarter-sums then lie exactly
/// half-way between two f16 values.
fn checkerboard(size: GridSize, multiplier: usize) -> Vec<f32> {
    let w = size.width();
    (0..size.cells())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            if (x + y) % 2 == 1 {
                return 0.0;
            }
            let band = y / 8;
            let t = (y % 8) * (w / 2) + x / 2;
            let mantissa = scramble(t, multiplier);
            let sign = if band % 2 == 1 { 0x8000 } else { 0 };
            f16_to_f32(((band % 31) << 10 | mantissa) as u16 | sign)
        })
        .collect()
}

/// A bijection of 0..1024 that is not linear (multiplications by odd numbers and xor-shifts, each
/// invertible on 10 bits): a linear one would make the four neighbours' mantissas sum to the
/// same residue mod 4 everywhere, and no quarter-sum would be a tie.
fn scramble(t: usize, multiplier: usize) -> usize {
    let mut m = (t * multiplier) % 1024;
    m ^= m >> 5;
    m = (m * 389) % 1024;
    m ^ (m >> 3)
}

/// Whether `v` lies exactly half-way between two neighbouring f16 values.
fn is_tie(v: f32) -> bool {
    let h = f32_to_f16(v);
    let d = (f64::from(f16_to_f32(h)) - f64::from(v)).abs();
    d != 0.0
        && [h.wrapping_sub(1), h.wrapping_add(1)]
            .iter()
            .any(|&n| (f64::from(f16_to_f32(n)) - f64::from(v)).abs() == d)
}

/// One step of `z_new = d (a (((N + S) + E) + W) + b z − z_old)` on a periodic grid, in f32 in
/// the kernels' order, with `a = 1/4`, `b = d = 1`.
fn step_f32(size: GridSize, cur: &[f32], old: &[f32]) -> Vec<f32> {
    let (w, h) = (size.width(), size.height());
    (0..size.cells())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let n = cur[(y + h - 1) % h * w + x];
            let s = cur[(y + 1) % h * w + x];
            let e = cur[y * w + (x + 1) % w];
            let west = cur[y * w + (x + w - 1) % w];
            (0.25 * (((n + s) + e) + west) + cur[i]) - old[i]
        })
        .collect()
}

fn rounded(values: &[f32]) -> Vec<f32> {
    values.iter().map(|&v| round_to_f16(v)).collect()
}

/// Asserts two fields are equal bit for bit as f16 values, naming the first difference.
fn assert_same_bits(what: &str, width: usize, expected: &[f32], got: &[f32]) {
    assert_eq!(expected.len(), got.len(), "{what}: lengths");
    let differing: Vec<usize> = (0..expected.len())
        .filter(|&i| f32_to_f16(expected[i]) != f32_to_f16(got[i]))
        .collect();
    if let Some(&i) = differing.first() {
        // Rows run on through the planes of a split level.
        let (x, row) = (i % width, i / width);
        panic!(
            "{what}: {} of {} values differ, first at x {x}, row {row}: expected {:e} \
             ({:#06x}), got {:e} ({:#06x})",
            differing.len(),
            expected.len(),
            expected[i],
            f32_to_f16(expected[i]),
            got[i],
            f32_to_f16(got[i]),
        );
    }
}

#[test]
fn f16_stores_round_to_nearest_even_bit_for_bit_as_the_host_does() {
    let gpu = gpu_or_return!("f16_stores_round_to_nearest_even");
    // 256 x 256: 32768 black cells, so every finite f16 value appears; the white cells'
    // quarter-sums need rounding, many of them exactly half-way, across the subnormal and
    // normal ranges.
    let size = GridSize::new(256, 256).expect("size");
    for mode in [GridMode::Signed, GridMode::Split] {
        let channels: Vec<Vec<f32>> = match mode {
            // `n` holds the same values as `p`, negated and in another order: the channels'
            // common mean is then zero, and the mean-level keeper (the grid is undamped and
            // periodic) has nothing to take out of them when it anchors.
            GridMode::Split => vec![
                checkerboard(size, 601),
                checkerboard(size, 389).iter().map(|v| -v).collect(),
            ],
            _ => vec![checkerboard(size, 601)],
        };
        let zeros = vec![0.0; size.cells()];
        let level: Vec<f32> = channels.concat();
        let previous = vec![0.0; level.len()];
        let spec = probe_spec(mode, size);

        // One plain step: each level rounded once.
        let mut grid = f16_grid(&gpu, spec);
        grid.upload_f32(&level, &previous).expect("upload");
        grid.step().expect("step");
        let stepped: Vec<f32> = channels
            .iter()
            .flat_map(|c| step_f32(size, c, &zeros))
            .collect();
        let ties = stepped.iter().filter(|&&v| is_tie(v)).count();
        assert!(
            ties * 16 > stepped.len(),
            "{mode}: only {ties} ties: the probe would not tell ties-to-even from other rules"
        );
        let expected = rounded(&stepped);
        assert_same_bits(
            &format!("{mode}: one step"),
            256,
            &expected,
            &grid.channels().expect("read"),
        );

        // Four single steps round every level; one fused dispatch of four steps rounds only the
        // two it writes.
        let four = |fused: bool| -> Vec<f32> {
            channels
                .iter()
                .flat_map(|c| {
                    let (mut old, mut cur) = (zeros.clone(), c.clone());
                    for _ in 0..4 {
                        let mut new = step_f32(size, &cur, &old);
                        if !fused {
                            new = rounded(&new);
                        }
                        (old, cur) = (cur, new);
                    }
                    rounded(&cur)
                })
                .collect()
        };
        let mut single = f16_grid(&gpu, spec);
        single.upload_f32(&level, &previous).expect("upload");
        for _ in 0..4 {
            single.step().expect("step");
        }
        assert_same_bits(
            &format!("{mode}: four single steps"),
            256,
            &four(false),
            &single.channels().expect("read"),
        );
        let mut fused = f16_grid(&gpu, spec);
        fused.upload_f32(&level, &previous).expect("upload");
        fused.step_many(4).expect("steps");
        assert_eq!(fused.dispatches_recorded(), 1, "one fused dispatch");
        assert_same_bits(
            &format!("{mode}: one fused dispatch"),
            256,
            &four(true),
            &fused.channels().expect("read"),
        );
    }
}

/// The f16 grid and an f32 grid of the same spec, stepped alike.
struct Pair {
    f16: ComputeGrid,
    f32: ComputeGrid,
    /// The f16 grid's previous level, as the f16 grid holds it.
    previous: Vec<f32>,
    name: String,
}

impl Pair {
    fn new(gpu: &GpuContext, spec: GridSpec) -> Self {
        let f16 = f16_grid(gpu, spec);
        let f32 = ComputeGrid::new(&gpu.device, &gpu.queue, spec).expect("f32 grid");
        let previous = vec![0.0; f16.values_per_level()];
        let name = format!("{}-{}", spec.mode.name(), spec.boundary.name());
        Self {
            f16,
            f32,
            previous,
            name,
        }
    }

    /// Runs `op` on both grids from the f16 grid's state and checks that the f16 grid holds the
    /// f32 grid's result rounded. `steps` says whether the op took one step (and so made the
    /// current level the previous one).
    fn check(&mut self, what: &str, steps: bool, op: impl Fn(&mut ComputeGrid)) {
        let current = self.f16.channels().expect("read f16");
        self.f32
            .upload_f32(&current, &self.previous)
            .expect("upload f32");
        op(&mut self.f16);
        op(&mut self.f32);
        let got = self.f16.channels().expect("read f16");
        let want = rounded(&self.f32.channels().expect("read f32"));
        // The two kernels compute the same f32 expression; a compiler that contracted one
        // differently could move a value across a rounding boundary (one f16 ulp, rarely).
        let mut differing = 0;
        for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
            if g != w {
                differing += 1;
                let ulp = (f32_to_f16(g) as i32 - f32_to_f16(w) as i32).abs();
                assert!(
                    ulp <= 1 && g.signum() == w.signum(),
                    "{} {what}: value {i} is {g:e}, the f32 result rounds to {w:e}",
                    self.name
                );
            }
        }
        assert!(
            differing * 1000 <= got.len(),
            "{} {what}: {differing} of {} values differ from the rounded f32 result",
            self.name,
            got.len()
        );
        if steps {
            self.previous = current;
        }
        assert_padding_is_zero(&self.f16, &format!("{} {what}", self.name));
    }
}

/// The padding half of every odd row's last word must stay +0, as crate::storage documents,
/// whatever wrote the word.
fn assert_padding_is_zero(grid: &ComputeGrid, what: &str) {
    let width = grid.spec().size.width();
    if width.is_multiple_of(2) {
        return;
    }
    let row_words = width.div_ceil(2);
    let bytes = grid
        .read_current_async()
        .expect("read")
        .wait()
        .expect("bytes");
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
    for (row, chunk) in words.chunks_exact(row_words).enumerate() {
        assert_eq!(
            chunk[row_words - 1] >> 16,
            0,
            "{what}: padding half of row {row} is not zero"
        );
    }
}

#[test]
fn every_f16_operation_is_the_f32_operation_rounded() {
    let gpu = gpu_or_return!("every_f16_operation_is_the_f32_operation_rounded");
    // 37 x 29: odd rows (a padding half in every row's last word), tiles of 16 cut off at both
    // edges.
    let size = GridSize::new(37, 29).expect("size");
    let (w, h) = (size.width(), size.height());
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::PerStep(0.998)).expect("params");
    for mode in [GridMode::Signed, GridMode::Split] {
        for boundary in Boundary::ALL {
            let spec = GridSpec::new(size, params, boundary, mode);
            let mut pair = Pair::new(&gpu, spec);
            let mut land = LandMask::empty(size);
            // Land on odd and even columns, and on the last (odd-width) column.
            land.add_rect(w - 1, 3, w, 9).expect("land");
            land.add_rect(10, 20, 13, 24).expect("land");
            pair.check("land", false, |g| g.set_land(land.clone()).expect("land"));
            let impulses = [
                Impulse::new(Vec2::new(8.0, 9.0), 5.0, 0.8, ImpulseShape::Cosine),
                Impulse::new(Vec2::new(36.0, 14.0), 4.0, -0.6, ImpulseShape::Linear),
                Impulse::new(Vec2::new(20.3, 3.7), 0.0, 0.5, ImpulseShape::Point),
            ];
            for (k, impulse) in impulses.into_iter().enumerate() {
                let impulse = impulse.expect("impulse");
                pair.check(&format!("impulse {k}"), false, |g| {
                    g.add_impulse(&impulse).expect("impulse");
                });
                for s in 0..6 {
                    pair.check(&format!("step {s} after impulse {k}"), true, |g| {
                        g.step().expect("step");
                    });
                }
            }
            // A hull moving one cell per step: bow and stern events.
            let mut contacts = ContactMasks::new(size, 0.3).expect("contacts");
            for s in 0..8 {
                let mut mask = vec![0.0; size.cells()];
                for dx in 0..4 {
                    mask[16 * w + 5 + s + dx] = 1.0 + 0.25 * dx as f32;
                }
                contacts.advance(&mask).expect("mask");
                pair.check(&format!("contact step {s}"), true, |g| {
                    g.step_with_contacts(&contacts).expect("contact step");
                });
            }
            pair.check("new land", false, |g| {
                let mut more = land.clone();
                more.add_rect(0, h - 2, 5, h).expect("land");
                g.set_land(more).expect("land");
            });
            for s in 0..3 {
                pair.check(&format!("step {s} after new land"), true, |g| {
                    g.step().expect("step");
                });
            }
            if boundary != Boundary::Absorbing {
                // One fused dispatch: four f32 steps in workgroup memory on both grids, so the
                // f16 grid's newest level is the f32 grid's rounded. (Last: the level before it
                // is one the host cannot read, and the next check would need it.)
                pair.check("fused dispatch", false, |g| {
                    let before = g.dispatches_recorded();
                    g.step_many(4).expect("steps");
                    assert_eq!(g.dispatches_recorded(), before + 1, "one fused dispatch");
                });
            }
            let moved = pair.f16.heights().expect("heights");
            assert!(
                moved.iter().any(|v| v.abs() > 0.05),
                "{}: the waves moved",
                pair.name
            );
        }
    }
}

#[test]
fn odd_widths_round_trip_exactly_in_half_the_bytes() {
    let gpu = gpu_or_return!("odd_widths_round_trip_exactly_in_half_the_bytes");
    let size = GridSize::new(37, 29).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::NONE).expect("params");
    for mode in [GridMode::Signed, GridMode::Split] {
        let channels = if mode == GridMode::Split { 2 } else { 1 };
        let spec = GridSpec::new(size, params, Boundary::Reflective, mode);
        // f16-exact values, different in every cell and channel, both signs.
        let level: Vec<f32> = (0..channels * size.cells())
            .map(|i| round_to_f16((i as f32 * 0.37).sin() * (1.0 + i as f32 * 0.01)))
            .collect();
        let previous: Vec<f32> = level.iter().map(|v| -0.5 * v).collect();
        let mut f16 = f16_grid(&gpu, spec);
        let mut f32 = ComputeGrid::new(&gpu.device, &gpu.queue, spec).expect("f32 grid");
        f16.upload_f32(&level, &previous).expect("upload");
        f32.upload_f32(&level, &previous).expect("upload");

        // 19 words per row of 37 cells: half the bytes, plus one padding half per row.
        let f16_bytes = (19 * 29 * channels * 4) as u64;
        assert_eq!(f16.current_buffer().size(), f16_bytes);
        assert_eq!(f32.current_buffer().size(), (37 * 29 * channels * 4) as u64);
        let raw = f16
            .read_current_async()
            .expect("read")
            .wait()
            .expect("bytes");
        assert_eq!(raw.len() as u64, f16_bytes);
        assert_padding_is_zero(&f16, &format!("{mode}: upload"));

        assert_eq!(
            f16.channels().expect("channels"),
            level,
            "{mode}: round trip"
        );
        assert_eq!(
            f16.heights().expect("heights"),
            f32.heights().expect("heights"),
            "{mode}: heights"
        );
        // The surface pass reads the packed words: the same heights give the same texels.
        assert_eq!(
            f16.read_normal_height().expect("surface"),
            f32.read_normal_height().expect("surface"),
            "{mode}: surface"
        );
    }
}

#[test]
fn f16_storage_is_refused_where_it_is_not_offered() {
    let gpu = gpu_or_return!("f16_storage_is_refused_where_it_is_not_offered");
    let size = GridSize::new(32, 24).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::NONE).expect("params");
    let classic = GridSpec::new(size, params, Boundary::Fixed, GridMode::Classic);
    let signed = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
    let f16 = StorageFormat::F16;
    // Each refusal names f16 and why: classic cells are i16 on either backend; the fragment
    // backend stores no f16 in any mode (its own constructor takes no storage at all).
    let refusals = [
        (
            "classic",
            ComputeGrid::with_storage(&gpu.device, &gpu.queue, classic, f16).expect_err("classic"),
        ),
        (
            "classic",
            GpuGrid::with_storage(GpuBackend::Compute, &gpu.device, &gpu.queue, classic, f16)
                .expect_err("classic"),
        ),
        (
            "fragment",
            GpuGrid::with_storage(GpuBackend::Fragment, &gpu.device, &gpu.queue, signed, f16)
                .expect_err("fragment"),
        ),
    ];
    for (reason, err) in refusals {
        assert!(
            matches!(
                err,
                GpuError::StorageNotOffered {
                    storage: StorageFormat::F16,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("f16") && err.to_string().contains(reason),
            "{err}"
        );
    }

    let mut grid = f16_grid(&gpu, signed);
    let mut level = vec![0.5; size.cells()];
    level[77] = 70_000.0;
    let err = grid.upload_f32(&level, &level).expect_err("beyond f16");
    assert!(err.to_string().contains("index 77"), "{err}");
    level[77] = f32::NAN;
    assert!(grid.upload_f32(&level, &level).is_err());
    let err = grid.upload_f32(&[0.0; 10], &[0.0; 10]).expect_err("size");
    assert!(matches!(err, GpuError::Invalid(_)), "{err:?}");
}
