//! Fuzz bytes as the parameters of the sphere constructors: accepted ones step finite, refused
//! ones name the value. See `water_fuzz::sphere`.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: water_fuzz::sphere::Input| water_fuzz::sphere::run(&input));
