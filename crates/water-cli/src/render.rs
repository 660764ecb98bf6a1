//! `water render`: a scenario run on a GPU backend and drawn every so many steps into PNG frames
//! and an animated GIF. Grid water is drawn in 3-D with its floating bodies, land and foam, classic
//! mode in Hugo Elias's 2-D look, sphere water as the displaced icosphere, and a grid inside an
//! `[ocean]` as the sea to the horizon with the grid's waves added and its `[foam]` drawn white
//! (the grid's coverage, and the sea's crests where its Jacobian falls below the threshold).
//! Cascades are open water too: a grid with `cascades` and no `[ocean]` is drawn the same way on
//! a still sea, its coarser cascades around it out to the coarsest's edge.

use std::path::{Path, PathBuf};
use std::time::Instant;
use water_gpu::GpuGridWater;

use glam::{Vec2, Vec3};
use serde::Serialize;
use water_buoyancy::rasterise_grid_mask;
use water_core::ocean::AmbientSea;
use water_core::{GridMode, GridSize, HeightView, STANDARD_GRAVITY};
use water_gpu::{GpuBackend, GpuContext, GpuError, GpuGrid, OceanSynthesis};
use water_render::{
    Camera, ClassicRenderer, ClassicShading, CpuSurfaceTexture, FoamTexture, GridSurfaceRenderer,
    GridSurfaceStyle, HullMaskTexture, InteractiveGrid, OceanSurfaceRenderer, OceanSurfaceStyle,
    OffscreenTarget, RgbaImage, RingLayout, SphereSurfaceRenderer, SphereSurfaceStyle,
};

use water_scene::scenario::{Scenario, ScenarioFile, ScenarioRun, SphereScenario};
use water_scene::{Backend, BackendSphere, Scene, SceneError, Water as _};

use crate::limits;
use crate::out_dir::OutputDir;
use crate::picture::robust_scale;
use crate::progress::Progress;
use crate::render_cascades::CascadeSurround;
use crate::render_meshes::{bodies_of, BodyMeshes};
use crate::run::{check_grid_memory, write_json, wrote_lines, RunError};
use water_render::{write_rgba_png, GifStream};

/// Largest output side, pixels.
pub const MAX_SIDE: u32 = 4096;
/// Most frames in one render.
pub const MAX_FRAMES: u32 = 1000;
/// Frames a render draws when none are asked for: fewer for a run of fewer steps.
pub const DEFAULT_FRAMES: u32 = 48;
/// Hundredths of a second each GIF frame shows.
pub const GIF_DELAY_CS: u16 = 4;

/// Drawn wave height as a share of the water's size, when the height scale is chosen for the
/// user: waves of a few centimetres on a pool metres wide would be invisible at true scale.
const DRAWN_WAVE_SHARE: f32 = 0.03;

/// What to render.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The GPU backend that runs the water.
    pub backend: GpuBackend,
    /// Frames, evenly spaced over the run; the last shows its final step (1 to
    /// [`MAX_FRAMES`], and at most the run's steps: [`default_frames`] gives what `water render`
    /// takes when none are asked for; the default here is [`DEFAULT_FRAMES`]).
    pub frames: u32,
    /// Picture width, pixels (1 to [`MAX_SIDE`]).
    pub width: u32,
    /// Picture height, pixels (1 to [`MAX_SIDE`]).
    pub height: u32,
    /// Drawn metres per metre of wave; `None` picks one from the first frame with waves (true
    /// scale, 1, for a grid drawn at sea: inside an `[ocean]`, or with cascades).
    pub height_scale: Option<f32>,
    /// Progress lines on stderr.
    pub show_progress: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            backend: GpuBackend::Compute,
            frames: DEFAULT_FRAMES,
            width: 640,
            height: 400,
            height_scale: None,
            show_progress: false,
        }
    }
}

