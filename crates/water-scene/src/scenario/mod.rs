//! Scenario files: TOML descriptions of a whole run (see DESIGN.md, "Scenario files"), grid
//! water with impulses, land and floating bodies ([`Scenario`]) or sphere water with clicks
//! ([`SphereScenario`]). Unknown keys and bad values are refused with the file, line and column
//! they stand at.
//!
//! A grid scenario builds a [`crate::Scene`] on any backend ([`Scenario::scene`]), and
//! [`ScenarioRun`] plays its impulses into it at their steps.

use std::path::{Path, PathBuf};

use toml::Spanned;
use water_core::Damping;

mod bodies;
mod cascades;
mod depth_keys;
mod foam;
mod focus;
mod grid;
mod impulses;
pub mod memory;
mod ocean;
mod run;
mod sphere;

pub use depth_keys::BUILTIN_FILES;
pub use foam::{DEFAULT_FOAM_WAKE, DEFAULT_JACOBIAN_THRESHOLD};
pub use focus::ScenarioFocus;
pub use grid::Scenario;
pub use impulses::TimedImpulse;
pub use run::{ScenarioRun, RUN_CHUNK_STEPS};
pub use sphere::SphereScenario;

/// A scenario that failed to load: where, and why. Shown as `file:line:column: message`, or
/// `file: message` for the file as a whole (line 0: it could not be read).
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// The file (or `<builtin NAME>`).
    pub file: String,
    /// 1-based line; 0 where the error is the whole file's.
    pub line: usize,
    /// 1-based column; 0 where the error is the whole file's.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self {
            file,
            line,
            column,
            message,
        } = self;
        if *line == 0 {
            write!(f, "{file}: {message}")
        } else {
            write!(f, "{file}:{line}:{column}: {message}")
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The scenarios built into the `water` binary, by name.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "harbour",
        include_str!("../../../../scenarios/harbour.toml"),
    ),
    (
        "rock-pool",
        include_str!("../../../../scenarios/rock-pool.toml"),
    ),
    (
        "open-sea",
        include_str!("../../../../scenarios/open-sea.toml"),
    ),
    (
        "boat-wake",
        include_str!("../../../../scenarios/boat-wake.toml"),
    ),
    (
        "sky-aquarium",
        include_str!("../../../../scenarios/sky-aquarium.toml"),
    ),
    ("beach", include_str!("../../../../scenarios/beach.toml")),
    (
        "kelvin-wake",
        include_str!("../../../../scenarios/kelvin-wake.toml"),
    ),
    ("swell", include_str!("../../../../scenarios/swell.toml")),
    (
        "sailing",
        include_str!("../../../../scenarios/sailing.toml"),
    ),
];

/// The scenario `water run` uses when given none.
pub const DEFAULT_BUILTIN: &str = "harbour";

/// A scenario of either kind.
#[derive(Debug, Clone)]
pub enum ScenarioFile {
    /// `[grid]` water.
    Grid(Box<Scenario>),
    /// `[sphere]` water.
    Sphere(Box<SphereScenario>),
}

impl ScenarioFile {
    /// Reads a scenario file of either kind (a top-level `[sphere]` table makes it a sphere
    /// scenario).
    ///
    /// # Errors
    /// [`ScenarioError`] at the offending line and column.
    pub fn load(path: &Path) -> Result<Self, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
            file: path.display().to_string(),
            line: 0,
            column: 0,
            message: format!("cannot read: {e}"),
        })?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses scenario text of either kind.
    ///
    /// # Errors
    /// [`ScenarioError`] at the offending line and column.
    pub fn parse(source: &str, text: &str) -> Result<Self, ScenarioError> {
        let at = locator(source, text);
        let is_sphere = text
            .parse::<toml::Table>()
            .is_ok_and(|t| t.contains_key("sphere"));
        if is_sphere {
            Ok(Self::Sphere(Box::new(SphereScenario::parse(
                text, source, &at,
            )?)))
        } else {
            Ok(Self::Grid(Box::new(Scenario::parse(source, text)?)))
        }
    }

    /// A built-in scenario by name.
    ///
    /// # Errors
    /// [`ScenarioError`] if no built-in has that name.
    pub fn builtin(name: &str) -> Result<Self, ScenarioError> {
        Self::parse(&format!("<builtin {name}>"), builtin_text(name)?)
    }
}

