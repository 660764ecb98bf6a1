//! Writing a scene's frames: numbered PNGs and an animated GIF, and command-line options shared
//! by the examples.

use std::path::{Path, PathBuf};

use water_gpu::GpuContext;
use water_render::RgbaImage;
use water_render::{write_gif, write_rgba_png};

use crate::{ExampleError, SceneOptions};

/// Writes `frame-NNNN.png` for each frame and `water.gif` into `dir`; returns the GIF's path.
///
/// # Errors
/// [`ExampleError::Io`] naming the file that could not be written.
pub fn write_frames(dir: &Path, frames: &[RgbaImage]) -> Result<PathBuf, ExampleError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExampleError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for (k, frame) in frames.iter().enumerate() {
        let path = dir.join(format!("frame-{k:04}.png"));
        write_rgba_png(&path, frame).map_err(io(&path))?;
    }
    let gif = dir.join("water.gif");
    write_gif(&gif, frames, 4).map_err(io(&gif))?;
    Ok(gif)
}

/// Reads `--out DIR`, `--frames N` and `--size WxH` from the command line over `defaults`;
/// returns the options and the output folder (`out/examples/<name>` by default).
///
/// # Errors
/// [`ExampleError::Options`] naming the bad argument.
pub fn options_from_args(
    name: &str,
    defaults: SceneOptions,
) -> Result<(SceneOptions, PathBuf), ExampleError> {
    let mut options = defaults;
    let mut out = PathBuf::from("out/examples").join(name);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .ok_or_else(|| ExampleError::Options(format!("{arg} needs {what}")))
        };
        match arg.as_str() {
            "--out" => out = PathBuf::from(value("a folder")?),
            "--frames" => {
                let v = value("a count")?;
                options.frames = v
                    .parse()
                    .ok()
                    .filter(|f| (1..=1000).contains(f))
                    .ok_or_else(|| {
                        ExampleError::Options(format!("--frames {v}: expected 1 to 1000"))
                    })?;
            }
            "--size" => {
                let v = value("WIDTHxHEIGHT")?;
                let parsed = v
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
                match parsed {
                    Some((w, h)) if (1..=4096).contains(&w) && (1..=4096).contains(&h) => {
                        options.width = w;
                        options.height = h;
                    }
                    _ => {
                        return Err(ExampleError::Options(format!(
                            "--size {v}: expected WIDTHxHEIGHT, each 1 to 4096"
                        )))
                    }
                }
            }
            "--help" | "-h" => {
                println!(
                    "usage: {name} [--out DIR] [--frames N] [--size WIDTHxHEIGHT]\n\
                     writes DIR/frame-NNNN.png and DIR/water.gif (default DIR: out/examples/{name})"
                );
                std::process::exit(0);
            }
            other => {
                return Err(ExampleError::Options(format!(
                    "unknown argument {other:?}; try --help"
                )))
            }
        }
    }
    Ok((options, out))
}

/// The whole of an example program: reads the options over `defaults`, makes a headless device,
/// renders `scene` and writes its frames; prints what it did, or the error on stderr with a
/// failing exit status.
pub fn run_example(
    name: &str,
    defaults: SceneOptions,
    scene: fn(&GpuContext, &SceneOptions) -> Result<Vec<RgbaImage>, ExampleError>,
) -> std::process::ExitCode {
    let run = || -> Result<(), ExampleError> {
        let (options, out) = options_from_args(name, defaults)?;
        let gpu = GpuContext::headless()?;
        println!(
            "{} frames of {} x {} on {}",
            options.frames,
            options.width,
            options.height,
            gpu.describe()
        );
        let frames = scene(&gpu, &options)?;
        let gif = write_frames(&out, &frames)?;
        println!("wrote {}/frame-*.png and {}", out.display(), gif.display());
        Ok(())
    };
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
