//! The twiddle tables of the GPU's line transforms (`shaders/shared/fft_line.wgsl`), computed
//! in f64 and rounded once, so the GPU's transforms round like the CPU's.

use std::f64::consts::TAU;

/// `exp(-2 pi i j / n)` for `j < n/2`, from f64.
pub(crate) fn twiddles(n: usize) -> impl Iterator<Item = [f32; 2]> {
    (0..n / 2).map(move |j| {
        let angle = -TAU * j as f64 / n as f64;
        [angle.cos() as f32, angle.sin() as f32]
    })
}
