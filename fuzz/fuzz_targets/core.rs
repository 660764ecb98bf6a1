//! Fuzz bytes as the parameters of the core constructors: accepted ones step finite, refused
//! ones name the value. See `water_fuzz::core`.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: water_fuzz::core::Input| water_fuzz::core::run(&input));