impl RenderOptions {
    /// Picture width over height, for the camera.
    fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    /// Checks the counts and sizes.
    ///
    /// # Errors
    /// A message naming the bad value and its limit.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_FRAMES).contains(&self.frames) {
            return Err(format!(
                "--frames is {}, but it must be 1 to {MAX_FRAMES}",
                self.frames
            ));
        }
        for (name, side) in [("width", self.width), ("height", self.height)] {
            if !(1..=MAX_SIDE).contains(&side) {
                return Err(format!(
                    "picture {name} is {side}, but it must be 1 to {MAX_SIDE} pixels"
                ));
            }
        }
        if let Some(scale) = self.height_scale {
            if !(scale.is_finite() && scale >= f32::MIN_POSITIVE) {
                return Err(format!(
                    "--height-scale is {scale}, but it must be finite and at least \
                     1.17549435e-38 (f32's least normal number)"
                ));
            }
        }
        Ok(())
    }
}

/// What a render wrote (also `render.json` in the output folder).
#[derive(Debug, Clone, Serialize)]
pub struct RenderSummary {
    /// Scenario source.
    pub scenario: String,
    /// The backend the water stepped on: the one asked for, but `cpu` for cascades, whose
    /// surround is drawn from heights on the host.
    pub backend: String,
    /// Adapter.
    pub adapter: String,
    /// Picture size, pixels.
    pub width: u32,
    /// Picture size, pixels.
    pub height: u32,
    /// The step each frame shows.
    pub frame_steps: Vec<u64>,
    /// Drawn metres per metre of wave.
    pub height_scale: f32,
    /// PNG frames, in order.
    pub frames: Vec<PathBuf>,
    /// The animated GIF.
    pub gif: PathBuf,
    /// This summary, `render.json`.
    pub json: PathBuf,
    /// Wall-clock seconds, run and drawing together.
    pub wall_seconds: f64,
}

impl RenderSummary {
    /// Lines for the terminal: what was drawn, and every file written.
    #[must_use]
    pub fn to_text(&self) -> String {
        let s = format!(
            "rendered   {} frame{} of {} x {} (water on {}; {}; height scale {}) in {:.2} s\n",
            self.frames.len(),
            if self.frames.len() == 1 { "" } else { "s" },
            self.width,
            self.height,
            self.backend,
            self.adapter,
            water_core::readable(f64::from(self.height_scale)),
            self.wall_seconds
        );
        s + &wrote_lines(self.frames.iter().chain([&self.gif, &self.json]))
    }
}

/// Steps at which the `frames` frames of a `steps`-step run are taken: evenly spaced, the last at
/// the end (a run of 0 steps shows its start in every frame).
#[must_use]
pub fn frame_steps(steps: u64, frames: u32) -> Vec<u64> {
    let frames = u64::from(frames.max(1));
    (1..=frames)
        .map(|k| (u128::from(k) * u128::from(steps) / u128::from(frames)) as u64)
        .collect()
}

/// Names of the files `water render` writes: `frame-NNNN.png`, `water.gif` and `render.json`.
/// On success, files of these names that an earlier render left and this one did not write are
/// removed.
#[must_use]
pub fn is_render_output(name: &str) -> bool {
    let frame = name
        .strip_prefix("frame-")
        .and_then(|n| n.strip_suffix(".png"))
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
    frame || name == "water.gif" || name == "render.json"
}

/// Where frames are drawn, and where they go as they are drawn: a PNG each and a frame of the
/// GIF, so a render holds one frame at a time, not all of them.
struct Frames<'a> {
    gpu: &'a GpuContext,
    options: &'a RenderOptions,
    target: OffscreenTarget,
    dir: &'a mut OutputDir,
    gif: GifStream,
    frames: Vec<PathBuf>,
}

