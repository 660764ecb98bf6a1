//! Pictures on disk: PNG frames and animated GIFs of rendered frames, and PNGs read back for
//! reference-image tests.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::RgbaImage;

/// Writes `frames` (all one size, at most 65535 pixels a side) as a looping GIF, each frame shown
/// for `delay_cs` hundredths of a second, through a [`GifStream`]. Each frame gets its own
/// 256-colour palette.
///
/// # Errors
/// I/O errors (a full disk included: nothing is left to a drop); frames of different sizes or
/// too large for GIF.
pub fn write_gif(path: &Path, frames: &[RgbaImage], delay_cs: u16) -> io::Result<()> {
    let Some(first) = frames.first() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a GIF needs at least one frame",
        ));
    };
    let mut gif = GifStream::create(path, first.width(), first.height(), delay_cs)?;
    for (i, image) in frames.iter().enumerate() {
        gif.add(image)
            .map_err(|e| io::Error::new(e.kind(), format!("frame {i}: {e}")))?;
    }
    gif.finish()
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
        // the slowest setting's time (as `water_render::write_gif`).
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

/// Encodes a PNG in memory, then writes it in one call whose errors are reported (a buffered
/// file writer would lose a failed flush in its drop).
fn write_png_bytes(
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

/// Writes RGB8 pixels as a PNG.
///
/// # Errors
/// I/O or encoding errors, as `io::Error`.
pub fn write_png(path: &Path, width: usize, height: usize, rgb: &[u8]) -> io::Result<()> {
    let side =
        |v: usize| u32::try_from(v).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e));
    write_png_bytes(path, side(width)?, side(height)?, png::ColorType::Rgb, rgb)
}

/// Writes an RGBA picture as a PNG.
///
/// # Errors
/// I/O or encoding errors, as `io::Error`.
pub fn write_rgba_png(path: &Path, image: &RgbaImage) -> io::Result<()> {
    write_png_bytes(
        path,
        image.width(),
        image.height(),
        png::ColorType::Rgba,
        image.pixels(),
    )
}

/// Reads an 8-bit RGB or RGBA PNG as RGBA (opaque where it has no alpha).
///
/// # Errors
/// I/O errors, and PNGs of other colour types or depths, as `io::Error`.
pub fn read_rgba_png(path: &Path) -> io::Result<RgbaImage> {
    let decoder = png::Decoder::new(io::BufReader::new(File::open(path)?));
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
    RgbaImage::new(info.width, info.height, pixels).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_through_a_gif() {
        let dir = std::env::temp_dir().join(format!("water-gif-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("a.gif");
        let frames: Vec<RgbaImage> = (0..3)
            .map(|k| {
                let pixels = (0..8 * 6)
                    .flat_map(|i| [(i * 5 + k * 40) as u8, 100, 200, 255])
                    .collect();
                RgbaImage::new(8, 6, pixels).expect("image")
            })
            .collect();
        write_gif(&path, &frames, 4).expect("write");
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options
            .read_info(File::open(&path).expect("open"))
            .expect("decode");
        assert_eq!((decoder.width(), decoder.height()), (8, 6));
        let mut count = 0;
        while let Some(frame) = decoder.read_next_frame().expect("frame") {
            assert_eq!(frame.delay, 4);
            count += 1;
        }
        assert_eq!(count, 3);
        let bad = [
            frames[0].clone(),
            RgbaImage::new(2, 2, vec![0; 16]).expect("image"),
        ];
        assert!(write_gif(&path, &bad, 4).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

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
