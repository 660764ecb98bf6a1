//! The sky aquarium: a small planet of water, clicked three times.
//!
//! `cargo run --release -p water-examples --example sky_aquarium -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/sky_aquarium`). The scene itself is [`water_examples::sky_aquarium`].

use std::process::ExitCode;

use water_examples::output::run_example;
use water_examples::sky_aquarium;

fn main() -> ExitCode {
    run_example(
        "sky_aquarium",
        sky_aquarium::DEFAULTS,
        sky_aquarium::clicked_planet,
    )
}
