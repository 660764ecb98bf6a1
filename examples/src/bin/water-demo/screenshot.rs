//! The check mode's screenshot: the last offscreen frame written as PNG, then judged.

use std::path::Path;

use water_render::RgbaImage;

use crate::error::DemoError;
use water_render::picture_check::{
    blank_reason, mean_change, picture_stats, unchanged_reason, PictureStats,
};

/// Writes `image` to `path` as an RGB PNG (folders made as needed), then checks it is not
/// blank and, against `still` (the scene before any input), that its water moved. The picture
/// is written either way, so a failed one can be looked at.
///
/// # Errors
/// [`DemoError::Screenshot`] when it cannot be written; [`DemoError::Blank`] when it is blank
/// or shows no waves.
pub fn save_and_check(
    image: &RgbaImage,
    still: &RgbaImage,
    path: &Path,
) -> Result<(PictureStats, f64), DemoError> {
    let rgb = image.rgb();
    let first = still.rgb();
    let failed = |source| DemoError::Screenshot {
        path: path.to_owned(),
        source,
    };
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(failed)?;
    }
    water_render::write_png(path, image.width() as usize, image.height() as usize, &rgb)
        .map_err(failed)?;
    let stats = picture_stats(&rgb);
    match blank_reason(&stats).or_else(|| unchanged_reason(&first, &rgb)) {
        Some(reason) => Err(DemoError::Blank {
            path: path.to_owned(),
            reason,
        }),
        None => Ok((stats, mean_change(&first, &rgb))),
    }
}