impl Frames<'_> {
    /// Draws a frame with the commands `encode` records into the target, and writes it.
    fn draw(
        &mut self,
        encode: impl FnOnce(&mut wgpu::CommandEncoder, &OffscreenTarget) -> Result<(), GpuError>,
    ) -> Result<(), RunError> {
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        encode(&mut encoder, &self.target)?;
        self.gpu.queue.submit([encoder.finish()]);
        let image = self.target.read()?;
        self.push(&image)
    }

    /// Writes `image` as the next frame.
    fn push(&mut self, image: &RgbaImage) -> Result<(), RunError> {
        let dir = self.dir.dir().to_path_buf();
        let io = |source| RunError::Io { dir, source };
        let name = format!("frame-{:04}.png", self.frames.len());
        let path = match self.dir.write(&name, |p| write_rgba_png(p, image)) {
            Ok(path) => path,
            Err(e) => return Err(io(e)),
        };
        if let Err(e) = self.gif.add(image) {
            return Err(io(e));
        }
        self.frames.push(path);
        Ok(())
    }
}

/// The frames drawn of `scenario` when none are asked for: [`DEFAULT_FRAMES`], or one a step
/// for a run of fewer steps (its start for a run of none).
#[must_use]
pub fn default_frames(scenario: &ScenarioFile) -> u32 {
    let steps = match scenario {
        ScenarioFile::Grid(s) => s.steps,
        ScenarioFile::Sphere(s) => s.steps,
    };
    steps.clamp(1, u64::from(DEFAULT_FRAMES)) as u32
}

/// Runs `scenario` on a GPU backend (its water on the CPU where it has cascades, drawn from
/// heights on the host) and writes `frame-NNNN.png`, `water.gif` and `render.json`
/// into `out`, each frame as it is drawn. Nothing in `out` changes unless the whole render
/// succeeds (see [`OutputDir`]).
///
/// # Errors
/// [`RunError::Options`] for bad options, [`RunError::Gpu`] for GPU failures,
/// [`RunError::Io`] for files.
pub fn render_scenario(
    scenario: &mut ScenarioFile,
    options: &RenderOptions,
    out: &Path,
) -> Result<RenderSummary, RunError> {
    options.validate().map_err(RunError::Options)?;
    let steps = match scenario {
        ScenarioFile::Grid(s) => s.steps,
        ScenarioFile::Sphere(s) => s.steps,
    };
    // More frames than steps would draw some steps twice (a run of 0 steps has its start).
    if u64::from(options.frames) > steps.max(1) {
        return Err(RunError::Options(format!(
            "--frames is {}, but a run of {steps} steps has {} to draw (one a step, the last \
             at its end): ask for at most that",
            options.frames,
            steps.max(1)
        )));
    }
    let io = |source| RunError::Io {
        dir: out.to_path_buf(),
        source,
    };
    let frame_bytes = limits::render_bytes(options.width, options.height);
    let what = format!("a {} x {} render", options.width, options.height);
    match scenario {
        ScenarioFile::Grid(s) => {
            // What the backend asked for refuses (the fragment backend's cascades and
            // dispersive water), as `run` and `compare` refuse it, though cascades are stepped
            // on the CPU for the picture (`water_backend`).
            s.check_backend(options.backend.into())?;
            check_grid_memory(s)?;
            let grid = limits::scenario_grid_bytes(s)
                .saturating_mul(s.cascades as u64)
                .saturating_add(CascadeSurround::bytes(s.cascades));
            limits::check_memory(&what, frame_bytes.saturating_add(grid))?;
        }
        // The sphere was checked, and built, when the scenario was read.
        ScenarioFile::Sphere(_) => limits::check_memory(&what, frame_bytes)?,
    }
    let dir = OutputDir::create(out).map_err(io)?;
    let gpu = GpuContext::headless()?;
    if gpu.adapter.get_info().device_type == wgpu::DeviceType::Cpu {
        // A software adapter's textures are this process's memory, and its driver has just
        // taken its own share of the address space: the frame's device side counted too.
        limits::check_memory(
            &what,
            frame_bytes.saturating_add(limits::render_device_bytes(options.width, options.height)),
        )?;
    }
    let rendered = render_with(&gpu, scenario, options, dir);
    // An error the device raised outside the crate's scopes (a texture past the memory left)
    // is the cause of whatever failed after it: name it.
    gpu.raised_error()?;
    rendered
}

