// How foam looks on the plugin's water (water_surface.wgsl, ocean_surface.wgsl): white and rough
// over the water's material where it covers. Twin of `with_foam` in
// shaders/shared/water_light.wgsl (water-render's renderers, which light water themselves).

#define_import_path water_bevy::foam_look

#import bevy_pbr::pbr_types::PbrInput

// Turns `pbr_input`'s material toward foam by `coverage` (0 to 1).
fn foam_material(pbr_input: ptr<function, PbrInput>, coverage: f32) {
    let c = clamp(coverage, 0.0, 1.0);
    (*pbr_input).material.base_color = mix((*pbr_input).material.base_color, vec4<f32>(0.85, 0.85, 0.85, 1.0), c);
    (*pbr_input).material.perceptual_roughness = mix((*pbr_input).material.perceptual_roughness, 0.9, c);
}
