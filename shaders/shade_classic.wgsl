// shade_classic: Hugo Elias's 2-D water look, in integers. CPU twin: `shade_classic` in
// crates/water-render/src/classic_shading.rs, which gives the same bytes.
//
// For each cell (x, y) of the ripple field h:
//     dx = h(x-1, y) - h(x+1, y)          dy = h(x, y-1) - h(x, y+1)
//     background texel at (x + (dx >> offset_shift), y + (dy >> offset_shift)), tiled
//     colour = clamp(texel + (dx >> shading_shift), 0, 255)
// The offsets bend the background as a refracting surface would; the shading brightens slopes
// that face the light, which sits to the left. Neighbours past the rim repeat the rim cell.
// Each output pixel shows the cell under it (no filtering: the classic look is blocky).

struct ClassicShadingUniforms {
    width: u32,          // cells along x
    height: u32,         // cells along y
    target_width: u32,   // pixels along x of the output
    target_height: u32,  // pixels along y of the output
    offset_shift: u32,
    shading_shift: u32,
    srgb_target: u32,    // 1: the output is an sRGB format, so the display value is decoded first
    _pad: u32,
}

@group(0) @binding(0) var<uniform> u: ClassicShadingUniforms;
@group(0) @binding(1) var surface: texture_2d<f32>;
@group(0) @binding(2) var background: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // One triangle covering the screen.
    let x = f32((index << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(index & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

// The ripple height of a cell, the rim cell for cells past it. The surface texture holds the
// classic field's integers exactly as f32.
fn ripple(x: i32, y: i32) -> i32 {
    let c = clamp(vec2<i32>(x, y), vec2<i32>(0, 0), vec2<i32>(i32(u.width) - 1, i32(u.height) - 1));
    return i32(round(textureLoad(surface, c, 0).w));
}

fn tiled(a: i32, n: i32) -> i32 {
    return ((a % n) + n) % n;
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + vec3<f32>(0.055)) / 1.055, vec3<f32>(2.4));
    return select(high, low, c <= vec3<f32>(0.04045));
}

@fragment
fn fs_main(@builtin(position) pixel: vec4<f32>) -> @location(0) vec4<f32> {
    let x = i32(u32(pixel.x) * u.width / u.target_width);
    let y = i32(u32(pixel.y) * u.height / u.target_height);
    let dx = ripple(x - 1, y) - ripple(x + 1, y);
    let dy = ripple(x, y - 1) - ripple(x, y + 1);
    let size = vec2<i32>(textureDimensions(background));
    let source = vec2<i32>(
        tiled(x + (dx >> u.offset_shift), size.x),
        tiled(y + (dy >> u.offset_shift), size.y),
    );
    let texel = vec3<i32>(round(textureLoad(background, source, 0).rgb * 255.0));
    let shaded = clamp(texel + vec3<i32>(dx >> u.shading_shift), vec3<i32>(0), vec3<i32>(255));
    var colour = vec3<f32>(shaded) / 255.0;
    if (u.srgb_target == 1u) {
        colour = srgb_to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