/// The frames of `scenario` drawn on `gpu` into `dir`, and the summary.
fn render_with(
    gpu: &GpuContext,
    scenario: &mut ScenarioFile,
    options: &RenderOptions,
    mut dir: OutputDir,
) -> Result<RenderSummary, RunError> {
    let out = dir.dir().to_path_buf();
    let io = |source| RunError::Io {
        dir: out.clone(),
        source,
    };
    let start = Instant::now();
    let target = OffscreenTarget::new(
        &gpu.device,
        &gpu.queue,
        options.width,
        options.height,
        wgpu::TextureFormat::Rgba8UnormSrgb,
    )?;
    let (gif_temporary, gif) = dir.start("water.gif");
    let mut frames = Frames {
        gpu,
        options,
        target,
        gif: GifStream::create(&gif_temporary, options.width, options.height, GIF_DELAY_CS)
            .map_err(io)?,
        dir: &mut dir,
        frames: Vec::with_capacity(options.frames as usize),
    };
    let (source, steps, scale, backend) = match scenario {
        ScenarioFile::Grid(s) => {
            let steps = frame_steps(s.steps, options.frames);
            let scale = if s.ocean.is_some() || s.cascades > 1 {
                frames.render_ocean(s, &steps)?
            } else {
                frames.render_grid(s, &steps)?
            };
            (s.source.clone(), steps, scale, water_backend(s, options))
        }
        ScenarioFile::Sphere(s) => {
            let steps = frame_steps(s.steps, options.frames);
            let scale = frames.render_sphere(s, &steps)?;
            (s.source.clone(), steps, scale, options.backend.into())
        }
    };
    let Frames {
        gif: gif_stream,
        frames: paths,
        ..
    } = frames;
    gif_stream.finish().map_err(io)?;
    let summary = RenderSummary {
        scenario: source,
        backend: backend.name().into(),
        adapter: gpu.describe(),
        width: options.width,
        height: options.height,
        frame_steps: steps,
        height_scale: scale,
        frames: paths,
        gif,
        json: dir.path("render.json"),
        wall_seconds: start.elapsed().as_secs_f64(),
    };
    write_json(dir, "render.json", &summary, is_render_output).map_err(io)?;
    Ok(summary)
}

/// The GPU grid of a scene made on a GPU backend.
fn gpu_grid(scene: &mut Scene) -> &mut GpuGrid {
    scene
        .gpu_water_to_read()
        .expect("render makes its scenes on a GPU backend")
}

/// The backend a grid scenario's water runs on for its render: the one asked for, but the CPU
/// for cascades, whose surround is drawn from heights on the host (the finest grid's surface
/// is then uploaded every frame).
fn water_backend(scenario: &Scenario, options: &RenderOptions) -> Backend {
    if scenario.cascades > 1 {
        Backend::Cpu
    } else {
        options.backend.into()
    }
}

/// Where each frame's grid surface (normals and heights) comes from: the GPU grid's own pass,
/// or the heights of water stepped on the CPU, uploaded.
enum SurfaceSource {
    Gpu,
    Cpu(Box<CpuSurfaceTexture>),
}

impl SurfaceSource {
    fn for_backend(device: &wgpu::Device, backend: Backend, size: GridSize) -> Self {
        if backend == Backend::Cpu {
            Self::Cpu(Box::new(CpuSurfaceTexture::new(device, size)))
        } else {
            Self::Gpu
        }
    }

