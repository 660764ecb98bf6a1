//! Raindrops in a rock pool: Hugo Elias's classic integer ripple, drawn in his 2-D look.
//!
//! `cargo run --release -p water-examples --example rock_pool_rain -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/rock_pool_rain`). The scene itself is [`water_examples::rock_pool`].

use std::process::ExitCode;

use water_examples::output::run_example;
use water_examples::rock_pool;

fn main() -> ExitCode {
    run_example("rock_pool_rain", rock_pool::DEFAULTS, rock_pool::raindrops)
}
