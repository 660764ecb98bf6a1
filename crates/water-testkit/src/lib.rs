//! # water-testkit
//!
//! Scenarios, tolerances and comparison helpers shared by the tests of every Dynamic Water
//! crate: the same scenario runs on the CPU reference and on each GPU backend through one
//! interface (`water_scene::BackendGrid`), and [`compare`] checks the results against a named tolerance.
//! [`f16_model`] predicts the error of f16 storage against f32, which the f16 tests hold the GPU
//! to.

pub mod compare;
pub mod f16_model;
pub mod gpu;
pub mod scenario;

pub use compare::{compare_exact_i16, compare_f32, Comparison, F32_TOLERANCE};
pub use gpu::gpu_or_skip;
pub use scenario::CrossCheck;
