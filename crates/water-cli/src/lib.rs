//! # water-cli
//!
//! The library behind the `water` command: scenario files, the runner, `.npy` and PNG output,
//! and the grid benchmark. See `water --help`.

pub mod animation;
pub mod bench;
pub mod bodies;
pub mod compare;
pub mod gpu_costs;
pub mod npy;
pub mod picture;
pub mod progress;
pub mod render;
pub mod roofline;
pub mod run;
pub mod scenario;
pub mod simulation;
pub mod sphere_run;
pub mod sphere_scenario;
pub mod suite;

pub use scenario::{Scenario, ScenarioError};
pub use simulation::{BackendChoice, Simulation};
