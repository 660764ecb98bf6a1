//! Pictures in memory: what the renderers read as floor and background textures and what
//! [`crate::OffscreenTarget`] reads back.

use water_gpu::GpuError;

/// An 8-bit RGBA picture, rows from the top, four bytes per pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl RgbaImage {
    /// A picture from its pixels.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when a side is 0 or `pixels` does not hold
    /// `width * height * 4` bytes.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Result<Self, GpuError> {
        if width == 0 || height == 0 {
            return Err(GpuError::BadRenderSetting {
                what: "image size",
                value: format!("{width}x{height}"),
                requirement: "at least 1x1",
            });
        }
        let needed = u64::from(width) * u64::from(height) * 4;
        if pixels.len() as u64 != needed {
            return Err(GpuError::BadRenderSetting {
                what: "image bytes",
                value: pixels.len().to_string(),
                requirement: "width * height * 4",
            });
        }
        Ok(Self {
            width,
            height,
            pixels,
        })
    }

    /// A pebbled floor, the same for the same arguments on every machine: cells of a jittered
    /// grid (Voronoi), each pebble its own sandy or grey tone, darker toward its rim, with sand
    /// between. `pebble` is the mean pebble size in pixels.
    ///
    /// ```
    /// let floor = water_render::RgbaImage::pebbles(64, 64, 12, 7);
    /// assert_eq!(floor.pixels().len(), 64 * 64 * 4);
    /// ```
    #[must_use]
    pub fn pebbles(width: u32, height: u32, pebble: u32, seed: u32) -> Self {
        let width = width.max(1);
        let height = height.max(1);
        let cell = pebble.max(2) as i64;
        let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
        for y in 0..i64::from(height) {
            for x in 0..i64::from(width) {
                let (cx, cy) = (x.div_euclid(cell), y.div_euclid(cell));
                // Nearest and second-nearest pebble centres among the 3x3 neighbouring cells.
                let mut nearest = (i64::MAX, 0u32);
                let mut second = i64::MAX;
                for gy in cy - 1..=cy + 1 {
                    for gx in cx - 1..=cx + 1 {
                        let h = hash(gx, gy, seed);
                        let px = gx * cell + i64::from(h % cell as u32);
                        let py = gy * cell + i64::from((h >> 12) % cell as u32);
                        let d = (px - x).pow(2) + (py - y).pow(2);
                        if d < nearest.0 {
                            second = nearest.0;
                            nearest = (d, h);
                        } else if d < second {
                            second = d;
                        }
                    }
                }
                let tone = i64::from((nearest.1 >> 20) % 90);
                let grey = (nearest.1 >> 28) & 1 == 1;
                // Distance from the border between the two nearest pebbles, in pixels.
                let border = ((second as f64).sqrt() - (nearest.0 as f64).sqrt()) * 0.5;
                let rgb = if border < 1.0 {
                    [150, 135, 100]
                } else {
                    let shade = (border.min(cell as f64 * 0.3) / (cell as f64 * 0.3) * 50.0) as i64;
                    let base = if grey {
                        [90 + tone, 95 + tone, 100 + tone]
                    } else {
                        [130 + tone, 110 + tone, 80 + tone / 2]
                    };
                    base.map(|c| c - 50 + shade)
                };
                pixels.extend(rgb.map(|c| c.clamp(0, 255) as u8));
                pixels.push(255);
            }
        }
        Self {
            width,
            height,
            pixels,
        }
    }

    /// Width, pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The bytes, RGBA, rows from the top.
    #[must_use]
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The RGB bytes of every pixel, alpha left out, rows from the top: what the
    /// [`crate::picture_check`] verdicts read.
    ///
    /// ```
    /// let image = water_render::RgbaImage::new(2, 1, vec![1, 2, 3, 255, 4, 5, 6, 255])?;
    /// assert_eq!(image.rgb(), [1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), water_gpu::GpuError>(())
    /// ```
    #[must_use]
    pub fn rgb(&self) -> Vec<u8> {
        self.pixels
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    }

    /// The RGBA bytes of pixel `(x, y)`.
    ///
    /// # Panics
    /// Outside the picture.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) outside"
        );
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ]
    }

    /// The picture as a texture on `device` (`format` must take 4 bytes per texel, e.g.
    /// `Rgba8Unorm` or `Rgba8UnormSrgb`), for sampling.
    pub(crate) fn upload(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        label: &str,
    ) -> wgpu::Texture {
        use wgpu::util::DeviceExt;
        device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: self.width,
                    height: self.height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &self.pixels,
        )
    }
}

/// A well-mixed 32-bit hash of a cell and a seed.
fn hash(x: i64, y: i64, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77) ^ seed;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297A_2D39);
    h ^ (h >> 15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pebbles_are_repeatable_and_varied() {
        let a = RgbaImage::pebbles(48, 32, 10, 3);
        assert_eq!(a, RgbaImage::pebbles(48, 32, 10, 3));
        assert_ne!(a, RgbaImage::pebbles(48, 32, 10, 4));
        let distinct: std::collections::HashSet<[u8; 4]> = (0..32)
            .flat_map(|y| (0..48).map(move |x| (x, y)))
            .map(|(x, y)| a.pixel(x, y))
            .collect();
        assert!(distinct.len() > 20, "only {} colours", distinct.len());
    }

    #[test]
    fn wrong_byte_counts_are_refused_by_name() {
        let e = RgbaImage::new(2, 2, vec![0; 15]).unwrap_err();
        assert!(e.to_string().contains("image bytes = 15"), "{e}");
        assert!(RgbaImage::new(0, 2, vec![]).is_err());
    }
}
