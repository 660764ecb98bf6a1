//! A library's refusal said in the words of the command line: a parameter's name as the
//! option is spelt. A leaf module (it imports nothing of this crate), so any command may use it.

/// A library's refusal of a value the user gave as a command-line option, with the
/// parameter's name as the option is spelt (`--wave-speed must be greater than 0, got 0`, not
/// `wave_speed ...`), so the message names what was typed.
#[must_use]
pub fn as_option(error: &water_core::WaterError) -> String {
    let message = error.to_string();
    match error.parameter() {
        // The name as a word of its own (`depth = ...`, `depth must ...`), not a longer one's
        // start.
        Some(name)
            if message.starts_with(name)
                && matches!(message[name.len()..].chars().next(), Some(' ' | '=')) =>
        {
            format!("--{}{}", name.replace('_', "-"), &message[name.len()..])
        }
        _ => message,
    }
}
