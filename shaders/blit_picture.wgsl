// blit_picture: a picture copied pixel for pixel onto a target of the same size whose format
// may differ (a window's BGRA or non-sRGB surface texture, which a texture copy would refuse).
// Host twin: crates/water-render/src/picture_blit.rs (`PictureBlit`).
//
// Each fragment loads the texel under it, so no sampler and no filtering touch the pixels.
// Entry points: `vs_main` (a full-screen triangle), `fs_srgb_target` and `fs_linear_target`.

#import full_screen

@group(0) @binding(0) var picture: texture_2d<f32>;

fn texel(position: vec4<f32>) -> vec4<f32> {
    let size = vec2<i32>(textureDimensions(picture));
    let at = min(vec2<i32>(position.xy), size - vec2<i32>(1, 1));
    return textureLoad(picture, at, 0);
}

// For an sRGB target: the texel is linear (decoded from the sRGB picture) and the target
// encodes it again, so the stored bytes are the picture's.
@fragment
fn fs_srgb_target(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(texel(position).rgb, 1.0);
}

// For a target that stores what it is given: encode to sRGB here.
@fragment
fn fs_linear_target(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let c = texel(position).rgb;
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return vec4<f32>(select(high, low, c <= vec3<f32>(0.0031308)), 1.0);
}
