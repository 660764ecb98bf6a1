//! Clap's refusals of whole-number options, said in one line with the range the option's help
//! states.

use crate::Cli;

/// Clap's refusal of a whole-number option (`invalid digit found in string`, `number too large
/// to fit in target type`) in one line that names the option, the value and the range its
/// help states: `--bodies takes a whole number from 0 to 10000, got '-1'`.
pub(crate) fn whole_number_refusal(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use std::error::Error as _;
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let cause = e.source()?;
    // A whole number past what the option's type holds is named as such (it was "takes a whole
    // number", which it is).
    let too_large = cause
        .downcast_ref::<std::num::ParseIntError>()
        .is_some_and(|p| p.kind() == &std::num::IntErrorKind::PosOverflow);
    // Unsigned 64-bit options fail in `str::parse`; narrower ones are parsed as i64 and then
    // refused by clap's range check, `V is not in A..=B`.
    let type_range = if cause.is::<std::num::ParseIntError>() {
        None
    } else {
        let text = cause.to_string();
        let (_, range) = text.split_once(" is not in ")?;
        let (low, high) = range.split_once("..=")?;
        let whole = |s: &str| s.parse::<i128>().is_ok();
        if !(whole(low) && whole(high)) {
            return None;
        }
        Some(format!("{low} to {high}"))
    };
    let text = |kind| match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        _ => None,
    };
    let (arg, value) = (
        text(ContextKind::InvalidArg)?,
        text(ContextKind::InvalidValue)?,
    );
    let long = arg.split_whitespace().next()?.to_owned();
    let range = option_range(long.trim_start_matches("--"))
        .or(type_range)
        .map_or_else(String::new, |r| format!(" from {r}"));
    let past = if too_large && range.is_empty() {
        ", too large for it"
    } else {
        ""
    };
    Some(format!(
        "{long} takes a whole number{range}, got '{value}'{past}"
    ))
}

/// The range an option's help states last (`...: 0 to 10000`), for the subcommand the command
/// line names.
fn option_range(long: &str) -> Option<String> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    // Subcommands are the leading words (no command takes options before its subcommand), so
    // the walk stops at the first other word: a value spelled like a subcommand is not one.
    // `args_os`: a path that is not UTF-8 is no subcommand's name, and must not panic here.
    for word in std::env::args_os().skip(1) {
        match word.to_str().and_then(|w| command.find_subcommand(w)) {
            Some(sub) => command = sub.clone(),
            None => break,
        }
    }
    let arg = command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))?;
    let help = arg.get_help()?.to_string();
    let (_, range) = help.rsplit_once(": ")?;
    let range = range.trim_end_matches('.');
    (range.starts_with(|c: char| c.is_ascii_digit()) && range.contains(" to "))
        .then(|| range.to_owned())
}
