//! Fuzz bytes as the parameters of the buoyancy constructors: accepted ones step finite, refused
//! ones name the value. See `water_fuzz::buoyancy`.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: water_fuzz::buoyancy::Input| water_fuzz::buoyancy::run(&input));
