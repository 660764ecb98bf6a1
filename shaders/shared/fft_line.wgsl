// fft_line: the in-place radix-2 transform of one line (a row or a column) held in workgroup
// memory, shared by the kernels that transform whole grids a line per workgroup
// (spectral_step.wgsl, ocean_synthesis.wgsl). Each importer binds its table of
// exp(-2 pi i j / n) and reads it through its own `twiddle(index)`.
// Host twin: crates/water-gpu/src/fft_twiddles.rs (the twiddle tables, from f64).

// Invocations per workgroup of every line kernel.
const GROUP: u32 = 256u;
// Longest line a workgroup transforms: 2048 complex values are 16 KiB, the workgroup memory
// every WebGPU device offers (`SPECTRAL_MAX_SIDE` in crates/water-gpu/src/compute_grid/spectral.rs).
const MAX_SIDE: u32 = 2048u;
var<workgroup> line: array<vec2<f32>, MAX_SIDE>;

fn complex_mul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// Where value `i` of a line of 2^log2n goes before the in-place transform.
fn bit_reversed(i: u32, log2n: u32) -> u32 {
    return reverseBits(i) >> (32u - log2n);
}

// The in-place radix-2 transform (decimation in time) of `line[0..2^log2n]`, loaded in
// bit-reversed order: forward `sum z_j exp(-2 pi i j k / n)`, or unnormalised inverse.
// `twiddle_base` picks the importer's table for this line's length.
fn transform_line(lid: u32, log2n: u32, twiddle_base: u32, inverse: bool) {
    let n = 1u << log2n;
    for (var stage = 0u; stage < log2n; stage++) {
        let half = 1u << stage;
        let stride = n >> (stage + 1u);
        for (var j = lid; j < n / 2u; j += GROUP) {
            let pos = j & (half - 1u);
            let i0 = ((j >> stage) << (stage + 1u)) + pos;
            let i1 = i0 + half;
            var w = twiddle(twiddle_base + pos * stride);
            if (inverse) {
                w.y = -w.y;
            }
            let t = complex_mul(w, line[i1]);
            let a = line[i0];
            line[i0] = a + t;
            line[i1] = a - t;
        }
        workgroupBarrier();
    }
}
