//! The command line: which scene, which quality, and the check mode CI runs.

use std::fmt;
use std::path::PathBuf;

use crate::quality::Quality;

/// What `--help` prints.
pub const HELP: &str = "\
water-demo: Dynamic Water, interactive (winit + wgpu)

usage: water-demo [--scene grid|sphere] [--quality 128|256|512|1024] [--size WxH]
                  [--frames N [--screenshot PATH] [--headless]]

  --scene S        scene to start in: grid (a pool with crates, default) or sphere
  --quality Q      cells along a side of the water texture (default 256); on the sphere
                   128, 256, 512, 1024 pick icosphere levels 4, 5, 6, 7
  --size WxH       window size in pixels (default 1280x720)
  --frames N       play N frames of 1/30 s with scripted clicks and crates, then exit
  --screenshot P   with --frames: write the last frame to P as PNG; exit 1 if it is blank
  --headless       with --frames: draw offscreen only, without a window or display
  -h, --help       this text

controls: left click or drag: waves; right click or C: throw a crate (grid scene);
1-4: quality; R: reset; Tab or S: switch scene; arrows, wheel: camera; H: controls;
Esc or Q: quit. Frame and step times show in the title and once a second on stdout.
";

/// Which scene the demo shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneKind {
    /// A square pool of grid water with floating crates.
    Grid,
    /// Water on an icosphere.
    Sphere,
}

impl SceneKind {
    /// The scene's name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SceneKind::Grid => "grid",
            SceneKind::Sphere => "sphere",
        }
    }

    /// The other scene.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            SceneKind::Grid => SceneKind::Sphere,
            SceneKind::Sphere => SceneKind::Grid,
        }
    }
}

/// A scripted, self-checking run (`--frames`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRun {
    /// Frames to play before exiting (at least 1).
    pub frames: u32,
    /// Where to write the last frame, checked for blankness.
    pub screenshot: Option<PathBuf>,
    /// Draw offscreen only, without a window.
    pub headless: bool,
}

/// Validated options.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The scene at the start.
    pub scene: SceneKind,
    /// Resolution of the water.
    pub quality: Quality,
    /// Window (or offscreen picture) width, pixels.
    pub width: u32,
    /// Window (or offscreen picture) height, pixels.
    pub height: u32,
    /// The check mode, if asked for.
    pub check: Option<CheckRun>,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Print [`HELP`].
    Help,
    /// Run the demo.
    Run(Options),
}

/// Why the command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsError {
    /// An argument that is not an option of the demo.
    Unknown(String),
    /// An option given without its value.
    MissingValue(&'static str),
    /// A value the option does not take.
    BadValue {
        /// The option.
        option: &'static str,
        /// What was given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// An option that only makes sense with another.
    Needs {
        /// The option given.
        option: &'static str,
        /// The one it needs.
        needs: &'static str,
    },
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionsError::Unknown(arg) => write!(f, "unknown argument {arg:?}"),
            OptionsError::MissingValue(option) => write!(f, "{option} needs a value"),
            OptionsError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "{option} takes {expected}, not {value:?}"),
            OptionsError::Needs { option, needs } => write!(f, "{option} needs {needs}"),
        }
    }
}

impl std::error::Error for OptionsError {}

/// Largest window side accepted: beyond it the offscreen target would pass most devices' limits.
const MAX_SIDE: u32 = 8192;

