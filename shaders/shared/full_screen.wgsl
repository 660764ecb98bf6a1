// shared/full_screen: the vertex stage of every full-screen pass (the fragment backend's steps,
// surface passes, shading): one triangle that covers the whole target, so each fragment is one
// texel. Host twin: crates/water-gpu/src/pipelines.rs (`full_screen_pipeline`).

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
}

// One triangle that covers the whole target.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOutput {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOutput;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}
