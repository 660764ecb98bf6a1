// spectral_step: one step of the dispersive model, exact for every Fourier mode of a periodic
// grid, compute version. CPU twin: crates/water-core/src/kernels/spectral_step.rs (with the
// contact events, the sponge and the land of `DispersiveGrid::step_once` in
// crates/water-core/src/dispersive_grid.rs, fused into the last kernel here).
//
//   z_new = d * (2 (z + IFFT((cos(omega_k dt) - 1) FFT z)) - z_old)
//
// (the transforms carry the step's change, so their rounding is relative to it: see the CPU
// twin's docs).
// Three dispatches a step, each one workgroup per line of the grid holding the line in
// workgroup memory: `rows_forward` (the rows' transforms into `spectrum`),
// `columns_nodes` (each column's transform, times the mode factors, and back into `work`) and
// `rows_finish` (the rows back, then the cell's new height). The CPU transforms rows
// real-to-complex; here every transform is complex (a real row with zero imaginary parts), so
// the factors cover all W columns (`mode_factor` in the CPU twin). Radix-2, so both sides are
// powers of two up to MAX_SIDE (the host refuses others by name).
//
// Over a depth map (`s.nodes > 0`) the step is `z_new = d (2 (z - L z) - z_old)` with the flux
// divergence `L z = D^T W M D z` of crates/water-core/src/kernels/spectral_depth.rs (its CPU
// twin), in four dispatches: `depth_rows_forward` (each cell's east and south face differences
// as one complex field, rows transformed), `columns_nodes` (columns transformed, then for
// each reference depth times its multipliers and back into its plane of `work`), `depth_rows_nodes` (each
// reference depth's rows back, weighted by the faces' weights into `flux`) and `depth_finish`
// (each cell's net flux, the new height, contact events, sponge and land). The multipliers are
// real and even in k, so the two face differences share one complex transform.

#import grid_uniforms
#import contact_events
#import fft_line

struct SpectralUniforms {
    log2_width: u32,
    log2_height: u32,
    has_sponge: u32,
    nodes: u32, // reference depths of a depth map (0: uniform depth, `factors`)
}

@group(0) @binding(0) var<uniform> u: GridUniforms;
// The current level (read by `rows_forward`, times the sponge in `rows_finish`: the CPU's
// sponge takes both levels), the previous level and the new one, one f32 per cell.
@group(0) @binding(1) var<storage, read_write> cur: array<f32>;
@group(0) @binding(2) var<storage, read> old: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
// The spectral step's own uniforms.
@group(0) @binding(7) var<uniform> s: SpectralUniforms;
// One flag per cell (1: land), and the contact masks C_new and C_old, one value per cell.
@group(0) @binding(4) var<storage, read> land: array<u32>;
@group(0) @binding(5) var<storage, read> contact_new: array<f32>;
@group(0) @binding(6) var<storage, read> contact_old: array<f32>;
// The complex spectrum between the kernels, row-major W x H.
@group(0) @binding(8) var<storage, read_write> spectrum: array<vec2<f32>>;
// `(cos(omega_k dt) - 1) / (W H)` per spectral cell, row-major W x H.
@group(0) @binding(9) var<storage, read> factors: array<f32>;
// exp(-2 pi i j / W) for j < W/2, then exp(-2 pi i j / H) for j < H/2 (from f64 on the host).
@group(0) @binding(10) var<storage, read> twiddles: array<vec2<f32>>;
// The absorbing sponge's factor per cell (one placeholder value without a sponge).
@group(0) @binding(11) var<storage, read> sponge: array<f32>;
// Between the column and the row transforms, one plane of W x H (uniform depth) or one per
// reference depth j at `j * W * H` (a depth map, where `factors` holds each reference depth's
// multipliers `M_j / (W H)` at the same offsets). Over a depth map (placeholders otherwise):
// the faces' weights (x: east face, y: south face) per reference depth, at `j * W * H`, and
// each cell's two face fluxes.
@group(0) @binding(12) var<storage, read_write> work: array<vec2<f32>>;
@group(0) @binding(13) var<storage, read> weights: array<vec2<f32>>;
@group(0) @binding(14) var<storage, read_write> flux: array<vec2<f32>>;

fn twiddle(i: u32) -> vec2<f32> {
    return twiddles[i];
}

// Line `first, first + stride, ...` (2^log2n values) of `spectrum` into `line`, bit-reversed
// for `transform_line`.
fn load_line(lid: u32, first: u32, stride: u32, log2n: u32) {
    for (var j = lid; j < (1u << log2n); j += GROUP) {
        line[bit_reversed(j, log2n)] = spectrum[first + j * stride];
    }
    workgroupBarrier();
}

// `line` back into the same line of `spectrum`.
fn store_line(lid: u32, first: u32, stride: u32, log2n: u32) {
    for (var j = lid; j < (1u << log2n); j += GROUP) {
        spectrum[first + j * stride] = line[j];
    }
}