/// Parses the arguments after the program name (`--name value` or `--name=value`).
///
/// # Errors
/// [`OptionsError`] naming the first bad argument.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, OptionsError> {
    let mut scene = SceneKind::Grid;
    let mut quality = Quality::Medium;
    let (mut width, mut height) = (1280, 720);
    let mut frames = None;
    let mut screenshot = None;
    let mut headless = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        let mut value = |option: &'static str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or(OptionsError::MissingValue(option))
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--scene" => {
                let v = value("--scene")?;
                scene = match v.as_str() {
                    "grid" => SceneKind::Grid,
                    "sphere" => SceneKind::Sphere,
                    _ => return Err(bad("--scene", v, "grid or sphere")),
                };
            }
            "--quality" => {
                let v = value("--quality")?;
                quality = v
                    .parse()
                    .ok()
                    .and_then(Quality::from_cells)
                    .ok_or_else(|| bad("--quality", v, "128, 256, 512 or 1024"))?;
            }
            "--size" => {
                let v = value("--size")?;
                (width, height) = parse_size(&v).ok_or_else(|| {
                    bad(
                        "--size",
                        v,
                        "WIDTHxHEIGHT, each 1 to 8192 pixels (e.g. 1280x720)",
                    )
                })?;
            }
            "--frames" => {
                let v = value("--frames")?;
                frames =
                    Some(v.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        bad("--frames", v, "a whole number of frames, at least 1")
                    })?);
            }
            "--screenshot" => screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--headless" => headless = true,
            _ => return Err(OptionsError::Unknown(arg)),
        }
    }
    let check = match frames {
        Some(frames) => Some(CheckRun {
            frames,
            screenshot,
            headless,
        }),
        None if screenshot.is_some() => {
            return Err(OptionsError::Needs {
                option: "--screenshot",
                needs: "--frames",
            })
        }
        None if headless => {
            return Err(OptionsError::Needs {
                option: "--headless",
                needs: "--frames",
            })
        }
        None => None,
    };
    Ok(Command::Run(Options {
        scene,
        quality,
        width,
        height,
        check,
    }))
}

fn bad(option: &'static str, value: String, expected: &'static str) -> OptionsError {
    OptionsError::BadValue {
        option,
        value,
        expected,
    }
}

fn parse_size(text: &str) -> Option<(u32, u32)> {
    let (w, h) = text.split_once(['x', 'X'])?;
    let side = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (1..=MAX_SIDE).contains(v))
    };
    Some((side(w)?, side(h)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Command, OptionsError> {
        parse(args.iter().map(|s| (*s).to_owned()))
    }

    fn options(args: &[&str]) -> Options {
        match run(args) {
            Ok(Command::Run(o)) => o,
            other => panic!("expected options from {args:?}, got {other:?}"),
        }
    }

    #[test]
    fn defaults_open_the_grid_at_256_in_a_1280_by_720_window() {
        let o = options(&[]);
        assert_eq!(o.scene, SceneKind::Grid);
        assert_eq!(o.quality, Quality::Medium);
        assert_eq!((o.width, o.height), (1280, 720));
        assert_eq!(o.check, None);
    }

    #[test]
    fn the_ci_check_line_parses_in_both_spellings() {
        for args in [
            &[
                "--frames",
                "40",
                "--screenshot",
                "out/demo/sphere.png",
                "--scene",
                "sphere",
            ][..],
            &[
                "--frames=40",
                "--screenshot=out/demo/sphere.png",
                "--scene=sphere",
            ][..],
        ] {
            let o = options(args);
            assert_eq!(o.scene, SceneKind::Sphere);
            assert_eq!(
                o.check,
                Some(CheckRun {
                    frames: 40,
                    screenshot: Some(PathBuf::from("out/demo/sphere.png")),
                    headless: false,
                })
            );
        }
        assert_eq!(options(&["--quality", "1024"]).quality, Quality::Ultra);
        assert_eq!(options(&["--size", "640x480"]).width, 640);
    }

    #[test]
    fn bad_values_name_the_option_and_what_it_takes() {
        let e = run(&["--quality", "300"]).expect_err("300 is not a quality");
        assert!(
            e.to_string()
                .contains("--quality takes 128, 256, 512 or 1024"),
            "{e}"
        );
        assert_eq!(
            run(&["--frames"]),
            Err(OptionsError::MissingValue("--frames"))
        );
        assert!(run(&["--frames", "0"]).is_err());
        assert!(run(&["--size", "0x10"]).is_err());
        assert!(run(&["--scene", "ocean"]).is_err());
        assert_eq!(
            run(&["--wobble"]),
            Err(OptionsError::Unknown("--wobble".into()))
        );
        assert!(matches!(
            run(&["--screenshot", "a.png"]),
            Err(OptionsError::Needs { .. })
        ));
        assert!(matches!(
            run(&["--headless"]),
            Err(OptionsError::Needs { .. })
        ));
        assert_eq!(run(&["--scene", "sphere", "-h"]), Ok(Command::Help));
    }
}
