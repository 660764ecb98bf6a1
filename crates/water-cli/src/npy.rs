//! NumPy `.npy` files: the reader and writer of [`water_scene::npy`], and the grid arrays `water
//! run` writes.

use std::io;

pub use water_scene::npy::*;

/// Writes `height.npy` (`[height, width]`, f32; i16 in classic mode) and, in split mode,
/// `positive.npy` and `negative.npy` into `out`. Returns the files written.
///
/// # Errors
/// The first I/O error.
pub fn write_grid_arrays(
    outputs: &water_scene::GridOutputs,
    out: &mut crate::out_dir::OutputDir,
    width: usize,
    height: usize,
) -> io::Result<Vec<std::path::PathBuf>> {
    let shape = [height, width];
    let mut written = Vec::new();
    written.push(out.write("height.npy", |path| match &outputs.classic {
        Some(classic) => write(path, classic, &shape),
        None => write(path, &outputs.heights, &shape),
    })?);
    if let Some((p, n)) = &outputs.channels {
        for (name, data) in [("positive.npy", p), ("negative.npy", n)] {
            written.push(out.write(name, |path| write(path, data, &shape))?);
        }
    }
    Ok(written)
}
