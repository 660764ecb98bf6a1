//! The examples' check mode: `--frames N --screenshot PATH` runs N scripted frames at a fixed
//! 1/30 s each, saves the last picture to PATH and exits 1 when it is blank or shows no moving
//! water. `--bench-frames N` (the pond) times the simulation headless instead.
//!
//! Three captures: the still water (before the script acts), the last frame (saved), and the
//! water alone one frame later with the floating bodies hidden, so that "visible waves" means
//! the surface changed, not that crates appeared on it.

use std::path::PathBuf;
use std::time::Duration;

use bevy::app::AppExit;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::time::TimeUpdateStrategy;
use water_bevy::Floating;

use water_render::picture_check as blank_check;

/// Frame at which the still water is captured: the first frame has drawn the water (pipelines
/// compile synchronously in check mode), and the script acts only after it.
pub const STILL_FRAME: u32 = 2;

/// Game time each frame advances in check mode, seconds: 30 frames per second of game time
/// whatever the machine draws at, so every run sees the same water.
pub const CHECK_FRAME_SECONDS: f64 = 1.0 / 30.0;

/// Frames to wait for a capture before giving up (a screenshot arrives a frame or two late).
const CAPTURE_TIMEOUT_FRAMES: u32 = 120;

/// What the command line asked for.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// Scripted frames to run before the last capture; `None`: interactive.
    pub frames: Option<u32>,
    /// Where the last picture goes.
    pub screenshot: Option<PathBuf>,
    /// Frames to time headless (`--bench-frames`).
    pub bench_frames: Option<u32>,
    /// Grid cells along each side (`--size`).
    pub size: Option<usize>,
    /// Floating crates (`--crates`).
    pub crates: Option<usize>,
    /// Where the water steps (`--backend cpu|gpu|gpu-fragment`; the plugin's default, cpu,
    /// when absent).
    pub backend: Option<water_bevy::Backend>,
}

/// Where an example's water steps (`--backend`), for its setup system.
#[derive(Resource, Debug, Clone, Copy)]
pub struct ExampleBackend(pub water_bevy::Backend);

impl Options {
    /// Parses `std::env::args`; a bad argument is reported with the usage.
    pub fn from_args() -> Result<Self, String> {
        let mut options = Self::default();
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
            let number = |v: String| v.parse::<u32>().map_err(|e| format!("{flag} {v:?}: {e}"));
            match flag.as_str() {
                "--frames" => options.frames = Some(number(value()?)?),
                "--screenshot" => options.screenshot = Some(PathBuf::from(value()?)),
                "--bench-frames" => options.bench_frames = Some(number(value()?)?),
                "--size" => options.size = Some(number(value()?)? as usize),
                "--crates" => options.crates = Some(number(value()?)? as usize),
                "--backend" => {
                    let name = value()?;
                    options.backend = Some(
                        name.parse()
                            .map_err(|e| format!("--backend {name:?}: {e}"))?,
                    );
                }
                other => {
                    return Err(format!(
                        "unknown argument {other:?}; usage: [--frames N --screenshot PATH] \
                         [--backend cpu|gpu] [--bench-frames N --size CELLS --crates N]"
                    ))
                }
            }
        }
        if let Some(frames) = options.frames.filter(|&f| f <= STILL_FRAME + 1) {
            return Err(format!(
                "--frames must be more than {}, got {frames}",
                STILL_FRAME + 1
            ));
        }
        if options.frames.is_some() && options.screenshot.is_none() {
            return Err("--frames needs --screenshot PATH".to_string());
        }
        Ok(options)
    }
}

/// The check mode: fixed frame time, the captures and the verdict.
pub struct CheckModePlugin {
    /// Frames before the last capture.
    pub frames: u32,
    /// Where the last picture goes.
    pub screenshot: PathBuf,
    /// Where the camera's horizontal rays land, as a fraction of the picture's height from the
    /// top, for a scene at sea: the last picture must then show a smooth sky above that row and
    /// waves up to it (`picture_check::horizon_reason`). `None`: no horizon in view.
    pub horizon: Option<f32>,
}

/// Rows around the horizon the horizon check leaves to either side (the sea's far rim blurs
/// into it at grazing angles).
const HORIZON_MARGIN_ROWS: usize = 12;

/// The frame being run, counting from 1.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CheckFrame(pub u32);

#[derive(Resource, Debug)]
struct Verdict {
    frames: u32,
    screenshot: PathBuf,
    still: Option<Vec<u8>>,
    last: Option<(Vec<u8>, u32, u32)>,
    waves: Option<Vec<u8>>,
    horizon: Option<f32>,
}

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum Capture {
    Still,
    Last,
    Waves,
}

impl Plugin for CheckModePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            CHECK_FRAME_SECONDS,
        )))
        .init_resource::<CheckFrame>()
        .insert_resource(Verdict {
            frames: self.frames,
            screenshot: self.screenshot.clone(),
            still: None,
            last: None,
            waves: None,
            horizon: self.horizon,
        })
        .add_systems(First, count_frame)
        .add_systems(Last, (capture, judge).chain());
    }
}

