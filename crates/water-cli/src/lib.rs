//! # water-cli
//!
//! The library behind the `water` command, a thin shell over `water-scene`: the runner, `.npy`
//! and PNG output, the benchmarks and renders. See `water --help`.

pub mod bench;
pub mod bench_dispersive;
pub mod bench_ocean;
pub mod bench_report;
pub mod bench_scene;
pub mod compare;
pub mod gpu_costs;
pub mod limits;
pub mod npy;
pub mod option_names;
pub mod out_dir;
pub mod output;
pub mod picture;
pub mod progress;
pub mod render;
pub mod render_cascades;
mod render_meshes;
pub mod roofline;
pub mod run;
pub mod sphere_run;
pub mod suite;
