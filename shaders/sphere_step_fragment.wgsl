// sphere_step (fragment): one leapfrog step of sphere water as a full-screen render pass into a
// third texture (render-to-texture ping-pong). CPU twin: crates/water-sphere/src/sphere_step.rs;
// compute twin: sphere_step.wgsl (same slot order, same operations):
//
//   z_new = d * ((z + z) - z_old + k * sum_s w_s (z[n_s] - z))
//
// wgpu cannot render into 1-D textures, so vertex i lives at texel (i % width, i / width) of a
// 2-D R32Float texture; texels past the last vertex stay 0. The six neighbour slots of a vertex
// sit at its own texel of two index textures (slots 0-3 in the rgba of an Rgba32Uint texture,
// slots 4-5 in the rg of an Rg32Uint one) and two weight textures (Rgba32Float, Rg32Float). A
// pentagon's sixth slot points at the vertex itself with weight 0, which adds exactly nothing.

#import full_screen

struct SphereFragmentUniforms {
    vertices: u32,
    width: u32,     // texels per row
    k: f32,         // a (mean stepper) or (c dt)^2 (Laplace-Beltrami)
    d: f32,         // per-step damping factor
}

@group(0) @binding(0) var<uniform> u: SphereFragmentUniforms;
@group(0) @binding(1) var cur_tex: texture_2d<f32>;
@group(0) @binding(2) var old_tex: texture_2d<f32>;

// The slot table at each vertex's texel: slots 0-3 and 4-5 of its neighbours and weights.
@group(0) @binding(3) var slot_index_a: texture_2d<u32>;
@group(0) @binding(4) var slot_index_b: texture_2d<u32>;
@group(0) @binding(5) var slot_weight_a: texture_2d<f32>;
@group(0) @binding(6) var slot_weight_b: texture_2d<f32>;

// Current height of vertex i.
fn height(i: u32) -> f32 {
    return textureLoad(cur_tex, vec2<u32>(i % u.width, i / u.width), 0).r;
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let texel = vec2<u32>(position.xy);
    if (texel.y * u.width + texel.x >= u.vertices) {
        return vec4<f32>(0.0);
    }
    let z = textureLoad(cur_tex, texel, 0).r;
    let index_a = textureLoad(slot_index_a, texel, 0);
    let index_b = textureLoad(slot_index_b, texel, 0);
    let weight_a = textureLoad(slot_weight_a, texel, 0);
    let weight_b = textureLoad(slot_weight_b, texel, 0);
    // Slots 0..5 in order, as the CPU sums them.
    var sum = 0.0;
    for (var s = 0u; s < 4u; s++) {
        sum += weight_a[s] * (height(index_a[s]) - z);
    }
    for (var s = 0u; s < 2u; s++) {
        sum += weight_b[s] * (height(index_b[s]) - z);
    }
    let z_old = textureLoad(old_tex, texel, 0).r;
    return vec4<f32>(u.d * ((z + z) - z_old + u.k * sum), 0.0, 0.0, 0.0);
}
