// add_impulse (fragment): current heights plus a delta texture, as a full-screen render pass.
// CPU twin: crates/water-core/src/impulse.rs (`Impulse::for_each_cell`, as the grids' `add_impulse`
// methods use it); compute twin: add_impulse.wgsl. The host writes the impulse's per-cell amounts (from
// water_core::Impulse::for_each_cell) into the delta texture: split mode puts positive amounts
// in r (for p) and negative ones, as magnitudes, in g (for n).

#import full_screen

@group(0) @binding(0) var cur_tex: texture_2d<f32>;
@group(0) @binding(1) var delta_tex: texture_2d<f32>;
@group(0) @binding(2) var land_tex: texture_2d<u32>;

@group(0) @binding(3) var classic_cur_tex: texture_2d<i32>;
@group(0) @binding(4) var classic_delta_tex: texture_2d<i32>;

// Signed and split fields.
@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let cell = vec2<u32>(position.xy);
    let z = textureLoad(cur_tex, cell, 0);
    if (textureLoad(land_tex, cell, 0).r != 0u) {
        return z;
    }
    return z + textureLoad(delta_tex, cell, 0);
}

// The classic i16 field: a saturating add.
@fragment
fn fs_classic(@builtin(position) position: vec4<f32>) -> @location(0) vec4<i32> {
    let cell = vec2<u32>(position.xy);
    let z = textureLoad(classic_cur_tex, cell, 0).r;
    if (textureLoad(land_tex, cell, 0).r != 0u) {
        return vec4<i32>(z, 0, 0, 0);
    }
    let sum = clamp(z + textureLoad(classic_delta_tex, cell, 0).r, -32768, 32767);
    return vec4<i32>(sum, 0, 0, 0);
}
