//! The sky aquarium: a small planet of water, clicked three times.
//!
//! `cargo run --release -p water-examples --example sky_aquarium -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/sky_aquarium`). The scene itself is [`water_examples::sky_aquarium`].

use std::process::ExitCode;

use water_examples::output::{options_from_args, write_frames};
use water_examples::{sky_aquarium, ExampleError};
use water_gpu::GpuContext;

fn run() -> Result<(), ExampleError> {
    let (options, out) = options_from_args("sky_aquarium", sky_aquarium::DEFAULTS)?;
    let gpu = GpuContext::headless()?;
    println!(
        "{} frames of {} x {} on {}",
        options.frames,
        options.width,
        options.height,
        gpu.describe()
    );
    let frames = sky_aquarium::clicked_planet(&gpu, &options)?;
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
