//! The demo without its window: both scenes, the offscreen picture they draw into, and the
//! actions the mouse, the keys and the check mode's script take on them.

use std::rc::Rc;

use glam::Vec2;
use water_gpu::GpuContext;
use water_render::OffscreenTarget;

use crate::error::DemoError;
use crate::grid_scene::GridScene;
use crate::options::SceneKind;
use crate::orbit::Orbit;
use crate::picking::{ray_through_pixel, Ray};
use crate::quality::Quality;
use crate::sphere_scene::SphereScene;
use crate::timing::StepReport;

/// Colour format of the offscreen picture: lit pictures are stored display-encoded, as PNGs
/// and windows expect them.
pub const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Radians the camera turns per arrow key press.
const TURN_STEP_RAD: f32 = 0.08;

/// The scenes (each made when first shown, and kept while the other one shows) and the picture.
#[derive(Debug)]
pub struct Demo {
    /// Shared with the grid scene, which makes new water on it.
    gpu: Rc<GpuContext>,
    target: OffscreenTarget,
    grid: Option<GridScene>,
    sphere: Option<SphereScene>,
    active: SceneKind,
    quality: Quality,
}

impl Demo {
    /// `scene` at `quality`, drawing `width x height` pictures.
    ///
    /// # Errors
    /// GPU failures.
    pub fn new(
        gpu: GpuContext,
        scene: SceneKind,
        quality: Quality,
        width: u32,
        height: u32,
    ) -> Result<Self, DemoError> {
        let target = OffscreenTarget::new(&gpu.device, &gpu.queue, width, height, TARGET_FORMAT)?;
        let mut demo = Self {
            gpu: Rc::new(gpu),
            target,
            grid: None,
            sphere: None,
            active: scene,
            quality,
        };
        demo.show(scene)?;
        Ok(demo)
    }

    /// The picture of the last [`Demo::render`].
    #[must_use]
    pub fn target(&self) -> &OffscreenTarget {
        &self.target
    }

