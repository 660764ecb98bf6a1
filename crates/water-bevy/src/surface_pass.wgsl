// What the plugin's water shaders (water_surface.wgsl, ocean_surface.wgsl) share around their own
// displacement and normals: the displaced vertex placed in the world, and the pixel lit by Bevy's
// PBR lighting with the foam over it.

#define_import_path water_bevy::surface_pass

#import bevy_pbr::{
    forward_io::{VertexOutput, FragmentOutput},
    mesh_functions,
    pbr_fragment::pbr_input_from_standard_material,
    pbr_functions::{apply_pbr_lighting, main_pass_post_lighting_processing},
    view_transformations::position_world_to_clip,
}
#import water_bevy::foam_look::foam_material

// The vertex at `local` (displaced, in the frame of the mesh's entity) of instance
// `instance_index`, `uv` passed on to the fragment; the normal is left for the fragment to find.
fn placed_vertex(instance_index: u32, local: vec3<f32>, uv: vec2<f32>) -> VertexOutput {
    var out: VertexOutput;
    let world_from_local = mesh_functions::get_world_from_local(instance_index);
    out.world_position = mesh_functions::mesh_position_local_to_world(
        world_from_local,
        vec4<f32>(local, 1.0),
    );
    out.position = position_world_to_clip(out.world_position.xyz);
    out.world_normal = vec3<f32>(0.0, 1.0, 0.0);
    out.uv = uv;
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    out.instance_index = instance_index;
#endif
    return out;
}

// The pixel of `in`, lit with the world normal `n`, its material turned toward foam by
// `coverage` (0 to 1).
fn lit_pixel(in: VertexOutput, is_front: bool, n: vec3<f32>, coverage: f32) -> FragmentOutput {
    var pbr_input = pbr_input_from_standard_material(in, is_front);
    pbr_input.world_normal = n;
    pbr_input.N = n;
    foam_material(&pbr_input, coverage);
    var out: FragmentOutput;
    out.color = apply_pbr_lighting(pbr_input);
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
