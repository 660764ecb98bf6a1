// mean_level: the mean-level keeper's two passes on the GPU. CPU twin:
// crates/water-core/src/kernels/mean_level.rs (`level_sums`, `shift_level`); the plan between
// them (what to add, from the exact recurrence's prediction) is the CPU's own
// `MeanLevelKeeper`, run on the host from these sums (crates/water-gpu/src/keeper/
// device_sums.rs), so both backends apply the same correction at the same steps.
//
// `level_sums`: one invocation per row of one channel of one level; it sums the row's even and
// odd cells (x + y even or odd: the plain sum is their sum, the checkerboard sum their
// difference) with Neumaier's compensated summation and writes both parts of each sum, `hi`
// and `lo`, unrounded into one f32: the host adds `hi + lo` in f64, so a row's sum is exact to
// about `2 W eps^2 sum |z|` (docs/math.md, section 9, "On the GPU"), not to `W eps sum |z|` as
// a plain f32 sum. Rows are added on the host, in order, in f64, as the CPU adds them.
//
// The record-only path records both passes into the caller's encoder: the sums at the
// correction's step count, the shift (its amounts carried forward by the modes' recurrences)
// when a later recording finds the sums read back.
//
// `shift_level`: adds `plain + checker * (-1)^(x+y)` (metres) to every cell of one level, per
// channel.
//
// f16 storage (`level_sums_f16`, `shift_level_f16`; words of two binary16 cells, f16_packing):
// the sums read the halves exactly. A shift is mostly below half an f16 ulp, so rounding each
// cell on its own would keep little of it; one invocation per row instead adds the amounts
// left to right, carrying what each store rounded away into the next cell (error diffusion),
// so the row's sum moves by the amounts less at most half an ulp of its last cell
// (docs/math.md, section 9, "f16 storage").

#import f16_packing

struct MeanLevelUniforms {
    width: u32,          // cells per row
    height: u32,         // rows
    _pad: u32,
    channels: u32,       // 1 signed, 2 split
}

// Per channel: x = plain amount, y = checker amount (metres); z, w unused.
struct Amounts {
    a: array<vec4<f32>, 2>,
}

@group(0) @binding(0) var<uniform> u: MeanLevelUniforms;
@group(0) @binding(1) var<storage, read> level: array<f32>;
// Five f32 per row and channel: even hi, even lo, odd hi, odd lo, max |z|.
@group(0) @binding(2) var<storage, read_write> partials: array<f32>;

// Neumaier's step: adds `z` to the sum `s = (hi, lo)`; `hi + lo` carries the exact sum to
// second order in eps.
fn neumaier(s: vec2<f32>, z: f32) -> vec2<f32> {
    let t = s.x + z;
    var c: f32;
    if (abs(s.x) >= abs(z)) {
        c = (s.x - t) + z;
    } else {
        c = (z - t) + s.x;
    }
    return vec2<f32>(t, s.y + c);
}

// A row's sums so far: even and odd cells (each `hi`, `lo`), and max |z|.
struct RowSums {
    even: vec2<f32>,
    odd: vec2<f32>,
    peak: f32,
}

fn no_sums() -> RowSums {
    return RowSums(vec2<f32>(0.0, 0.0), vec2<f32>(0.0, 0.0), 0.0);
}

// `s` with cell (x, y), of height `z`, added.
fn add_cell(s: RowSums, x: u32, y: u32, z: f32) -> RowSums {
    var r = s;
    if (((x + y) & 1u) == 0u) {
        r.even = neumaier(r.even, z);
    } else {
        r.odd = neumaier(r.odd, z);
    }
    r.peak = max(r.peak, abs(z));
    return r;
}

fn write_row(slot: u32, s: RowSums) {
    let o = 5u * slot;
    partials[o] = s.even.x;
    partials[o + 1u] = s.even.y;
    partials[o + 2u] = s.odd.x;
    partials[o + 3u] = s.odd.y;
    partials[o + 4u] = s.peak;
}