fn count_frame(mut frame: ResMut<CheckFrame>) {
    frame.0 += 1;
}

fn capture(
    mut commands: Commands,
    frame: Res<CheckFrame>,
    verdict: Res<Verdict>,
    mut bodies: Query<&mut Visibility, With<Floating>>,
) {
    let f = frame.0;
    let take = |commands: &mut Commands, which: Capture| {
        commands
            .spawn((Screenshot::primary_window(), which))
            .observe(store);
    };
    if f == STILL_FRAME {
        take(&mut commands, Capture::Still);
    } else if f == verdict.frames {
        take(&mut commands, Capture::Last);
    } else if f == verdict.frames + 1 {
        for mut v in &mut bodies {
            *v = Visibility::Hidden;
        }
    } else if f == verdict.frames + 2 {
        take(&mut commands, Capture::Waves);
    }
}

fn store(captured: On<ScreenshotCaptured>, which: Query<&Capture>, mut verdict: ResMut<Verdict>) {
    let Ok(&which) = which.get(captured.entity) else {
        return;
    };
    let rgb = match captured.image.clone().try_into_dynamic() {
        Ok(image) => image.to_rgb8(),
        Err(e) => {
            error!("screenshot {which:?} could not be read: {e}");
            return;
        }
    };
    let (w, h) = (rgb.width(), rgb.height());
    if which == Capture::Last {
        if let Some(dir) = verdict.screenshot.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                error!("cannot make {}: {e}", dir.display());
            }
        }
        match rgb.save(&verdict.screenshot) {
            Ok(()) => info!("saved {}", verdict.screenshot.display()),
            Err(e) => error!("cannot save {}: {e}", verdict.screenshot.display()),
        }
    }
    let raw = rgb.into_raw();
    match which {
        Capture::Still => verdict.still = Some(raw),
        Capture::Last => verdict.last = Some((raw, w, h)),
        Capture::Waves => verdict.waves = Some(raw),
    }
}

fn judge(frame: Res<CheckFrame>, verdict: Res<Verdict>, mut exit: MessageWriter<AppExit>) {
    let (Some(still), Some((last, w, h)), Some(waves)) =
        (&verdict.still, &verdict.last, &verdict.waves)
    else {
        if frame.0 > verdict.frames + CAPTURE_TIMEOUT_FRAMES {
            eprintln!(
                "check failed: the screenshots never arrived ({} frames)",
                frame.0
            );
            exit.write(AppExit::from_code(1));
        }
        return;
    };
    let stats = blank_check::picture_stats(last);
    let change = blank_check::mean_change(still, waves);
    println!(
        "check: {w}x{h}, {} colours, luma spread {:.1}, water changed by {change:.2} levels \
         from the still frame",
        stats.distinct_colours, stats.luma_std_dev
    );
    let failure = blank_check::blank_reason(&stats)
        .map(|r| format!("blank picture: {r}"))
        .or_else(|| blank_check::unchanged_reason(still, waves))
        .or_else(|| {
            verdict.horizon.and_then(|fraction| {
                let row = fraction * *h as f32;
                println!("check: the horizon at row {row:.0} of {h}");
                blank_check::horizon_reason(last, *w as usize, row, HORIZON_MARGIN_ROWS)
                    .or_else(|| sea_like_sky(last, *w as usize, row as usize))
                    .map(|r| format!("no sea to the horizon: {r}"))
                    .or_else(|| far_sea_speckle(last, *w as usize, row as usize))
            })
        });
    match failure {
        Some(reason) => {
            eprintln!("check failed: {reason}");
            exit.write(AppExit::from_code(1));
        }
        None => {
            exit.write(AppExit::Success);
        }
    }
}

/// Least difference of mean brightness (levels of 255) between the rows below the horizon and
/// those above: a sea culled or left undrawn shows the sky's clear colour through it, with only
/// a few streaks of waves.
const SEA_SKY_CONTRAST: f64 = 20.0;

/// Why the rows below `horizon` are not a sea apart from the sky above it, or `None`.
fn sea_like_sky(rgb: &[u8], width: usize, horizon: usize) -> Option<String> {
    let mean = |rows: &[u8]| {
        let pixels = rows.len() / 3;
        rows.chunks_exact(3)
            .map(|p| 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]))
            .sum::<f64>()
            / pixels.max(1) as f64
    };
    let split = (horizon * width * 3).min(rgb.len());
    let (sky, sea) = (mean(&rgb[..split]), mean(&rgb[split..]));
    println!("check: mean brightness {sky:.1} above the horizon, {sea:.1} below");
    ((sky - sea).abs() < SEA_SKY_CONTRAST).then(|| {
        format!(
            "the rows below the horizon (mean brightness {sea:.1}) look like the sky above it \
             ({sky:.1}): less than {SEA_SKY_CONTRAST} levels apart"
        )
    })
}

/// Rows of far sea below the horizon's margin whose speckle is measured.
const FAR_SEA_ROWS: usize = 24;

