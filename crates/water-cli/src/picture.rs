//! Pictures of a height field: a diverging colour map (troughs blue, crests white-cyan, still
//! water mid-blue) with land drawn as sand.

use std::io;
use std::path::Path;

/// RGB8 pixels of a `width x height` field, one pixel per cell, scaled so that `scale` metres
/// maps to the ends of the colour map. Land cells (if given) are sand-coloured.
#[must_use]
pub fn colour_map(heights: &[f32], land: Option<&[bool]>, scale: f32) -> Vec<u8> {
    let scale = if scale > 0.0 && scale.is_finite() {
        scale
    } else {
        1.0
    };
    let mut rgb = Vec::with_capacity(heights.len() * 3);
    for (i, &z) in heights.iter().enumerate() {
        if land.is_some_and(|l| l[i]) {
            rgb.extend_from_slice(&[194, 178, 128]);
            continue;
        }
        let t = (z / scale).clamp(-1.0, 1.0);
        let still = [24.0, 92.0, 160.0];
        let end = if t >= 0.0 {
            [235.0, 250.0, 255.0]
        } else {
            [4.0, 16.0, 60.0]
        };
        let t = t.abs().sqrt(); // small ripples stay visible next to a big crest
        for c in 0..3 {
            rgb.push((still[c] + (end[c] - still[c]) * t).round() as u8);
        }
    }
    rgb
}

/// A scale that shows the field well: the 99th percentile of |z|, so one spike does not wash
/// the picture out.
#[must_use]
pub fn robust_scale(heights: &[f32]) -> f32 {
    let mut mags: Vec<f32> = heights
        .iter()
        .map(|z| z.abs())
        .filter(|z| z.is_finite())
        .collect();
    if mags.is_empty() {
        return 1.0;
    }
    let k = (mags.len() - 1) * 99 / 100;
    let (_, v, _) = mags.select_nth_unstable_by(k, f32::total_cmp);
    if *v > 0.0 {
        *v
    } else {
        1.0
    }
}

/// Writes RGB8 pixels as a PNG.
///
/// # Errors
/// I/O or encoding errors, as `io::Error`.
pub fn write_png(path: &Path, width: usize, height: usize, rgb: &[u8]) -> io::Result<()> {
    let file = io::BufWriter::new(std::fs::File::create(path)?);
    let to_u32 =
        |v: usize| u32::try_from(v).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e));
    let mut encoder = png::Encoder::new(file, to_u32(width)?, to_u32(height)?);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer.write_image_data(rgb).map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// Writes an RGBA picture as a PNG.
///
/// # Errors
/// I/O or encoding errors, as `io::Error`.
pub fn write_rgba_png(path: &Path, image: &water_gpu::render::RgbaImage) -> io::Result<()> {
    let file = io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, image.width(), image.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer
        .write_image_data(image.pixels())
        .map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// Reads an 8-bit RGB or RGBA PNG as RGBA (opaque where it has no alpha).
///
/// # Errors
/// I/O errors, and PNGs of other colour types or depths, as `io::Error`.
pub fn read_rgba_png(path: &Path) -> io::Result<water_gpu::render::RgbaImage> {
    let decoder = png::Decoder::new(io::BufReader::new(std::fs::File::open(path)?));
    let mut reader = decoder.read_info().map_err(io::Error::other)?;
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).map_err(io::Error::other)?;
    let bytes = &buffer[..info.buffer_size()];
    let pixels = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgba, png::BitDepth::Eight) => bytes.to_vec(),
        (png::ColorType::Rgb, png::BitDepth::Eight) => bytes
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        (colour, depth) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {colour:?} at {depth:?}; expected 8-bit RGB or RGBA",
                    path.display()
                ),
            ))
        }
    };
    water_gpu::render::RgbaImage::new(info.width, info.height, pixels).map_err(io::Error::other)
}
