//! PNG and GIF files whose every write error is reported.
//!
//! A `BufWriter` flushes its last bytes when dropped and swallows the error there, and a GIF
//! encoder writes its trailer the same way: on a full disk both left a truncated file behind a
//! success. Here a PNG is encoded in memory and written with one checked call, and the GIF is
//! finished explicitly ([`GifStream::finish`]), its buffer flushed and the flush's error
//! returned.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use water_gpu::render::RgbaImage;

/// Writes 8-bit pixels (`channels` 3: RGB, 4: RGBA) as a PNG.
fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    colour: png::ColorType,
    pixels: &[u8],
) -> io::Result<()> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(colour);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(io::Error::other)?;
        writer.write_image_data(pixels).map_err(io::Error::other)?;
        writer.finish().map_err(io::Error::other)?;
    }
    std::fs::write(path, bytes)
}

/// Writes RGB8 pixels of a `width x height` picture as a PNG.
///
/// # Errors
/// Sizes over `u32`, encoding and I/O errors.
pub fn write_rgb_png(path: &Path, width: usize, height: usize, rgb: &[u8]) -> io::Result<()> {
    let side =
        |v: usize| u32::try_from(v).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e));
    write_png(path, side(width)?, side(height)?, png::ColorType::Rgb, rgb)
}

/// Writes an RGBA picture as a PNG.
///
/// # Errors
/// Encoding and I/O errors.
pub fn write_rgba_png(path: &Path, image: &RgbaImage) -> io::Result<()> {
    write_png(
        path,
        image.width(),
        image.height(),
        png::ColorType::Rgba,
        image.pixels(),
    )
}

/// An animated GIF written one frame at a time, so a render holds one frame, not all of them.
pub struct GifStream {
    encoder: gif::Encoder<BufWriter<File>>,
    width: u16,
    height: u16,
    delay_cs: u16,
}

impl GifStream {
    /// Starts a looping GIF of `width x height` frames shown `delay_cs` hundredths of a second
    /// each.
    ///
    /// # Errors
    /// Sides over 65,535 pixels (the format's limit), and I/O errors.
    pub fn create(path: &Path, width: u32, height: u32, delay_cs: u16) -> io::Result<Self> {
        let side = |v: u32| {
            u16::try_from(v).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("a GIF side is at most 65535 pixels, got {v}"),
                )
            })
        };
        let (w, h) = (side(width)?, side(height)?);
        let file = BufWriter::new(File::create(path)?);
        let mut encoder = gif::Encoder::new(file, w, h, &[]).map_err(io::Error::other)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(io::Error::other)?;
        Ok(Self {
            encoder,
            width: w,
            height: h,
            delay_cs,
        })
    }

    /// Appends a frame.
    ///
    /// # Errors
    /// A frame of another size, and encoding or I/O errors.
    pub fn add(&mut self, image: &RgbaImage) -> io::Result<()> {
        if (image.width(), image.height()) != (u32::from(self.width), u32::from(self.height)) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "frame is {}x{}, the GIF {}x{}",
                    image.width(),
                    image.height(),
                    self.width,
                    self.height
                ),
            ));
        }
        let mut pixels = image.pixels().to_vec();
        // Speed 10 of 1..=30: NeuQuant's sampling; good palettes for smooth water at a tenth of
        // the slowest setting's time (as `water_gpu::render::write_gif`).
        let mut frame = gif::Frame::from_rgba_speed(self.width, self.height, &mut pixels, 10);
        frame.delay = self.delay_cs;
        self.encoder.write_frame(&frame).map_err(io::Error::other)
    }

    /// Writes the trailer and flushes, reporting what a drop would swallow.
    ///
    /// # Errors
    /// Encoding and I/O errors.
    pub fn finish(self) -> io::Result<()> {
        let mut file = self.encoder.into_inner().map_err(io::Error::other)?;
        file.flush()?;
        file.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_to_a_full_disk_is_an_error_not_a_truncated_file() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            return; // not Linux: nothing to fill
        }
        let image = RgbaImage::new(64, 64, vec![128; 64 * 64 * 4]).expect("image");
        assert!(write_rgba_png(full, &image).is_err());
        let mut gif = GifStream::create(full, 64, 64, 4).expect("opening /dev/full succeeds");
        // The frame may sit in the buffer; the trailer and flush must then fail.
        let added = gif.add(&image);
        assert!(added.is_err() || gif.finish().is_err());
    }
}
