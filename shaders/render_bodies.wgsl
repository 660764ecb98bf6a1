// render_bodies: floating bodies drawn flat shaded, a hull mesh per instance, over any of the
// 3-D water renderers. Host twin: crates/water-render/src/body_renderer.rs (`BodyRenderer`).

#import hull_instance

struct ViewUniforms {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,       // xyz: camera position (m); w: 1 perspective, 0 orthographic
    view_dir: vec4<f32>,  // xyz: view direction of an orthographic camera
    sun: vec4<f32>,       // xyz: unit direction toward the sun
}

@group(0) @binding(0) var<uniform> u: ViewUniforms;

struct HullVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) colour: vec3<f32>,
}

@vertex
fn vs_hull(@location(0) local: vec3<f32>, hull: HullInstance) -> HullVertex {
    let world = hull_model(hull) * vec4<f32>(local, 1.0);
    var out: HullVertex;
    out.clip = u.view_proj * world;
    out.world = world.xyz;
    out.colour = hull.per_hull.rgb; // the body's colour
    return out;
}

@fragment
fn fs_hull(v: HullVertex) -> @location(0) vec4<f32> {
    // The face normal from screen-space derivatives: flat shading without per-face data.
    var n = normalize(cross(dpdx(v.world), dpdy(v.world)));
    let to_eye = select(-u.view_dir.xyz, normalize(u.eye.xyz - v.world), u.eye.w > 0.5);
    if (dot(n, to_eye) < 0.0) {
        n = -n;
    }
    let diffuse = max(dot(n, u.sun.xyz), 0.0);
    // Darker under the water line, as seen through it.
    let wet = select(1.0, 0.6, v.world.z < 0.0);
    return vec4<f32>(v.colour * (0.25 + 0.75 * diffuse) * wet, 1.0);
}