/// Most mean difference of luma (levels of 255) between side-by-side pixels of the far sea: a
/// sea whose finer tiles' normals are not faded where a pixel covers many of their waves
/// aliases into speckle there. The `sea` example measured 3.2 with the fade and 7.1 without it
/// (every tile's weight held at 1), both on Mesa's software Vulkan as CI renders it.
const FAR_SEA_SPECKLE: f64 = 5.0;

/// Why the far sea (the rows just below the horizon's margin) is speckled, or `None`.
fn far_sea_speckle(rgb: &[u8], width: usize, horizon: usize) -> Option<String> {
    let first = horizon + HORIZON_MARGIN_ROWS;
    let rows = first..(first + FAR_SEA_ROWS).min(rgb.len() / (3 * width.max(1)));
    let luma =
        |p: &[u8]| 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
    let (mut sum, mut pairs) = (0.0, 0usize);
    for row in rows {
        let pixels = &rgb[row * width * 3..(row + 1) * width * 3];
        for (a, b) in pixels.chunks_exact(3).zip(pixels.chunks_exact(3).skip(1)) {
            sum += (luma(a) - luma(b)).abs();
            pairs += 1;
        }
    }
    let speckle = sum / pairs.max(1) as f64;
    println!("check: far sea speckle {speckle:.2} levels between neighbouring pixels");
    (speckle > FAR_SEA_SPECKLE).then(|| {
        format!(
            "the far sea is speckled: neighbouring pixels differ by {speckle:.2} levels on \
             average, more than {FAR_SEA_SPECKLE}"
        )
    })
}

/// Bevy's default plugins with a 1280 x 720 window titled `title`. In check mode every
/// pipeline is ready on the frame that first needs it, so the still picture shows the water.
pub fn window_plugins(title: &str, check: bool) -> bevy::app::PluginGroupBuilder {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: title.into(),
                resolution: (1280, 720).into(),
                ..default()
            }),
            ..default()
        })
        .set(bevy::render::RenderPlugin {
            synchronous_pipeline_compilation: check,
            ..default()
        })
}

/// The command line of the example `name`, or the exit when it is bad (the error printed as
/// `name: error`, code 2).
pub fn options_or_exit(name: &str) -> Result<Options, AppExit> {
    Options::from_args().map_err(|e| {
        eprintln!("{name}: {e}");
        AppExit::from_code(2)
    })
}

/// The app every example starts from: [`window_plugins`] titled `water-bevy: name` (ready
/// pipelines in check mode), the water plugin, a clear colour of `sky` and the backend the
/// command line asked for, with the check mode when the command line has `--frames` (and
/// `horizon` for a scene whose sea must reach the horizon). The exit, code 2, on Linux without
/// a display to open the window on.
pub fn example_app(
    name: &str,
    options: &Options,
    sky: Color,
    horizon: Option<f32>,
) -> Result<App, AppExit> {
    // On Linux a window needs an X or Wayland display named in the environment; elsewhere the
    // system always has one.
    let displays = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"];
    if cfg!(target_os = "linux") && !displays.iter().any(|d| std::env::var_os(d).is_some()) {
        eprintln!(
            "{name}: no display to open a window on (none of {displays:?} is set); \
             headless, run it under `xvfb-run -a`"
        );
        return Err(AppExit::from_code(2));
    }
    let mut app = App::new();
    app.add_plugins((
        window_plugins(&format!("water-bevy: {name}"), options.frames.is_some()),
        water_bevy::WaterPlugin::default(),
    ))
    .insert_resource(ClearColor(sky))
    .insert_resource(ExampleBackend(options.backend.unwrap_or_default()));
    if let (Some(frames), Some(screenshot)) = (options.frames, options.screenshot.clone()) {
        app.add_plugins(CheckModePlugin {
            frames,
            screenshot,
            horizon,
        });
    }
    Ok(app)
}

/// What every example's setup system builds its scene with: the commands, the mesh and material
/// stores, and where the command line asked the water to step.
#[derive(SystemParam)]
pub struct SceneSetup<'w, 's> {
    /// Spawns the scene's entities.
    pub commands: Commands<'w, 's>,
    /// Holds the scene's meshes.
    pub meshes: ResMut<'w, Assets<Mesh>>,
    /// Holds the scene's materials.
    pub materials: ResMut<'w, Assets<StandardMaterial>>,
    /// Where the water steps (`--backend`).
    pub backend: Res<'w, ExampleBackend>,
}

impl SceneSetup<'_, '_> {
    /// The camera every example looks through, placed at `camera`, and its light: a sun at
    /// `sun` shining on the origin, and a soft ambient light.
    pub fn spawn_camera_and_light(&mut self, camera: Transform, sun: Vec3) {
        self.commands.spawn((
            Camera3d::default(),
            // No tonemapping: its lookup tables are a feature this crate leaves out of the build.
            Tonemapping::None,
            camera,
        ));
        self.commands.spawn((
            DirectionalLight {
                illuminance: 12_000.0,
                ..default()
            },
            Transform::from_translation(sun).looking_at(Vec3::ZERO, Vec3::Y),
        ));
        self.commands.insert_resource(GlobalAmbientLight {
            brightness: 300.0,
            ..default()
        });
    }
}
