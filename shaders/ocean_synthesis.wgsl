// ocean_synthesis: the ambient sea's tiles at one time, by inverse FFT of each field's
// spectrum, into two textures for drawing. CPU twin: crates/water-core/src/ocean/ocean_synthesis.rs
// (`ocean_synthesis`, `field_multiplier`) and, for `ocean_spectrum`, the CPU's per-bin
// spectra in crates/water-core/src/ocean/tile_spectrum.rs (which sum a bin's terms first; the
// fields are the same below the Nyquist band); host: crates/water-gpu/src/ocean_synthesis.rs.
//
// Four dispatches: `ocean_spectrum` (each bin's spectrum of every field, two real fields to a
// complex plane), `ocean_rows` and `ocean_columns` (each plane's inverse transform, a line per
// workgroup, `fft_line`), `ocean_pack` (the fields into the textures). Each mode's phase
// `exp(-i omega t)` comes from the host, reduced in f64, so a sea at t = 1e6 s is as exact as
// one at t = 0.

#import fft_line

struct OceanUniforms {
    log2_cells: u32,
    tiles: u32,
    // Complex planes a tile: 2 (height, its rate, its slopes) or 6 (with displacement).
    pairs: u32,
    // The choppiness lambda (0: no displacement).
    lambda: f32,
}

@group(0) @binding(0) var<uniform> u: OceanUniforms;
// Per mode: (Re A, Im A, omega, 0).
@group(0) @binding(1) var<storage, read> modes: array<vec4<f32>>;
// Per mode: exp(-i omega t), this frame's.
@group(0) @binding(2) var<storage, read> rotations: array<vec2<f32>>;
// Per tile and bin (`tile * n * n + y * n + x`): the mode there, or NO_MODE.
@group(0) @binding(3) var<storage, read> mode_of_bin: array<u32>;
// Per tile and pair, n * n complex values: (tile * pairs + pair) * n * n + y * n + x.
@group(0) @binding(4) var<storage, read_write> planes: array<vec2<f32>>;
// exp(-2 pi i j / n) for j < n/2.
@group(0) @binding(5) var<storage, read> twiddles: array<vec2<f32>>;
// Per tile: its side, m.
@group(0) @binding(6) var<storage, read> tile_lengths: array<f32>;
// (Dx, Dy, h, det J) and (the displaced surface's unit normal, dh/dt), one layer per tile.
@group(0) @binding(7) var displacement: texture_storage_2d_array<rgba32float, write>;
@group(0) @binding(8) var normals: texture_storage_2d_array<rgba32float, write>;

const NO_MODE: u32 = 0xffffffffu;
const TAU: f32 = 6.283185307179586;

fn twiddle(i: u32) -> vec2<f32> {
    return twiddles[i];
}

// `field_multiplier` of the CPU twin: field `f` (SeaField's order) on a term of the height's
// spectrum at wavenumber `k` with time factor `tau` (`-i omega` or `+i omega`).
fn field_multiplier(f: u32, k: vec2<f32>, tau: vec2<f32>) -> vec2<f32> {
    let l = u.lambda;
    let unit = k / length(k);
    switch f {
        case 0u: { return vec2<f32>(1.0, 0.0); }
        case 1u: { return tau; }
        case 2u: { return vec2<f32>(0.0, k.x); }
        case 3u: { return vec2<f32>(0.0, k.y); }
        case 4u: { return vec2<f32>(0.0, l * unit.x); }
        case 5u: { return vec2<f32>(0.0, l * unit.y); }
        case 6u: { return vec2<f32>(-l * k.x * unit.x, 0.0); }
        case 7u: { return vec2<f32>(-l * k.y * unit.y, 0.0); }
        case 8u: { return vec2<f32>(-l * k.x * unit.y, 0.0); }
        case 9u: { return complex_mul(vec2<f32>(0.0, l * unit.x), tau); }
        default: { return complex_mul(vec2<f32>(0.0, l * unit.y), tau); }
    }
}