/// Turns a byte span of `text` and a message into an error at that line and column.
pub(crate) fn locator<'a>(
    source: &'a str,
    text: &'a str,
) -> impl Fn(std::ops::Range<usize>, String) -> ScenarioError + 'a {
    move |span, message| {
        let (line, column) = line_column(text, span.start);
        ScenarioError {
            file: source.to_owned(),
            line,
            column,
            message,
        }
    }
}

/// Exactly `N` numbers from a TOML array. `[f64; N]` would take the first `N` elements of a
/// longer array and drop the rest, a string among them included, without a word; this refuses
/// any other length or element with the array's line and column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Numbers<const N: usize>(pub [f64; N]);

impl<'de, const N: usize> serde::Deserialize<'de> for Numbers<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let values = Vec::<toml::Value>::deserialize(d)?;
        if values.len() != N {
            return Err(D::Error::custom(format!(
                "expected {N} numbers, got {}",
                values.len()
            )));
        }
        let mut out = [0.0; N];
        for (k, (slot, value)) in out.iter_mut().zip(&values).enumerate() {
            *slot = match value {
                toml::Value::Float(v) => *v,
                toml::Value::Integer(v) => *v as f64,
                other => {
                    return Err(D::Error::custom(format!(
                        "expected {N} numbers, but element {} is a {}",
                        k + 1,
                        other.type_str()
                    )))
                }
            };
        }
        Ok(Self(out))
    }
}

/// A TOML error as one line: the parser's messages span several lines (the cause, then what
/// was expected).
pub(crate) fn one_line(message: &str) -> String {
    let line = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    // toml's message for some bytes (a control character in a comment) is empty; the line and
    // column still point at them.
    if line.is_empty() {
        "not valid TOML here".to_owned()
    } else {
        line
    }
}

/// The range of a whole-number key, formatted from the limit its own check holds it to:
/// the same words at the type error as at the range check.
fn whole_number_range(key: &str) -> Option<String> {
    use water_core::{MAX_CLASSIC_SHIFT, MAX_GRID_DIM, MIN_GRID_DIM};
    Some(match key {
        // TOML integers are i64: the largest count a file can write.
        "steps" | "seed" => format!("0 to {}", i64::MAX),
        "width" | "height" => format!("{MIN_GRID_DIM} to {MAX_GRID_DIM}"),
        "cascades" => format!("1 to {}", crate::scene::MAX_CASCADES),
        "classic_shift" => format!("0 to {MAX_CLASSIC_SHIFT}"),
        // A sphere's subdivisions, up to the most vertices it is built with.
        "level" => {
            let top = (0u32..32)
                .filter(|&l| water_sphere::vertex_count(l) <= water_sphere::MAX_VERTICES)
                .max()
                .unwrap_or(0);
            format!(
                "0 to {top} (at most {} vertices)",
                water_sphere::MAX_VERTICES
            )
        }
        _ => return None,
    })
}

/// A TOML parser's or type error at byte `at` of `text`, in one line and in the scenario's
/// words: serde's type names become what a reader writes (`expected u64` reads `expected a
/// whole number from 0 to 9223372036854775807` at `steps`, with the key's own range where the
/// key has one (see `whole_number_range`); `expected f64` reads `expected a number`), and a
/// number quoted in it is written short (`1e300`, not 301 digits).
pub(crate) fn toml_message(text: &str, at: usize, message: &str) -> String {
    if let Some(said) = table_kind_mistake(text, at, message) {
        return said;
    }
    let range = key_at(text, at).and_then(whole_number_range);
    let whole = range.as_ref().map_or_else(
        || "expected a whole number (0 or more)".to_owned(),
        |r| format!("expected a whole number from {r}"),
    );
    let mut out = message.to_owned();
    for serde_name in ["usize", "u64", "u32", "u16", "u8"] {
        out = out.replace(&format!("expected {serde_name}"), &whole);
    }
    out = out.replace(
        "expected i64",
        if range.is_some() {
            &whole
        } else {
            "expected a whole number"
        },
    );
    for serde_name in ["f64", "f32"] {
        out = out.replace(&format!("expected {serde_name}"), "expected a number");
    }
    out = out.replace(
        "number too large to fit in target type",
        &format!(
            "a whole number larger than TOML holds (at most {}; a real number this large is \
             written with an exponent, such as 1e20){}",
            i64::MAX,
            range
                .as_ref()
                .map_or_else(String::new, |r| format!("; this key takes {r}"))
        ),
    );
    one_line(&short_floats(&out))
}

