// shared/water_light: how the 3-D renderers light water, written once. Host twin:
// crates/water-render/src/lib.rs (the renderers whose shaders import it).

// Schlick's Fresnel reflectance of water (normal incidence 0.02).
fn fresnel(cos_theta: f32) -> f32 {
    let m = 1.0 - clamp(cos_theta, 0.0, 1.0);
    return 0.02 + 0.98 * m * m * m * m * m;
}

// The sky seen along `direction` (unit, z up): `horizon` at and below the horizon, blending
// to a fixed zenith blue straight up.
fn sky_gradient(horizon: vec3<f32>, direction: vec3<f32>) -> vec3<f32> {
    let zenith = vec3<f32>(0.1, 0.3, 0.75);
    return mix(horizon, zenith, clamp(direction.z, 0.0, 1.0));
}

// Blue troughs, white crests, for the heights view: t in [-1, 1].
fn diverging(t: f32) -> vec3<f32> {
    let still = vec3<f32>(0.05, 0.2, 0.35);
    if (t < 0.0) {
        return mix(still, vec3<f32>(0.0, 0.0, 0.1), -t);
    }
    return mix(still, vec3<f32>(0.85, 1.0, 1.0), t);
}

// Foam over `water`: white, lit by the sun (toward it: `sun`) on a surface of normal `n`, by
// `coverage` (0 to 1). Used by render_grid_surface.wgsl and render_ocean_surface.wgsl. Twin:
// `foam_material` in crates/water-bevy/src/foam_look.wgsl (the same white, as a material that
// Bevy's lights then light).
fn with_foam(water: vec3<f32>, n: vec3<f32>, sun: vec3<f32>, coverage: f32) -> vec3<f32> {
    let foam = vec3<f32>(0.85) * (0.55 + 0.45 * max(dot(n, sun), 0.0));
    return mix(water, foam, coverage);
}