    /// The surface of `scene`'s grid now.
    fn view(
        &mut self,
        scene: &mut Scene,
        queue: &wgpu::Queue,
        cell: f32,
    ) -> Result<wgpu::TextureView, RunError> {
        match self {
            Self::Gpu => Ok(gpu_grid(scene).update_normal_height()?.clone()),
            Self::Cpu(texture) => {
                let heights = scene.water().heights()?;
                let view =
                    HeightView::new(texture.size(), cell, &heights).map_err(SceneError::from)?;
                texture.write(queue, &view)?;
                Ok(texture.view().clone())
            }
        }
    }
}

/// A height scale that draws waves of the field's typical size at [`DRAWN_WAVE_SHARE`] of
/// `extent`, or `None` while the water is still. Heights that f32 holds only as subnormals
/// count as still: a GPU keeps them where the CPU flushes them to 0, and a scale made from them
/// would pass f32's range.
fn auto_scale(heights: &[f32], extent: f32) -> Option<f32> {
    let typical = robust_scale(heights);
    (typical >= f32::MIN_POSITIVE && heights.iter().any(|h| h.abs() >= f32::MIN_POSITIVE))
        .then(|| DRAWN_WAVE_SHARE * extent / typical)
        .filter(|scale| scale.is_finite())
}

/// The height scale a frame is drawn at: the one asked for, else one picked by [`auto_scale`]
/// from the first frame with waves and kept from then on (1 until then).
fn frame_scale(
    scale: &mut Option<f32>,
    extent: f32,
    heights: impl FnOnce() -> Result<Vec<f32>, RunError>,
) -> Result<f32, RunError> {
    if scale.is_none() {
        *scale = auto_scale(&heights()?, extent);
    }
    Ok(scale.unwrap_or(1.0))
}

/// `style` with its waves drawn at `scale`, or `None` where they already are;
/// `height_scale` picks the style's field.
fn rescaled<S: Clone>(style: &S, scale: f32, height_scale: fn(&mut S) -> &mut f32) -> Option<S> {
    let mut style = style.clone();
    let old = std::mem::replace(height_scale(&mut style), scale);
    (old != scale).then_some(style)
}

/// What every picture of a grid scenario starts from: its scene on the backend the render runs
/// it on, the run of its events, where the surface texture comes from, its cell (m) and the
/// progress line.
struct GridFrames<'s> {
    sim: Scene,
    run: ScenarioRun<'s>,
    surfaces: SurfaceSource,
    cell: f32,
    progress: Progress,
}