/// The tables a scenario holds one of, and those it may hold many of.
const ONE_TABLE: [&str; 6] = ["grid", "sphere", "ocean", "focus", "foam", "contacts"];
const MANY_TABLES: [&str; 3] = ["body", "impulse", "land"];

/// A table written as the other kind, said as such: `[[focus]]` for the one `[focus]`, or
/// `[body]` for one of many `[[body]]` (the parser said "invalid type: map, expected a string"
/// or "expected a sequence"), where the parser's refusal stands at that table's header.
fn table_kind_mistake(text: &str, at: usize, message: &str) -> Option<String> {
    if !message.starts_with("invalid type: map") {
        return None;
    }
    let at = text.floor_char_boundary(at);
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?.trim();
    let line = line.split('#').next()?.trim();
    if let Some(name) = line.strip_prefix("[[").and_then(|l| l.strip_suffix("]]")) {
        let name = name.trim();
        return ONE_TABLE.contains(&name).then(|| {
            format!("[{name}] is one table: write [{name}], not [[{name}]] (an array of tables)")
        });
    }
    let name = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    MANY_TABLES.contains(&name).then(|| {
        format!(
            "a scenario may hold many [[{name}]] tables: write each as [[{name}]], not [{name}]"
        )
    })
}

/// The key whose value starts at byte `at`: the name before `=` on its line. `at` comes from
/// the parser's span and may fall inside a character; the line is found from the character
/// boundary at or before it.
fn key_at(text: &str, at: usize) -> Option<&str> {
    let at = text.floor_char_boundary(at);
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text[start..].split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.contains(char::is_whitespace)).then_some(key)
}

/// Serde's `floating point `X`` with `X` in Rust's short form: `1e300`, not 301 digits.
fn short_floats(message: &str) -> String {
    const QUOTE: &str = "floating point `";
    let Some(i) = message.find(QUOTE) else {
        return message.to_owned();
    };
    let from = i + QUOTE.len();
    let Some(len) = message[from..].find('`') else {
        return message.to_owned();
    };
    match message[from..from + len].parse::<f64>() {
        Ok(x) => format!("{}{x:?}{}", &message[..from], &message[from + len..]),
        Err(_) => message.to_owned(),
    }
}

/// The damping of a `damping` (per step) or `damping_per_second` key, and the span to blame when
/// it is refused (`fallback` when neither is given: no damping).
///
/// # Errors
/// Both keys given.
pub(crate) fn damping_keys(
    per_step: &Option<Spanned<f64>>,
    per_second: &Option<Spanned<f64>>,
    fallback: std::ops::Range<usize>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(Damping, std::ops::Range<usize>), ScenarioError> {
    Ok(match (per_step, per_second) {
        (Some(_), Some(b)) => {
            return Err(at(
                b.span(),
                "give either damping (per step) or damping_per_second, not both".into(),
            ))
        }
        (Some(d), None) => (Damping::PerStep(*d.get_ref()), d.span()),
        (None, Some(d)) => (Damping::PerSecond(*d.get_ref()), d.span()),
        (None, None) => (Damping::NONE, fallback),
    })
}

/// The text of a built-in scenario.
fn builtin_text(name: &str) -> Result<&'static str, ScenarioError> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .ok_or_else(|| ScenarioError {
            file: format!("<builtin {name}>"),
            line: 0,
            column: 0,
            message: format!(
                "no built-in scenario {name:?}; built-ins: {}",
                BUILTIN
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before.len(), |nl| before.len() - nl - 1)
        + 1;
    (line, column)
}

/// Every `*.toml` file directly inside `dir`, sorted.
///
/// # Errors
/// The I/O error of reading the folder.
pub fn scenario_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A span inside a multi-byte character still finds its line's key (slicing there would
    /// panic), and the ranges quoted at a type error are the limits the checks hold.
    #[test]
    fn key_at_any_byte_and_ranges_from_the_limits() {
        let text = "steps = 1\nwidth = \"é\"\n";
        let inside = text.find('é').unwrap() + 1;
        assert!(!text.is_char_boundary(inside));
        assert_eq!(key_at(text, inside), Some("width"));
        assert_eq!(key_at(text, text.len() + 10), None);
        assert_eq!(
            whole_number_range("width").unwrap(),
            format!("3 to {}", water_core::MAX_GRID_DIM)
        );
        assert_eq!(whole_number_range("cascades").unwrap(), "1 to 8");
        assert_eq!(whole_number_range("dt"), None);
    }
}
