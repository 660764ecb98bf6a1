//! Inputs the `scenario` fuzz target (fuzz/) found, kept as tests: each once broke a promise
//! of the parser (docs/reliability.md, "Fuzzing and property tests").

use water_scene::scenario::ScenarioFile;

#[test]
fn a_control_character_in_a_comment_is_refused_with_a_message_and_its_place() {
    // The rock pool's first line with a byte 0x01 in its comment: toml's own message for it is
    // empty.
    let text = "# Raindrops in a rock pool\u{1}\nsteps = 10\n[grid]\nwidth = 8\n";
    let e = ScenarioFile::parse("pool.toml", text).expect_err("not valid TOML");
    assert_eq!((e.line, e.column), (1, 27), "{e}");
    assert!(!e.message.trim().is_empty(), "{e:?}");
}