// Bin (x, y) of tile `id.z`: `A e^{-i omega t}` of its own mode and `conj(A e^{-i omega t})`
// of the mode at `-k`, times each field's multiplier, two fields to a plane.
@compute @workgroup_size(16, 16)
fn ocean_spectrum(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = 1u << u.log2_cells;
    if (id.x >= n || id.y >= n || id.z >= u.tiles) {
        return;
    }
    let cells = n * n;
    let tile = id.z;
    let bin = id.y * n + id.x;
    let mirror = ((n - id.y) % n) * n + (n - id.x) % n;
    let own = mode_of_bin[tile * cells + bin];
    let other = mode_of_bin[tile * cells + mirror];
    var c1 = vec2<f32>(0.0);
    var c2 = vec2<f32>(0.0);
    var omega = 0.0;
    if (own != NO_MODE) {
        c1 = complex_mul(modes[own].xy, rotations[own]);
        omega = modes[own].z;
    }
    if (other != NO_MODE) {
        let m = complex_mul(modes[other].xy, rotations[other]);
        c2 = vec2<f32>(m.x, -m.y);
        omega = modes[other].z;
    }
    let wrap = vec2<f32>(
        select(f32(id.x), f32(id.x) - f32(n), id.x >= n / 2u),
        select(f32(id.y), f32(id.y) - f32(n), id.y >= n / 2u),
    );
    let k = wrap * (TAU / tile_lengths[tile]);
    let fields = u.pairs * 2u;
    for (var pair = 0u; pair < u.pairs; pair++) {
        var value = vec2<f32>(0.0);
        if (own != NO_MODE || other != NO_MODE) {
            for (var slot = 0u; slot < 2u; slot++) {
                let f = pair * 2u + slot;
                // The last plane of a choppy sea holds one field (eleven in six planes).
                if (f >= 11u || f >= fields) {
                    continue;
                }
                let v = complex_mul(field_multiplier(f, k, vec2<f32>(0.0, -omega)), c1)
                    + complex_mul(field_multiplier(f, k, vec2<f32>(0.0, omega)), c2);
                // The second field of a pair rides as the imaginary part: times i.
                value += select(v, vec2<f32>(-v.y, v.x), slot == 1u);
            }
        }
        planes[(tile * u.pairs + pair) * cells + bin] = value;
    }
}

// Line `first, first + stride, ...` of `planes`, transformed back (unnormalised) in place.
fn inverse_line(lid: u32, first: u32, stride: u32) {
    let n = 1u << u.log2_cells;
    for (var j = lid; j < n; j += GROUP) {
        line[bit_reversed(j, u.log2_cells)] = planes[first + j * stride];
    }
    workgroupBarrier();
    transform_line(lid, u.log2_cells, 0u, true);
    for (var j = lid; j < n; j += GROUP) {
        planes[first + j * stride] = line[j];
    }
}

// Row `group.x` of plane `group.y` (tiles times pairs planes).
@compute @workgroup_size(256)
fn ocean_rows(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let n = 1u << u.log2_cells;
    inverse_line(lid, group.y * n * n + group.x * n, 1u);
}

// Column `group.x` of plane `group.y`.
@compute @workgroup_size(256)
fn ocean_columns(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let n = 1u << u.log2_cells;
    inverse_line(lid, group.y * n * n + group.x, n);
}

// Field `f` of tile `tile` at sample `i`.
fn field(tile: u32, f: u32, i: u32) -> f32 {
    let n = 1u << u.log2_cells;
    let v = planes[(tile * u.pairs + f / 2u) * n * n + i];
    return select(v.x, v.y, f % 2u == 1u);
}

// Sample (x, y) of tile `id.z` into the textures: displacement, height and det J; the normal
// of the displaced sheet (the cross product of its tangents along x0 and y0) and dh/dt.
@compute @workgroup_size(16, 16)
fn ocean_pack(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = 1u << u.log2_cells;
    if (id.x >= n || id.y >= n || id.z >= u.tiles) {
        return;
    }
    let i = id.y * n + id.x;
    let t = id.z;
    let h = field(t, 0u, i);
    var d = vec2<f32>(0.0);
    var j = vec3<f32>(1.0, 0.0, 1.0);
    if (u.pairs > 2u) {
        d = vec2<f32>(field(t, 4u, i), field(t, 5u, i));
        j = vec3<f32>(1.0 + field(t, 6u, i), field(t, 8u, i), 1.0 + field(t, 7u, i));
    }
    let along_x = vec3<f32>(j.x, j.y, field(t, 2u, i));
    let along_y = vec3<f32>(j.y, j.z, field(t, 3u, i));
    let normal = normalize(cross(along_x, along_y));
    let texel = vec2<i32>(id.xy);
    textureStore(displacement, texel, i32(t), vec4<f32>(d, h, j.x * j.z - j.y * j.y));
    textureStore(normals, texel, i32(t), vec4<f32>(normal, field(t, 1u, i)));
}
