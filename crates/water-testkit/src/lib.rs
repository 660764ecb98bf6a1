//! # water-testkit
//!
//! Scenarios, tolerances and comparison helpers shared by the tests of every Dynamic Water
//! crate: the same scenario runs on the CPU reference and on each GPU backend through one
//! interface (`water_scene::BackendGrid`), and [`compare`] checks the results against a named tolerance.
//! [`f16_model`] predicts the error of f16 storage against f32, which the f16 tests hold the GPU
//! to. [`setup`] builds the grids the tests run, and [`gpu_or_return!`] opens every GPU test.

pub mod compare;
pub mod f16_model;
pub mod gpu;
pub mod scenario;
pub mod setup;

pub use compare::{assert_f32_within, compare_exact_i16, compare_f32, Comparison, F32_TOLERANCE};
pub use gpu::{gpu_or_skip, submit_once};
pub use scenario::CrossCheck;