// Whether invocation `id` has a row (`id.x`) of a channel (`id.y`) to work on.
fn has_row(id: vec3<u32>) -> bool {
    return id.x < u.height && id.y < u.channels;
}

@compute @workgroup_size(64)
fn level_sums(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!has_row(id)) {
        return;
    }
    let y = id.x;
    let base = (id.y * u.height + y) * u.width;
    var sums = no_sums();
    for (var x = 0u; x < u.width; x = x + 1u) {
        sums = add_cell(sums, x, y, level[base + x]);
    }
    write_row(id.y * u.height + y, sums);
}

@group(0) @binding(3) var<uniform> amounts: Amounts;
@group(0) @binding(4) var<storage, read_write> level_rw: array<f32>;

// The amount for cell (x, y) of `channel`.
fn amount(channel: u32, x: u32, y: u32) -> f32 {
    let a = amounts.a[channel];
    if (((x + y) & 1u) == 0u) {
        return a.x + a.y;
    }
    return a.x - a.y;
}

@compute @workgroup_size(16, 16)
fn shift_level(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let y = id.y;
    let channel = id.z;
    if (x >= u.width || y >= u.height) {
        return;
    }
    let i = (channel * u.height + y) * u.width + x;
    level_rw[i] = level_rw[i] + amount(channel, x, y);
}

// f16 storage: the same levels as words of two cells, `ceil(width / 2)` words a row.
@group(0) @binding(5) var<storage, read> level_words: array<u32>;
@group(0) @binding(6) var<storage, read_write> level_words_rw: array<u32>;

fn row_words() -> u32 {
    return (u.width + 1u) / 2u;
}

@compute @workgroup_size(64)
fn level_sums_f16(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!has_row(id)) {
        return;
    }
    let y = id.x;
    let base = (id.y * u.height + y) * row_words();
    var sums = no_sums();
    for (var x = 0u; x < u.width; x = x + 1u) {
        sums = add_cell(sums, x, y, half_of(level_words[base + x / 2u], x));
    }
    write_row(id.y * u.height + y, sums);
}

// Cell x of row y stored with its amount and the carry from the cells before it: the f16 bits
// kept (low 16 bits), and the new carry in the second value.
fn shifted_half(bits: u32, channel: u32, x: u32, y: u32, carry: f32) -> vec2<u32> {
    let want = f16_to_f32(bits) + amount(channel, x, y) + carry;
    let kept = f32_to_f16(want);
    return vec2<u32>(kept, bitcast<u32>(want - f16_to_f32(kept)));
}

@compute @workgroup_size(64)
fn shift_level_f16(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!has_row(id)) {
        return;
    }
    let y = id.x;
    let channel = id.y;
    let base = (channel * u.height + y) * row_words();
    var carry = 0.0;
    for (var k = 0u; k < row_words(); k = k + 1u) {
        let word = level_words_rw[base + k];
        let low = shifted_half(word & 0xffffu, channel, 2u * k, y, carry);
        carry = bitcast<f32>(low.y);
        // An odd row's last high half is padding and stays as it is (+0).
        var high = word >> 16u;
        if (2u * k + 1u < u.width) {
            let h = shifted_half(high, channel, 2u * k + 1u, y, carry);
            high = h.x;
            carry = bitcast<f32>(h.y);
        }
        level_words_rw[base + k] = low.x | (high << 16u);
    }
}

// Sphere water: one level of `width` vertices (f32, `height` 1, one channel); adds the plain
// amount of channel 0 to every vertex. What the sphere's record-only path records for a
// correction; CPU twin: the uniform add of `keep_weighted_level`
// (crates/water-sphere/src/sphere_water.rs).
@compute @workgroup_size(256)
fn shift_vertices(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.width) {
        return;
    }
    level_rw[id.x] = level_rw[id.x] + amounts.a[0].x;
}
