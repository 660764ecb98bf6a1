//! A towed boat's wake among floating crates: split-mode grid water, Archimedes buoyancy, wake masks on the GPU.
//!
//! `cargo run --release -p water-examples --example boat_wake_crates -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/boat_wake_crates`). The scene itself is [`water_examples::boat_wake`].

use std::process::ExitCode;

use water_examples::output::{options_from_args, write_frames};
use water_examples::{boat_wake, ExampleError};
use water_gpu::GpuContext;

fn run() -> Result<(), ExampleError> {
    let (options, out) = options_from_args("boat_wake_crates", boat_wake::DEFAULTS)?;
    let gpu = GpuContext::headless()?;
    println!(
        "{} frames of {} x {} on {}",
        options.frames,
        options.width,
        options.height,
        gpu.describe()
    );
    let frames = boat_wake::boat_and_crates(&gpu, &options)?;
    let gif = write_frames(&out, &frames)?;
    println!("wrote {}/frame-*.png and {}", out.display(), gif.display());
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
