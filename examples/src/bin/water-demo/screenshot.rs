//! The check mode's screenshot: the last offscreen frame written as PNG, then judged.

use std::path::Path;

use water_gpu::render::RgbaImage;

use crate::blank_check::{blank_reason, picture_stats, PictureStats};
use crate::error::DemoError;

/// Writes `image` to `path` as an RGB PNG (folders made as needed), then checks it is not
/// blank. The picture is written either way, so a blank one can be looked at.
///
/// # Errors
/// [`DemoError::Screenshot`] when it cannot be written; [`DemoError::Blank`] when it is blank.
pub fn save_and_check(image: &RgbaImage, path: &Path) -> Result<PictureStats, DemoError> {
    let rgb: Vec<u8> = image
        .pixels()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let failed = |source| DemoError::Screenshot {
        path: path.to_owned(),
        source,
    };
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(failed)?;
    }
    water_gpu::render::write_png(path, image.width() as usize, image.height() as usize, &rgb)
        .map_err(failed)?;
    let stats = picture_stats(&rgb);
    match blank_reason(&stats) {
        Some(reason) => Err(DemoError::Blank {
            path: path.to_owned(),
            reason,
        }),
        None => Ok(stats),
    }
}
