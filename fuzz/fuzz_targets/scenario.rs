//! Any text into the scenario parser: never a panic or a hang; what it accepts builds a CPU
//! scene that steps finite. See `water_fuzz::scenario`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| water_fuzz::scenario::run(data));