    /// A new picture size (the window's); nothing happens for the size it has.
    ///
    /// # Errors
    /// Sides of 0 or past the device's limit.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), DemoError> {
        if (width, height) != (self.target.width(), self.target.height()) {
            let (device, queue) = (&self.gpu.device, &self.gpu.queue);
            self.target = OffscreenTarget::new(device, queue, width, height, TARGET_FORMAT)?;
        }
        Ok(())
    }

    /// `grid: pool 256 x 256 cells, 2 crates`.
    #[must_use]
    pub fn describe(&self) -> String {
        match (self.active, &self.grid, &self.sphere) {
            (SceneKind::Grid, Some(grid), _) => grid.describe(),
            (SceneKind::Sphere, _, Some(sphere)) => sphere.describe(),
            (kind, _, _) => kind.name().to_owned(),
        }
    }

    /// Makes `kind` the scene shown, building it (or rebuilding it at the current quality).
    fn show(&mut self, kind: SceneKind) -> Result<(), DemoError> {
        let (gpu, quality) = (&self.gpu, self.quality);
        match kind {
            SceneKind::Grid => match &mut self.grid {
                Some(grid) if grid.quality() != quality => grid.set_quality(quality)?,
                Some(_) => {}
                None => {
                    self.grid = Some(GridScene::new(Rc::clone(gpu), TARGET_FORMAT, quality)?);
                }
            },
            SceneKind::Sphere => match &mut self.sphere {
                Some(sphere) if sphere.quality() != quality => sphere.set_quality(quality)?,
                Some(_) => {}
                None => {
                    let (device, queue) = (&gpu.device, &gpu.queue);
                    self.sphere = Some(SphereScene::new(device, queue, TARGET_FORMAT, quality)?);
                }
            },
        }
        self.active = kind;
        Ok(())
    }

    /// Switches to the other scene.
    ///
    /// # Errors
    /// GPU failures building it.
    pub fn switch_scene(&mut self) -> Result<(), DemoError> {
        self.show(self.active.other())
    }

    /// The scene shown.
    #[must_use]
    pub fn active(&self) -> SceneKind {
        self.active
    }

    /// New still water at `quality` (crates stay).
    ///
    /// # Errors
    /// GPU failures.
    pub fn set_quality(&mut self, quality: Quality) -> Result<(), DemoError> {
        self.quality = quality;
        self.show(self.active)
    }

    /// Still water, no crates, in the scene shown.
    ///
    /// # Errors
    /// GPU failures.
    pub fn reset(&mut self) -> Result<(), DemoError> {
        match self.active {
            SceneKind::Grid => self.grid.as_mut().map_or(Ok(()), GridScene::reset),
            SceneKind::Sphere => self.sphere.as_mut().map_or(Ok(()), SphereScene::reset),
        }
    }

    /// The ray under `pixel` (picture pixels from the top-left corner).
    fn ray_at(&self, pixel: Vec2) -> Option<Ray> {
        let viewport = Vec2::new(self.target.width() as f32, self.target.height() as f32);
        let camera = self.orbit()?.camera(viewport.x / viewport.y);
        ray_through_pixel(camera.view_proj, pixel, viewport)
    }

    fn orbit(&self) -> Option<&Orbit> {
        match self.active {
            SceneKind::Grid => self.grid.as_ref().map(|g| &g.orbit),
            SceneKind::Sphere => self.sphere.as_ref().map(|s| &s.orbit),
        }
    }

    fn orbit_mut(&mut self) -> Option<&mut Orbit> {
        match self.active {
            SceneKind::Grid => self.grid.as_mut().map(|g| &mut g.orbit),
            SceneKind::Sphere => self.sphere.as_mut().map(|s| &mut s.orbit),
        }
    }

    /// Waves where the water is under `pixel`, `strength` times a full click (a drag makes
    /// smaller ones). Returns whether the pixel showed water.
    ///
    /// # Errors
    /// A lost device.
    pub fn click(&mut self, pixel: Vec2, strength: f32) -> Result<bool, DemoError> {
        let Some(ray) = self.ray_at(pixel) else {
            return Ok(false);
        };
        match self.active {
            SceneKind::Grid => self
                .grid
                .as_mut()
                .map_or(Ok(false), |g| g.click(&ray, strength)),
            SceneKind::Sphere => self
                .sphere
                .as_mut()
                .map_or(Ok(false), |s| s.click(&ray, strength)),
        }
    }

    /// Throws a crate onto the water under `pixel` (grid scene). Returns whether one was
    /// thrown.
    ///
    /// # Errors
    /// Never for the demo's own crates.
    pub fn throw_crate(&mut self, pixel: Vec2) -> Result<bool, DemoError> {
        let Some(ray) = self.ray_at(pixel) else {
            return Ok(false);
        };
        match (self.active, &mut self.grid) {
            (SceneKind::Grid, Some(grid)) => grid.throw_crate(&ray),
            _ => Ok(false),
        }
    }

    /// Turns the camera by `yaw` and `pitch` arrow-key steps.
    pub fn turn(&mut self, yaw: f32, pitch: f32) {
        if let Some(orbit) = self.orbit_mut() {
            orbit.turn(yaw * TURN_STEP_RAD, pitch * TURN_STEP_RAD);
        }
    }

    /// Moves the camera `factor` times as far away.
    pub fn zoom(&mut self, factor: f32) {
        if let Some(orbit) = self.orbit_mut() {
            orbit.zoom(factor);
        }
    }

    /// Steps the scene shown through `frame_seconds` of simulated time.
    ///
    /// # Errors
    /// A lost device, a failed readback.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<StepReport, DemoError> {
        match (self.active, &mut self.grid, &mut self.sphere) {
            (SceneKind::Grid, Some(grid), _) => grid.advance(frame_seconds),
            (SceneKind::Sphere, _, Some(sphere)) => sphere.advance(frame_seconds),
            _ => Ok(StepReport::default()),
        }
    }

    /// Records the scene shown into the picture.
    ///
    /// # Errors
    /// GPU failures.
    pub fn render(&mut self, encoder: &mut wgpu::CommandEncoder) -> Result<(), DemoError> {
        match (self.active, &mut self.grid, &mut self.sphere) {
            (SceneKind::Grid, Some(grid), _) => grid.render(encoder, &self.target),
            (SceneKind::Sphere, _, Some(sphere)) => sphere.render(encoder, &self.target),
            _ => Ok(()),
        }
    }
}
