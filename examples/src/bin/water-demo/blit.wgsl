// Copies the demo's offscreen picture to the window, pixel for pixel (both are the same size).
// One triangle covers the screen; each fragment loads the texel under it, so no sampler and no
// filtering touch the pixels.

@group(0) @binding(0) var picture: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // (-1, -1), (3, -1), (-1, 3): a triangle whose inside holds the whole of clip space.
    let x = f32((index << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(index & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn texel(position: vec4<f32>) -> vec4<f32> {
    let size = vec2<i32>(textureDimensions(picture));
    let at = min(vec2<i32>(position.xy), size - vec2<i32>(1, 1));
    return textureLoad(picture, at, 0);
}

// For an sRGB window: the texel is linear (decoded from the sRGB picture) and the window
// encodes it again, so the stored bytes are the picture's.
@fragment
fn fs_srgb_window(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(texel(position).rgb, 1.0);
}

// For a window that stores what it is given: encode to sRGB here.
@fragment
fn fs_linear_window(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let c = texel(position).rgb;
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return vec4<f32>(select(high, low, c <= vec3<f32>(0.0031308)), 1.0);
}
