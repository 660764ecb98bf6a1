// rasterise_grid_mask: the contact mask C_new of a grid, drawn from hull meshes. CPU twin:
// water_buoyancy::rasterise_grid_mask (crates/water-buoyancy/src/rasterise_mask.rs), which marks
// every cell whose centre ((x + 0.5) h, (y + 0.5) h, 0) on the still water lies inside a hull;
// host side: crates/water-gpu/src/contact_mask_renderer.rs.
//
// The demo's camera: orthographic, under the water, looking up +z, its near plane on z = 0, one
// pixel per cell with pixel centres on cell centres. A vertical ray up from a cell centre starts
// inside a closed hull exactly when the first face it meets is one it leaves through: a back
// face seen from below. So the nearest face above each cell decides: back faces write the hull's
// speed, front faces (drawn by a pipeline whose colour writes are off) only write depth, which
// hides the back faces behind them and leaves the cell as it was: black, or another hull's speed.
//
// Several hulls: each gets its own band of depth, higher speeds nearer, and is drawn front
// faces first, then back faces. A hull's front faces can then only hide its own back faces,
// and a later (faster) hull's back faces overwrite a slower one's speed, which gives the CPU's
// max over overlapping hulls instead of the nearest surface. Because a band's depth starts
// above the surface, fragments under the water are discarded by height, not by the near plane.

#import hull_instance

struct ContactMaskUniforms {
    ndc_scale: vec2<f32>,  // world metres to NDC: (2 / (W h), -2 / (H h))
    ndc_offset: vec2<f32>, // (-1, 1): world y = 0 is the texture's first row
}

@group(0) @binding(0) var<uniform> u: ContactMaskUniforms;

struct HullFragment {
    @builtin(position) position: vec4<f32>,
    @location(0) height: f32,
    @location(1) @interpolate(flat) speed: f32,
}

@vertex
fn vs_main(@location(0) local: vec3<f32>, hull: HullInstance) -> HullFragment {
    let world = hull_model(hull) * vec4<f32>(local, 1.0);
    // Per hull: the depth band (offset, scale per metre of height), then the speed.
    let band_and_speed = hull.per_hull;
    var out: HullFragment;
    // Orthographic: w = 1, so depth and height interpolate linearly across a triangle.
    out.position = vec4<f32>(
        world.xy * u.ndc_scale + u.ndc_offset,
        band_and_speed.x + band_and_speed.y * world.z,
        1.0,
    );
    out.height = world.z;
    out.speed = band_and_speed.z;
    return out;
}

@fragment
fn fs_main(f: HullFragment) -> @location(0) f32 {
    // The near plane on the still water: nothing below it is seen.
    if (f.height < 0.0) {
        discard;
    }
    return f.speed;
}

// The compute backend reads contact masks from storage buffers, one f32 per cell, row-major:
// a copy of the drawn texture, texel (x, y) to index y * W + x.
@group(0) @binding(1) var mask_texture: texture_2d<f32>;
@group(0) @binding(2) var<storage, read_write> mask_buffer: array<f32>;

@compute @workgroup_size(16, 16)
fn copy_to_buffer(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mask_texture);
    if (id.x >= size.x || id.y >= size.y) {
        return;
    }
    mask_buffer[id.y * size.x + id.x] = textureLoad(mask_texture, id.xy, 0).r;
}
