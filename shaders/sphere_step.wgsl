// sphere_step: one leapfrog step of sphere water, per vertex over six neighbour slots.
// CPU twin: crates/water-sphere/src/sphere_step.rs (same slot order, same operations):
//
//   z_new = d * ((z + z) - z_old + k * sum_s w_s (z[n_s] - z))
//
// Slots are slot-major (index[s * vertices + v]); a pentagon's sixth slot points at the vertex
// itself with weight 0. The new level goes to a third buffer (old, current, new rotate).

// The current and previous levels, read; the new one, written.
@group(0) @binding(1) var<storage, read> cur: array<f32>;
@group(0) @binding(2) var<storage, read> old: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

struct SphereUniforms {
    vertices: u32,
    k: f32,         // a (mean stepper) or (c dt)^2 (Laplace-Beltrami)
    d: f32,         // per-step damping factor
    _pad: u32,
}

@group(0) @binding(0) var<uniform> u: SphereUniforms;
// The slot table: each slot's neighbour and weight, slot-major.
@group(0) @binding(4) var<storage, read> slot_index: array<u32>;
@group(0) @binding(5) var<storage, read> slot_weight: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let v = id.x;
    if (v >= u.vertices) {
        return;
    }
    let z = cur[v];
    var sum = 0.0;
    for (var s = 0u; s < 6u; s++) {
        let k = s * u.vertices + v;
        sum += slot_weight[k] * (cur[slot_index[k]] - z);
    }
    out[v] = u.d * ((z + z) - old[v] + u.k * sum);
}
