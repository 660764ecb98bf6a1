//! What the fuzz targets check, as a library so that each target is one line and a failing
//! input can be replayed from a test (`cargo +nightly fuzz run TARGET ARTIFACT`).
//!
//! The promise every target checks: an input never panics, hangs or aborts; a value the
//! constructors accept gives finite water (and bodies) over a few steps; a value they refuse
//! gives a typed error whose message names the value.

pub mod buoyancy;
pub mod core;
pub mod num;
pub mod scenario;
pub mod sphere;

use std::fmt::Display;

/// Asserts that the message of a refusal names `name` and shows `value` as Rust prints it
/// (`{}`, or `{:?}`, which keeps the exponent of 1e300 instead of writing 301 digits).
///
/// # Panics
/// When the message lacks either, so the fuzzer reports the input.
pub fn names_value(error: &impl Display, name: &str, value: f64) {
    let message = error.to_string();
    assert!(
        message.contains(name),
        "the refusal of {name} = {value} does not name it: {message}"
    );
    assert!(
        message.contains(&value.to_string()) || message.contains(&format!("{value:?}")),
        "the refusal of {name} = {value} does not show the value: {message}"
    );
}

/// Asserts that every value is finite.
///
/// # Panics
/// At the first value that is not, naming `what`.
pub fn all_finite(what: &str, values: &[f32]) {
    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        panic!("{what}: value {i} of {} is {v}", values.len());
    }
}
