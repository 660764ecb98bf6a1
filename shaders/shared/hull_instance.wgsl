// shared/hull_instance: a hull mesh's per-hull vertex attributes (instance step mode) in both
// drawings of hull meshes (rasterise_grid_mask.wgsl's contact masks, render_bodies.wgsl's
// bodies); the mesh's own attribute, the local position, is location 0. Host twins:
// crates/water-gpu/src/contact_mask_renderer.rs (`HullInstance`) and
// crates/water-render/src/body_renderer.rs (`HullInstance`).

struct HullInstance {
    // The local-to-world transform by columns.
    @location(1) model_0: vec4<f32>,
    @location(2) model_1: vec4<f32>,
    @location(3) model_2: vec4<f32>,
    @location(4) model_3: vec4<f32>,
    // The drawing's own values for the hull: a contact mask's depth band (offset, scale per
    // metre of height) and speed; a body's colour.
    @location(5) per_hull: vec4<f32>,
}

// The hull's local-to-world transform.
fn hull_model(hull: HullInstance) -> mat4x4<f32> {
    return mat4x4<f32>(hull.model_0, hull.model_1, hull.model_2, hull.model_3);
}
