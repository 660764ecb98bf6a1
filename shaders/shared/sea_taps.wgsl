// sea_taps: one tile of the ambient sea read between its samples by periodic Catmull-Rom, the
// reads of the CPU's `SeaFrame`: the same samples, the same cubic weights by Horner's rule.
// CPU twin: crates/water-core/src/ocean/tile_taps.rs (`catmull_rom`, `Taps`). The drawn sea's
// geometry reads through this, so a mesh vertex lands where the CPU's queries put the surface.
// Not bit for bit: the fraction is found in f32 here (f64 on the CPU), and a device may fuse
// the multiply-adds.
//
// A tile of `n` samples a side repeats every `length` metres; sample (i, j) lies at
// (i, j) * length / n. `field` is an `OCEAN_TEXTURE_FORMAT` array, one layer a tile
// (crates/water-gpu/src/ocean_synthesis.rs).

// The four Catmull-Rom weights of the samples before, at, after and two after the point, at
// fraction `f` past the point's sample.
fn catmull_rom_weights(f: f32) -> vec4<f32> {
    let cubic = vec4<f32>(-0.5, 1.5, -1.5, 0.5);
    let square = vec4<f32>(1.0, -2.5, 2.0, -0.5);
    let linear = vec4<f32>(-0.5, 0.0, 0.5, 0.0);
    let constant = vec4<f32>(0.0, 1.0, 0.0, 0.0);
    return ((cubic * f + square) * f + linear) * f + constant;
}

// Layer `layer` of `field` at world point p (m), between its 16 samples around p, wrapping.
fn sea_tile_catmull_rom(
    field: texture_2d_array<f32>,
    layer: i32,
    n: i32,
    length: f32,
    p: vec2<f32>,
) -> vec4<f32> {
    let c = p / length * f32(n);
    let base = floor(c);
    let wx = catmull_rom_weights(c.x - base.x);
    let wy = catmull_rom_weights(c.y - base.y);
    // Wrapped into [0, n) before the sample before the point is taken, so that no coordinate
    // far from the origin overflows.
    let first = (vec2<i32>(base - floor(base / f32(n)) * f32(n)) + vec2<i32>(n - 1)) % vec2<i32>(n);
    var sum = vec4<f32>(0.0);
    for (var r = 0; r < 4; r = r + 1) {
        let y = (first.y + r) % n;
        var row = vec4<f32>(0.0);
        for (var k = 0; k < 4; k = k + 1) {
            row = row + wx[k] * textureLoad(field, vec2<i32>((first.x + k) % n, y), layer, 0);
        }
        sum = sum + wy[r] * row;
    }
    return sum;
}