impl Frames<'_> {
    /// [`GridFrames`] of `scenario`.
    fn grid_frames<'s>(&self, scenario: &'s Scenario) -> Result<GridFrames<'s>, RunError> {
        let backend = water_backend(scenario, self.options);
        Ok(GridFrames {
            sim: scenario.scene(backend, Some(self.gpu))?,
            run: ScenarioRun::new(scenario),
            surfaces: SurfaceSource::for_backend(&self.gpu.device, backend, scenario.size),
            cell: scenario.params.cell_size() as f32,
            progress: Progress::new("render", scenario.steps, self.options.show_progress),
        })
    }

    /// Draws the frames of a grid scenario; returns the height scale they were drawn with.
    fn render_grid(&mut self, scenario: &Scenario, steps: &[u64]) -> Result<f32, RunError> {
        let (gpu, options) = (self.gpu, self.options);
        let (device, queue, format) = (&gpu.device, &gpu.queue, self.target.format());
        let GridFrames {
            mut sim,
            mut run,
            mut surfaces,
            cell,
            mut progress,
        } = self.grid_frames(scenario)?;
        let size = scenario.size;
        let extent = Vec3::new(size.width() as f32 * cell, size.height() as f32 * cell, 0.0);
        let longest = extent.x.max(extent.y);

        if scenario.mode == GridMode::Classic {
            let mut renderer = ClassicRenderer::new(
                device,
                queue,
                format,
                size,
                ClassicShading::default(),
                &RgbaImage::pebbles(size.width() as u32, size.height() as u32, 24, 3),
            )?;
            for &step in steps {
                run.advance_to(&mut sim, step, None, |done| progress.update(done))?;
                let surface = gpu_grid(&mut sim).update_normal_height()?.clone();
                self.draw(|encoder, target| {
                    renderer.encode(encoder, target.colour_view(), &surface)
                })?;
            }
            progress.finish();
            return Ok(1.0);
        }

        let style = GridSurfaceStyle {
            mesh_quads: (size.width().max(size.height()) as u32).min(512),
            floor_depth: 0.1 * longest,
            floor_tile: 0.2 * longest,
            absorption: 12.0 / longest,
            ..GridSurfaceStyle::default()
        };
        let mut renderer = GridSurfaceRenderer::new(device, queue, format, size, cell, style)?;
        let camera = Camera::orbit(extent * 0.5, 1.2 * longest, 0.35, 0.75, options.aspect());
        // Drawn in the grid's frame: a grid that follows a [focus] carries the camera, and the
        // bodies and land come under it from the world.
        let mut land = scenario.land_now(&sim);
        let mut meshes = BodyMeshes::new(device, bodies_of(&sim), &land, cell)?;
        let mask = HullMaskTexture::new(device, size);
        let mut foam = scenario.foam.map(|_| FoamTexture::new(device, size));
        renderer.set_foam(foam.as_ref().map(FoamTexture::view))?;
        let mut cells = vec![0.0_f32; size.cells()];
        let mut scale = options.height_scale;
        for &step in steps {
            run.advance_to(&mut sim, step, None, |done| progress.update(done))?;
            let drawn = frame_scale(&mut scale, longest, || Ok(sim.water().heights()?))?;
            if let Some(style) = rescaled(renderer.style(), drawn, |s| &mut s.height_scale) {
                renderer.set_style(style)?;
            }
            if scenario.focus.is_some() && sim.window_land() != &land {
                land = sim.window_land().clone();
                meshes.set_land(device, &land, cell)?;
            }
            let origin = sim.window_origin().as_vec2();
            // Flat water where hulls and land are.
            for (c, land) in cells.iter_mut().zip(land.cells()) {
                *c = if *land { 1.0 } else { 0.0 };
            }
            for body in bodies_of(&sim) {
                let mut pose = body.body.state.pose;
                pose.position -= origin.extend(0.0);
                rasterise_grid_mask(&body.hulls, &pose, size, cell, 1.0, &mut cells)?;
            }
            mask.write(queue, &cells)?;
            if let (Some(texture), Some(coverage)) = (&mut foam, sim.foam_coverage()) {
                texture.write(queue, &coverage)?;
            }
            let surface = surfaces.view(&mut sim, queue, cell)?;
            let draws = meshes.draws(bodies_of(&sim), drawn, origin);
            self.draw(|encoder, target| {
                renderer.encode(
                    encoder,
                    target.frame(Vec3::new(0.55, 0.65, 0.75)),
                    &camera,
                    &surface,
                    Some(mask.view()),
                    &draws,
                )
            })?;
        }
        progress.finish();
        Ok(scale.unwrap_or(1.0))
    }
}

