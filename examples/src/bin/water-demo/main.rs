//! # water-demo: Dynamic Water, interactive
//!
//! A winit + wgpu program. The grid scene is a 10 m pool stepped on the GPU with wooden crates
//! that float on it by Archimedes and make waves where they cut it, coupled by a
//! [`water_scene::Scene`] with GPU contact masks. The sphere scene is water on an icosphere
//! ([`water_gpu::GpuSphere`]). Every frame is drawn into an offscreen target and copied to
//! the window, so the pixels on screen are the ones a screenshot reads back.
//!
//! ```text
//! cargo run -p water-examples --release --bin water-demo
//! cargo run -p water-examples --release --bin water-demo -- --scene sphere --quality 512
//! ```
//!
//! Controls:
//!
//! | input                     | does                                                    |
//! |---------------------------|---------------------------------------------------------|
//! | left click, drag          | make waves where the mouse ray meets the water          |
//! | right click, or C         | throw a crate onto the water there (grid scene)         |
//! | 1, 2, 3, 4                | water texture of 128, 256, 512, 1024 cells a side (the  |
//! |                           | sphere: icosphere level 4, 5, 6, 7); the water restarts |
//! | R                         | reset: still water, no crates                           |
//! | Tab or S                  | switch between the grid and the sphere scene            |
//! | arrow keys, mouse wheel   | turn the camera, zoom                                   |
//! | H                         | print these controls                                    |
//! | Esc or Q                  | quit                                                    |
//!
//! Frame and step times show in the window title (a few times a second) and on stdout (once a
//! second). The step time is wall clock around submitting the steps and waiting for the GPU to
//! finish them (with crates: their physics and the height readback they float on too).
//!
//! Check mode, for CI: `water-demo --frames 40 --screenshot out/demo/grid.png` opens the window
//! as usual, plays 40 frames of fixed 1/30 s with scripted clicks and crates (through the same
//! code as the mouse), writes the last frame as PNG and exits with status 1 and a one-line cause
//! if the picture is blank. On a machine without a display, run it under
//! `xvfb-run -a -s "-screen 0 1280x720x24"`. `water-demo --help` lists every option.

mod app;
mod check_run;
mod demo;
mod error;
mod floating_crate;
mod gpu;
mod grid_scene;
mod options;
mod orbit;
mod picking;
mod pool_rim;
mod pool_wall;
mod quality;
mod screenshot;
mod script;
mod sphere_scene;
mod timing;

use std::process::ExitCode;

use options::{Command, HELP};

fn main() -> ExitCode {
    let options = match options::parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run(options)) => options,
        Err(e) => {
            eprintln!("water-demo: {e} (water-demo --help lists the options)");
            return ExitCode::from(2);
        }
    };
    match app::run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("water-demo: {e}");
            ExitCode::FAILURE
        }
    }
}
