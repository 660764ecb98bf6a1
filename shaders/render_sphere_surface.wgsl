// render_sphere_surface: sphere water drawn as the displaced icosphere. Host twin:
// crates/water-render/src/sphere_surface.rs (`SphereSurfaceRenderer`).
//
// `surface_vertices` (compute; `main` reads the compute backend's height buffer, `main_texture`
// the fragment backend's 2-D height texture) writes each vertex's displaced position and unit
// normal. The normal is the CPU's `water_sphere::surface::vertex_normals`: the area-weighted sum
// of the normals of the faces around the vertex, less the mesh's rest tilt. The faces around v
// are (v, n_k, n_k+1) for consecutive neighbours of its counter-clockwise ring, and
// (b - a) x (c - a) is the same for every rotation of a face's corners, so summing over the ring
// sums the same cross products the CPU sums over faces.
//
// `vs_main` / `fs_main` draw the vertices with the icosphere's triangles.

#import water_light

struct SphereSurfaceUniforms {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,          // xyz: camera position (m)
    sun: vec4<f32>,          // xyz: unit direction toward the sun; w: specular exponent
    water_colour: vec4<f32>, // rgb: deep water (linear)
    sky_colour: vec4<f32>,   // rgb: sky (linear)
    shape: vec4<f32>,        // x: radius R (m), y: height scale, z: vertices, w: texture width
    flags: vec4<u32>,        // x: view (0 lit, 1 normals, 2 heights)
}

struct SurfaceVertex {
    position: vec4<f32>,     // xyz: displaced position (m); w: drawn height (m)
    normal: vec4<f32>,       // xyz: unit normal
}

const NO_NEIGHBOUR: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> u: SphereSurfaceUniforms;
@group(0) @binding(1) var<storage, read> rest_positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rings: array<u32>;       // six slots per vertex
@group(0) @binding(3) var<storage, read> rest_tilt: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> vertices: array<SurfaceVertex>;
@group(0) @binding(5) var<storage, read> heights: array<f32>;
@group(0) @binding(6) var height_texture: texture_2d<f32>;

fn height_from_buffer(v: u32) -> f32 {
    return heights[v];
}

fn height_from_texture(v: u32) -> f32 {
    let width = u32(u.shape.w);
    return textureLoad(height_texture, vec2<u32>(v % width, v / width), 0).x;
}

// Rest position pushed out along the radius by the drawn height: p (R + h) / R.
fn displaced(rest: vec3<f32>, h: f32) -> vec3<f32> {
    return rest * ((u.shape.x + h * u.shape.y) / u.shape.x);
}

// Vertex v (k = 0) or the neighbour in slot k - 1 of its ring (k = 1..6). An unused slot, or
// a thread past the last vertex, names vertex 0: its height is read and never used.
fn stencil_vertex(v: u32, k: u32) -> u32 {
    if (v >= u32(u.shape.z)) {
        return 0u;
    }
    if (k == 0u) {
        return v;
    }
    let w = rings[v * 6u + k - 1u];
    return select(w, 0u, w == NO_NEIGHBOUR);
}

// Writes vertex v (nothing past the last) from the heights of its stencil (`stencil_vertex`:
// its own, then its ring's slot by slot; unused slots are ignored): the displaced position and
// the area-weighted normal less the rest tilt.
fn write_vertex(v: u32, heights: array<f32, 7>) {
    if (v >= u32(u.shape.z)) {
        return;
    }
    let h = heights[0];
    let position = displaced(rest_positions[v].xyz, h);
    var ring: array<vec3<f32>, 6>;
    var count = 0u;
    for (var k = 0u; k < 6u; k++) {
        let w = rings[v * 6u + k];
        if (w != NO_NEIGHBOUR) {
            ring[count] = displaced(rest_positions[w].xyz, heights[k + 1u]);
            count++;
        }
    }
    var sum = vec3<f32>(0.0);
    for (var k = 0u; k < count; k++) {
        let next = select(k + 1u, 0u, k + 1u == count);
        sum += cross(ring[k] - position, ring[next] - position);
    }
    let n = normalize(normalize(sum) - rest_tilt[v].xyz);
    vertices[v] = SurfaceVertex(vec4<f32>(position, h * u.shape.y), vec4<f32>(n, 0.0));
}

// The two entry points differ only in where the stencil's heights are read: the compute
// backend's buffer, or the fragment backend's texture.
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var heights: array<f32, 7>;
    for (var k = 0u; k < 7u; k++) { heights[k] = height_from_buffer(stencil_vertex(id.x, k)); }
    write_vertex(id.x, heights);
}

@compute @workgroup_size(64) fn main_texture(@builtin(global_invocation_id) id: vec3<u32>) {
    var heights: array<f32, 7>;
    for (var k = 0u; k < 7u; k++) { heights[k] = height_from_texture(stencil_vertex(id.x, k)); }
    write_vertex(id.x, heights);
}

struct DrawnVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) height: f32,
}

@vertex
fn vs_main(@location(0) position: vec4<f32>, @location(1) normal: vec4<f32>) -> DrawnVertex {
    var out: DrawnVertex;
    out.clip = u.view_proj * vec4<f32>(position.xyz, 1.0);
    out.world = position.xyz;
    out.normal = normal.xyz;
    out.height = position.w;
    return out;
}

@fragment
fn fs_main(v: DrawnVertex) -> @location(0) vec4<f32> {
    let n = normalize(v.normal);
    if (u.flags.x == 1u) {
        return vec4<f32>(n * 0.5 + vec3<f32>(0.5), 1.0);
    }
    if (u.flags.x == 2u) {
        let t = clamp(v.height / max(u.shape.y, 1e-30), -1.0, 1.0);
        return vec4<f32>(diverging(t), 1.0);
    }
    let to_eye = normalize(u.eye.xyz - v.world);
    let reflected = reflect(-to_eye, n);
    let reflectance = fresnel(dot(n, to_eye));
    let diffuse = max(dot(n, u.sun.xyz), 0.0);
    // Deep water lit from the sun; the sky is reflected at grazing angles.
    let body = u.water_colour.rgb * (0.2 + 0.8 * diffuse);
    let specular = pow(max(dot(reflected, u.sun.xyz), 0.0), u.sun.w);
    let colour = mix(body, u.sky_colour.rgb, reflectance) + vec3<f32>(specular);
    return vec4<f32>(colour, 1.0);
}