impl Frames<'_> {
    /// Draws the frames of a grid inside an `[ocean]` (or a still sea, for cascades without
    /// one): the sea to the horizon, the grid's waves added where it lies, the coarser cascades
    /// around it, the bodies on the sum, at true scale (or the height scale
    /// asked for, on the grid's waves); returns that scale.
    fn render_ocean(&mut self, scenario: &Scenario, steps: &[u64]) -> Result<f32, RunError> {
        let (gpu, options) = (self.gpu, self.options);
        let (device, queue, format) = (&gpu.device, &gpu.queue, self.target.format());
        let GridFrames {
            mut sim,
            mut run,
            mut surfaces,
            cell,
            mut progress,
        } = self.grid_frames(scenario)?;
        let size = scenario.size;
        let extent = Vec2::new(size.width() as f32, size.height() as f32) * cell;
        let longest = extent.max_element();
        // Cascades without an [ocean] are drawn on a still sea: one mode of no height.
        let still;
        let sea = match sim.ocean() {
            Some(sea) => sea,
            None => {
                still = AmbientSea::regular_wave(
                    0.0,
                    64.0 * f64::from(cell),
                    STANDARD_GRAVITY,
                    None,
                    0.0,
                )
                .map_err(SceneError::from)?;
                &still
            }
        };
        let sea = OceanSynthesis::new(device, queue, sea)?;
        let scale = options.height_scale.unwrap_or(1.0);
        let defaults = OceanSurfaceStyle::default();
        let style = OceanSurfaceStyle {
            height_scale: scale,
            rim_fade: 8.0 * cell,
            // The finest rings as fine as the grid's cells, so its wakes are drawn in shape.
            layout: RingLayout {
                finest_spacing: cell,
                ..defaults.layout
            },
            // The sea's breaking crests drawn white where the scenario's foam says they break.
            foam_jacobian: scenario.foam.and_then(|f| f.jacobian_threshold),
            ..defaults
        };
        let mut renderer = OceanSurfaceRenderer::new(device, queue, format, style)?;
        let mut foam = scenario.foam.map(|_| FoamTexture::new(device, size));
        // The coarser cascades, drawn around the grid.
        let mut cascades = CascadeSurround::for_scene(device, &sim)?;
        // Drawn in the world: the land where the scenario put it, the grid where its [focus]
        // took it.
        let meshes = BodyMeshes::new(device, bodies_of(&sim), &scenario.all_land(), cell)?;
        for &step in steps {
            run.advance_to(&mut sim, step, None, |done| progress.update(done))?;
            let t = sim.time();
            let surface = surfaces.view(&mut sim, queue, cell)?;
            if let (Some(texture), Some(coverage)) = (&mut foam, sim.foam_coverage()) {
                texture.write(queue, &coverage)?;
            }
            let surrounding = match &mut cascades {
                Some(c) => Some(c.update(&mut sim, queue)?),
                None => None,
            };
            let draws = meshes.draws(bodies_of(&sim), scale, Vec2::ZERO);
            let origin = sim.window_origin().as_vec2();
            // Low over the grid's near corner, looking across it toward the horizon (which
            // sits a fifth of the picture below its top edge), travelling with the grid.
            let centre = (origin + extent * 0.5).extend(0.0);
            let eye = Vec3::new(-0.15 * extent.x, -0.25 * extent.y, 0.2 * longest);
            let camera = Camera::look_at(
                origin.extend(0.0) + eye,
                centre,
                Vec3::Z,
                0.8,
                options.aspect(),
                0.01 * longest,
                4e6,
            );
            let grid = InteractiveGrid {
                surface: &surface,
                size,
                cell_size: cell,
                origin,
                foam: foam.as_ref().map(FoamTexture::view),
                surrounding,
            };
            self.draw(|encoder, target| {
                sea.encode(device, encoder, t);
                renderer.encode(
                    encoder,
                    target.frame(Vec3::ZERO),
                    &camera,
                    &sea,
                    Some(grid),
                    &draws,
                )
            })?;
        }
        progress.finish();
        Ok(scale)
    }
}