// Row `group.x`: its transform into `spectrum`.
@compute @workgroup_size(256)
fn rows_forward(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let first = group.x * u.width;
    for (var x = lid; x < u.width; x += GROUP) {
        line[bit_reversed(x, s.log2_width)] = vec2<f32>(cur[first + x], 0.0);
    }
    transform_row_into_spectrum(lid, first);
}

// The row loaded into `line` (bit-reversed), transformed and stored at `first` of `spectrum`.
fn transform_row_into_spectrum(lid: u32, first: u32) {
    workgroupBarrier();
    transform_line(lid, s.log2_width, 0u, false);
    store_line(lid, first, 1u, s.log2_width);
}

// Row `group.x`: its inverse transform (the step's change, real up to rounding), then each
// cell's new height, contact events, sponge and land, in the CPU's order.
@compute @workgroup_size(256)
fn rows_finish(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let first = group.x * u.width;
    transform_work_row(lid, 0u, first);
    for (var x = lid; x < u.width; x += GROUP) {
        let i = first + x;
        finish_cell(i, cur[i] + line[x].x);
    }
}

// Plane `plane` of `work`'s row at `first` into `line`, transformed back (unnormalised).
fn transform_work_row(lid: u32, plane: u32, first: u32) {
    workgroupBarrier();
    let offset = plane * u.width * u.height + first;
    for (var x = lid; x < u.width; x += GROUP) {
        line[bit_reversed(x, s.log2_width)] = work[offset + x];
    }
    workgroupBarrier();
    transform_line(lid, s.log2_width, 0u, true);
}

// Cell `i`'s new height from `f` (the filtered height), then contact events, sponge and land,
// in the CPU's order (`DispersiveGrid::step_once`).
fn finish_cell(i: u32, f: f32) {
    var v = vec2<f32>(u.d * ((f + f) - old[i]), 0.0);
    if (u.has_contacts != 0u) {
        v = contact_events(v, contact_new[i], contact_old[i]);
    }
    var z = v.x;
    if (s.has_sponge != 0u) {
        let k = sponge[i];
        z *= k;
        cur[i] *= k;
    }
    out[i] = select(z, 0.0, land[i] != 0u);
}

// Row `group.x`: the differences across each cell's east (x) and south (y) faces, as one
// complex line, transformed into `spectrum`.
@compute @workgroup_size(256)
fn depth_rows_forward(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let y = group.x;
    let first = y * u.width;
    let south = ((y + 1u) % u.height) * u.width;
    for (var x = lid; x < u.width; x += GROUP) {
        let z = cur[first + x];
        let east = cur[first + (x + 1u) % u.width];
        line[bit_reversed(x, s.log2_width)] = vec2<f32>(east - z, cur[south + x] - z);
    }
    transform_row_into_spectrum(lid, first);
}

// Column `group.x`: its transform (kept in `spectrum`), then for each plane of `factors` (the
// mode factors, or each reference depth's multipliers) the column times them, transformed
// back into the same plane of `work`.
@compute @workgroup_size(256)
fn columns_nodes(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let x = group.x;
    let w = u.width;
    let h = u.height;
    let cells = w * h;
    load_line(lid, x, w, s.log2_height);
    transform_line(lid, s.log2_height, w / 2u, false);
    store_line(lid, x, w, s.log2_height);
    for (var j = 0u; j < max(s.nodes, 1u); j++) {
        workgroupBarrier();
        for (var y = lid; y < h; y += GROUP) {
            let i = y * w + x;
            line[bit_reversed(y, s.log2_height)] = spectrum[i] * factors[j * cells + i];
        }
        workgroupBarrier();
        transform_line(lid, s.log2_height, w / 2u, true);
        for (var y = lid; y < h; y += GROUP) {
            work[j * cells + y * w + x] = line[y];
        }
    }
}

// Row `group.x`: each reference depth's row transformed back (x: the east faces' flux, y: the
// south faces'), weighted by the faces' weights and summed into `flux`, depth by depth as on
// the CPU.
@compute @workgroup_size(256)
fn depth_rows_nodes(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let first = group.x * u.width;
    let cells = u.width * u.height;
    for (var j = 0u; j < s.nodes; j++) {
        transform_work_row(lid, j, first);
        for (var x = lid; x < u.width; x += GROUP) {
            let i = first + x;
            let weighted = weights[j * cells + i] * line[x];
            flux[i] = select(flux[i] + weighted, weighted, j == 0u);
        }
    }
}

// Each cell: its net flux (what leaves by its east and south faces minus what comes in by its
// west and north ones), the new height, contact events, sponge and land, in the CPU's order.
@compute @workgroup_size(16, 16) fn depth_finish(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.width || id.y >= u.height) { return; }
    let x = id.x;
    let y = id.y;
    let west = y * u.width + (x + u.width - 1u) % u.width;
    let i = y * u.width + x;
    let north = ((y + u.height - 1u) % u.height) * u.width + x;
    let l = (flux[west].x - flux[i].x) + (flux[north].y - flux[i].y);
    finish_cell(i, cur[i] - l);
}

