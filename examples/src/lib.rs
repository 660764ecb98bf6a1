//! # water-examples
//!
//! Scenes shared by the examples (`cargo run -p water-examples --example NAME`), their
//! reference-image tests and the interactive demo (`cargo run -p water-examples --bin
//! water-demo`).