impl Frames<'_> {
    /// Draws the frames of a sphere scenario; returns the height scale they were drawn with.
    fn render_sphere(&mut self, scenario: &SphereScenario, steps: &[u64]) -> Result<f32, RunError> {
        let (gpu, options) = (self.gpu, self.options);
        let sphere = scenario.water.sphere();
        let radius = sphere.radius();
        let mut water =
            BackendSphere::new(scenario.water.clone(), options.backend.into(), Some(gpu))?;
        let mut renderer = SphereSurfaceRenderer::new(
            &gpu.device,
            &gpu.queue,
            self.target.format(),
            sphere,
            SphereSurfaceStyle::default(),
        )?;
        let camera = Camera::orbit(Vec3::ZERO, 3.4 * radius, 0.6, 0.45, options.aspect());
        let mut progress = Progress::new("render", scenario.steps, options.show_progress);
        let mut step = 0;
        let mut scale = options.height_scale;
        for &frame_step in steps {
            scenario.play(&mut water, step, frame_step, |done| progress.update(done))?;
            step = frame_step;
            let drawn = frame_scale(&mut scale, 2.0 * radius, || Ok(water.heights()?))?;
            if let Some(style) = rescaled(renderer.style(), drawn, |s| &mut s.height_scale) {
                renderer.set_style(style)?;
            }
            let gpu_water = water
                .gpu()
                .expect("render runs sphere water on a GPU backend");
            self.draw(|encoder, target| {
                renderer.encode(
                    encoder,
                    target.frame(Vec3::new(0.01, 0.01, 0.03)),
                    &camera,
                    gpu_water,
                )
            })?;
        }
        progress.finish();
        Ok(scale.unwrap_or(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_evenly_spaced_and_end_at_the_last_step() {
        assert_eq!(frame_steps(100, 4), vec![25, 50, 75, 100]);
        assert_eq!(frame_steps(10, 3), vec![3, 6, 10]);
        assert_eq!(frame_steps(2, 4), vec![0, 1, 1, 2]);
        assert_eq!(frame_steps(0, 2), vec![0, 0]);
    }

    #[test]
    fn bad_options_are_named_with_their_limits() {
        let bad = |o: RenderOptions| o.validate().unwrap_err();
        let e = bad(RenderOptions {
            frames: 0,
            ..RenderOptions::default()
        });
        assert!(e.contains("--frames is 0") && e.contains("1000"), "{e}");
        let e = bad(RenderOptions {
            width: 5000,
            ..RenderOptions::default()
        });
        assert!(e.contains("width is 5000") && e.contains("4096"), "{e}");
        let e = bad(RenderOptions {
            height_scale: Some(f32::NAN),
            ..RenderOptions::default()
        });
        assert!(e.contains("--height-scale"), "{e}");
        let e = bad(RenderOptions {
            height_scale: Some(1e-45),
            ..RenderOptions::default()
        });
        assert!(e.contains("1.17549435e-38"), "{e}");
        let least = RenderOptions {
            height_scale: Some(f32::MIN_POSITIVE),
            ..RenderOptions::default()
        };
        assert_eq!(least.validate(), Ok(()));
    }

    #[test]
    fn the_scale_picked_for_the_user_is_finite_and_subnormal_heights_are_still_water() {
        // A GPU keeps subnormal heights where the CPU flushes them to 0: still water, drawn
        // at scale 1 (a scale made from them was 1e38, or inf on a large grid).
        let mut heights = vec![0.0f32; 100];
        heights.iter_mut().for_each(|h| *h = 6.2e-40);
        assert_eq!(auto_scale(&heights, 3.2), None);
        heights.iter_mut().for_each(|h| *h = 1e-36);
        assert_eq!(auto_scale(&heights, 1e9), None, "past f32 is no scale");
        heights.iter_mut().for_each(|h| *h = 0.01);
        let scale = auto_scale(&heights, 10.0).expect("waves");
        assert!(
            (scale - DRAWN_WAVE_SHARE * 10.0 / 0.01).abs() < 1e-3,
            "{scale}"
        );
        assert_eq!(auto_scale(&[0.0; 10], 10.0), None);
        // Mostly zeros and a few subnormals (the 99th percentile 0): still water too.
        let mut few = vec![0.0f32; 1000];
        few[..5].fill(-6.2e-40);
        assert_eq!(auto_scale(&few, 3.2), None);
    }
}
