//! Classic mode reproduces Hugo Elias's i16 ripple bit for bit.

use glam::Vec2;
use water_core::{ClassicGrid, GridSize, GridWater, Impulse, ImpulseShape, Parallelism};

/// The ripple exactly as the C original writes it, with `short` buffers.
fn reference_step(w: usize, h: usize, src: &[i16], dst: &mut [i16], shift: Option<u32>) {
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let i = y * w + x;
            let sum = src[i - 1] as i32 + src[i + 1] as i32 + src[i - w] as i32 + src[i + w] as i32;
            dst[i] = ((sum >> 1) - dst[i] as i32) as i16;
            if let Some(k) = shift {
                dst[i] = (dst[i] as i32 - ((dst[i] as i32) >> k)) as i16;
            }
        }
    }
}

fn compare(w: usize, h: usize, shift: Option<u32>, amplitude: f32, steps: usize, par: Parallelism) {
    let mut grid = ClassicGrid::new(GridSize::new(w, h).expect("size"), 1.0, shift).expect("grid");
    grid.set_parallelism(par);
    for (k, (x, y)) in [
        (7.0, 5.0),
        (w as f32 * 0.6, h as f32 * 0.5),
        (3.0, h as f32 - 4.0),
    ]
    .into_iter()
    .enumerate()
    {
        grid.add_impulse(
            &Impulse::new(
                Vec2::new(x, y),
                3.0 + k as f32,
                amplitude,
                ImpulseShape::Cosine,
            )
            .expect("impulse"),
        );
    }
    let mut src = grid.current().to_vec();
    let mut dst = grid.previous().to_vec();
    for s in 0..steps {
        grid.step();
        reference_step(w, h, &src, &mut dst, shift);
        std::mem::swap(&mut src, &mut dst);
        assert_eq!(grid.current(), &src[..], "diverged at step {s}");
    }
}

#[test]
fn damped_ripple_matches_the_c_loop_bit_for_bit() {
    compare(61, 43, Some(5), 3000.0, 400, Parallelism::Serial);
    compare(61, 43, Some(1), 3000.0, 100, Parallelism::Serial);
}

#[test]
fn undamped_ripple_with_wrapping_amplitudes_matches_bit_for_bit() {
    // 30000 summed from four neighbours overflows i16: the stores must wrap as C's do.
    compare(40, 37, None, 30_000.0, 300, Parallelism::Serial);
}

#[test]
fn parallel_classic_steps_match_the_c_loop() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("pool");
    pool.install(|| compare(130, 140, Some(4), 8000.0, 120, Parallelism::Parallel));
}

#[test]
fn impulses_round_and_saturate() {
    let size = GridSize::new(9, 9).expect("size");
    let mut grid = ClassicGrid::new(size, 1.0, Some(5)).expect("grid");
    let point = Impulse::new(Vec2::new(4.4, 3.6), 0.0, 2.6, ImpulseShape::Point).expect("impulse");
    grid.add_impulse(&point);
    assert_eq!(
        grid.current()[4 * 9 + 4],
        3,
        "round(2.6) at the nearest cell (4, 4)"
    );
    let big =
        Impulse::new(Vec2::new(4.0, 4.0), 0.0, 40_000.0, ImpulseShape::Point).expect("impulse");
    grid.add_impulse(&big);
    assert_eq!(grid.current()[4 * 9 + 4], i16::MAX, "saturating add");
}

#[test]
fn shift_outside_1_to_15_is_refused() {
    let size = GridSize::new(9, 9).expect("size");
    for k in [0, 16, 40] {
        let err = ClassicGrid::new(size, 1.0, Some(k)).expect_err("bad shift");
        assert!(err.to_string().contains("1..=15"), "{err}");
    }
}
