//! Raindrops in a rock pool: Hugo Elias's classic integer ripple, drawn in his 2-D look.
//!
//! `cargo run --release -p water-examples --example rock_pool_rain -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/rock_pool_rain`). The scene itself is [`water_examples::rock_pool`].

use std::process::ExitCode;

use water_examples::output::{options_from_args, write_frames};
use water_examples::{rock_pool, ExampleError};
use water_gpu::GpuContext;

fn run() -> Result<(), ExampleError> {
    let (options, out) = options_from_args("rock_pool_rain", rock_pool::DEFAULTS)?;
    let gpu = GpuContext::headless()?;
    println!(
        "{} frames of {} x {} on {}",
        options.frames,
        options.width,
        options.height,
        gpu.describe()
    );
    let frames = rock_pool::raindrops(&gpu, &options)?;
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
