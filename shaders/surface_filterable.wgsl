// surface_filterable: the surface texture (rgba32float, written by surface_normals.wgsl) copied
// texel for texel into an rgba16float render target, which a linear sampler may filter
// (rgba32float is not filterable without a device feature). The render target's write does the
// conversion to binary16; CPU twin: crates/water-gpu/src/normal_height.rs (its readback, and
// `water_gpu::storage::round_to_f16` of each channel: the device may round toward zero instead
// of to nearest, within one f16 step either way).
//
// Entry points: `vs_main` (a full-screen triangle) and `fs_main`.

#import full_screen

@group(0) @binding(0) var surface_tex: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(surface_tex, vec2<u32>(position.xy), 0);
}
