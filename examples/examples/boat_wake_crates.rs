//! A towed boat's wake among floating crates: split-mode grid water, Archimedes buoyancy, wake masks on the GPU.
//!
//! `cargo run --release -p water-examples --example boat_wake_crates -- [--out DIR] [--frames N] [--size WxH]`
//! writes `DIR/frame-NNNN.png` and the animation `DIR/water.gif` (default DIR:
//! `out/examples/boat_wake_crates`). The scene itself is [`water_examples::boat_wake`].

use std::process::ExitCode;

use water_examples::boat_wake;
use water_examples::output::run_example;

fn main() -> ExitCode {
    run_example(
        "boat_wake_crates",
        boat_wake::DEFAULTS,
        boat_wake::boat_and_crates,
    )
}
