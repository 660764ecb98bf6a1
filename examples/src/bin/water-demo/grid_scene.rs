//! The grid scene: a square pool of water stepped on the GPU with crates floating on it and
//! making waves where they cut it (a [`Scene`] with GPU contact masks), drawn as a lit displaced
//! mesh inside a stone rim.

use std::rc::Rc;

use glam::{Affine3A, Vec2, Vec3};
use water_core::{
    Boundary, Damping, FixedStepClock, GridMode, GridSize, Impulse, ImpulseShape, LandMask,
    WaveParams,
};
use water_examples::gpu_scene_settings;
use water_examples::scene_drawing::scene_drawing;
use water_gpu::{GpuContext, GridSpec, HullMesh};
use water_render::{BodyDraw, GridSurfaceRenderer, GridSurfaceStyle, OffscreenTarget};
use water_scene::{BodySpec, Scene, SceneEvent};

use crate::error::DemoError;
use crate::floating_crate::{thrown_crate, CRATE_COLOUR, CRATE_MASS_KG};
use crate::orbit::Orbit;
use crate::picking::{hit_still_water, Ray};
use crate::pool_rim::{rim_boxes, RIM_COLOUR};
use crate::pool_wall::wall_force;
use crate::quality::Quality;
use crate::timing::StepReport;

/// Side of the pool, metres, whatever the quality: finer grids have smaller cells.
pub const POOL_SIDE_M: f32 = 10.0;

/// Wave speed, m/s: a wave crosses the pool in about 7 s.
const WAVE_SPEED_M_S: f64 = 1.5;

/// Share of the largest stable step the grid steps with: a little margin below the limit.
const STEP_SHARE_OF_LIMIT: f64 = 0.9;

/// Damping per second rather than per step: the step shrinks with the cells, and the same
/// waves should fade alike at every quality. 80 % of a wave's amplitude survives a second.
const DAMPING: Damping = Damping::PerSecond(0.8);

/// Radius of the bump a click raises, metres (cells: this over the cell size).
const CLICK_RADIUS_M: f32 = 0.35;

/// Height of the bump a click raises, metres.
const CLICK_AMPLITUDE_M: f32 = 0.1;

/// Bow and stern waves of crates, metres per m/s of their speed across the water.
const CONTACT_AMPLITUDE: f32 = 0.03;

/// Most fixed steps one frame runs. Past it the water runs slower than real time instead of
/// each frame taking longer than the last: 1024 cells a side needs about 240 steps a second,
/// 4 a frame at 60 frames a second, which a GPU runs easily and a software renderer cannot
/// (lavapipe on two cores takes 60 to 100 ms a step there). The sphere scene keeps to it too.
pub const MAX_STEPS_PER_FRAME: u32 = 8;

/// Most crates in the pool, each read, moved and drawn into the masks every step; past it a
/// throw is refused (R empties the pool).
const MAX_CRATES: usize = 24;

/// Width and height above the water of the rim, metres.
const RIM_WIDTH_M: f32 = 0.8;
const RIM_HEIGHT_M: f32 = 0.25;

/// Background behind the pool, linear RGB: a hazy sky.
const SKY: Vec3 = Vec3::new(0.50, 0.62, 0.75);

/// Golden angle, radians: successive crates land turned unlike each other.
const GOLDEN_ANGLE: f32 = 2.399_963;

/// The water and what its resolution decides.
#[derive(Debug)]
struct PoolWater {
    /// The water and the crates on it.
    scene: Scene,
    renderer: GridSurfaceRenderer,
    /// The demo's own clock rather than [`Scene::advance`]'s: it caps the steps of a frame at
    /// [`MAX_STEPS_PER_FRAME`].
    clock: FixedStepClock,
}

impl PoolWater {
    /// Still water at `quality` with `crates` floating on it, as they are.
    fn new(
        gpu: &GpuContext,
        format: wgpu::TextureFormat,
        quality: Quality,
        crates: Vec<BodySpec>,
    ) -> Result<Self, DemoError> {
        let cells = quality.grid_cells();
        let size = GridSize::new(cells, cells)?;
        let cell_size = POOL_SIDE_M / cells as f32;
        let h = f64::from(cell_size);
        let max_dt = water_core::max_stable_dt(h, WAVE_SPEED_M_S);
        let params = WaveParams::new(h, WAVE_SPEED_M_S, max_dt * STEP_SHARE_OF_LIMIT, DAMPING)?;
        // The pool's walls reflect waves back in, as the rim drawn around them would.
        let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
        let settings = gpu_scene_settings(CONTACT_AMPLITUDE);
        let mut scene = Scene::new(spec, LandMask::empty(size), settings, Some(gpu))?;
        // Crates already in the water are drawn into both masks as they are added, so the new
        // water does not see them arrive (which would be a bow wave under every crate at once).
        for spec in crates {
            scene.add_body(spec)?;
        }
        let style = GridSurfaceStyle {
            // One quad per cell up to 512: beyond, the per-pixel normals carry the detail.
            mesh_quads: (cells as u32).min(512),
            // A pool deep enough that the water's own colour shows over the pebbles.
            floor_depth: 1.5,
            floor_tile: 2.5,
            absorption: 1.1,
            water_colour: Vec3::new(0.01, 0.10, 0.16),
            ..GridSurfaceStyle::default()
        };
        let renderer =
            GridSurfaceRenderer::new(&gpu.device, &gpu.queue, format, size, cell_size, style)?;
        let clock =
            FixedStepClock::new(params.dt())?.with_max_steps_per_frame(MAX_STEPS_PER_FRAME)?;
        Ok(Self {
            scene,
            renderer,
            clock,
        })
    }

    /// The crates as they float now, to be added to other water.
    fn crates(&self) -> Result<Vec<BodySpec>, DemoError> {
        self.scene
            .body_ids()
            .map(|id| {
                let name = self.scene.body(id)?.name.to_owned();
                Ok(BodySpec::new(name, self.scene.floating_body(id)?.clone()))
            })
            .collect()
    }

    /// Sets every crate's push from the walls for the next step.
    fn push_from_walls(&mut self) -> Result<(), DemoError> {
        for id in self.scene.body_ids() {
            let crate_ = self.scene.body(id)?;
            let force = wall_force(crate_.position, crate_.velocity, CRATE_MASS_KG, POOL_SIDE_M);
            self.scene.set_force(id, force, Vec3::ZERO)?;
        }
        Ok(())
    }
}

/// The pool, its crates and its camera.
#[derive(Debug)]
pub struct GridScene {
    /// The device the water is made on, again at each new quality.
    gpu: Rc<GpuContext>,
    format: wgpu::TextureFormat,
    quality: Quality,
    water: PoolWater,
    rim: HullMesh,
    throws: u32,
    /// The camera.
    pub orbit: Orbit,
}

impl GridScene {
    /// Still water at `quality` on `gpu`, drawn into targets of `format`.
    ///
    /// # Errors
    /// GPU failures (limits, pipelines).
    pub fn new(
        gpu: Rc<GpuContext>,
        format: wgpu::TextureFormat,
        quality: Quality,
    ) -> Result<Self, DemoError> {
        let (rim_vertices, rim_triangles) = rim_boxes(POOL_SIDE_M, RIM_WIDTH_M, -2.0, RIM_HEIGHT_M);
        let centre = Vec3::new(POOL_SIDE_M * 0.5, POOL_SIDE_M * 0.5, 0.0);
        Ok(Self {
            water: PoolWater::new(&gpu, format, quality, Vec::new())?,
            rim: HullMesh::new(&gpu.device, &rim_vertices, &rim_triangles)?,
            gpu,
            format,
            quality,
            throws: 0,
            orbit: Orbit {
                target: centre,
                distance: 1.85 * POOL_SIDE_M,
                yaw: 0.35,
                pitch: 0.85,
                distance_range: (0.4 * POOL_SIDE_M, 4.0 * POOL_SIDE_M),
            },
        })
    }

    /// The resolution now.
    #[must_use]
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// `pool 256 x 256 cells, 3 crates`.
    #[must_use]
    pub fn describe(&self) -> String {
        let cells = self.quality.grid_cells();
        let crates = self.water.scene.body_count();
        format!("pool {cells} x {cells} cells, {crates} crates")
    }

    /// New still water at `quality`; the crates stay where they float.
    ///
    /// # Errors
    /// GPU failures.
    pub fn set_quality(&mut self, quality: Quality) -> Result<(), DemoError> {
        let crates = self.water.crates()?;
        self.water = PoolWater::new(&self.gpu, self.format, quality, crates)?;
        self.quality = quality;
        Ok(())
    }

    /// Still water, no crates.
    ///
    /// # Errors
    /// GPU failures.
    pub fn reset(&mut self) -> Result<(), DemoError> {
        self.water = PoolWater::new(&self.gpu, self.format, self.quality, Vec::new())?;
        Ok(())
    }

    /// Raises a bump where `ray` meets the water, `strength` times the full click, before the
    /// next step. Returns whether it met the pool.
    ///
    /// # Errors
    /// Never for a ray that met the pool (the bump's size is the demo's own).
    pub fn click(&mut self, ray: &Ray, strength: f32) -> Result<bool, DemoError> {
        let Some(hit) = hit_still_water(ray).filter(|p| in_pool(*p)) else {
            return Ok(false);
        };
        let h = self.water.scene.spec().params.cell_size() as f32;
        // Cell (x, y) is centred at ((x + 0.5) h, (y + 0.5) h); impulses take cell coordinates.
        let centre = Vec2::new(hit.x, hit.y) / h - Vec2::splat(0.5);
        let impulse = Impulse::new(
            centre,
            CLICK_RADIUS_M / h,
            CLICK_AMPLITUDE_M * strength,
            ImpulseShape::Cosine,
        )?;
        self.water.scene.add_impulse(impulse);
        Ok(true)
    }

    /// Throws a crate to land where `ray` meets the water, away from the camera. Returns
    /// whether one was thrown: not when the ray misses the pool, nor when it holds
    /// [`MAX_CRATES`] already.
    ///
    /// # Errors
    /// GPU failures uploading its hull; never for its parameters (the demo's own).
    pub fn throw_crate(&mut self, ray: &Ray) -> Result<bool, DemoError> {
        let Some(hit) = hit_still_water(ray).filter(|p| in_pool(*p)) else {
            return Ok(false);
        };
        if self.water.scene.body_count() >= MAX_CRATES {
            println!("water-demo: the pool holds {MAX_CRATES} crates at most; R empties it");
            return Ok(false);
        }
        let yaw = GOLDEN_ANGLE * self.throws as f32;
        let body = thrown_crate(hit, ray.direction, yaw)?;
        self.throws += 1;
        let name = format!("crate {}", self.throws);
        self.water.scene.add_body(BodySpec::new(name, body))?;
        Ok(true)
    }

    /// Runs the fixed steps `frame_seconds` of wall time owe: before each, the walls push the
    /// crates that reach them (the push follows the crate step by step, as a wall's would).
    ///
    /// # Errors
    /// A lost device, a failed readback, a crate whose forces stopped being finite.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<StepReport, DemoError> {
        let frame = self.water.clock.advance(frame_seconds)?;
        let water = &mut self.water;
        StepReport::time(frame, &self.gpu.device, |steps| {
            if water.scene.body_count() == 0 {
                // One submission for the frame's steps.
                water.scene.step_many(u64::from(steps))?;
            } else {
                for _ in 0..steps {
                    water.push_from_walls()?;
                    water.scene.step()?;
                }
            }
            let events: Vec<SceneEvent> = water.scene.drain_events().collect();
            for event in events {
                // The walls keep crates in: one past the rim is a wall too soft for the step.
                if let SceneEvent::LeftWater { body, step } = event {
                    let name = water.scene.body(body)?.name;
                    eprintln!("water-demo: {name} reached the water's edge at step {step}");
                }
            }
            Ok(())
        })
    }

    /// Records this frame's picture into `target` (cleared first), seen through the orbit
    /// camera.
    ///
    /// # Errors
    /// GPU failures.
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &OffscreenTarget,
    ) -> Result<(), DemoError> {
        let camera = self.orbit.camera_for(target);
        let PoolWater {
            scene, renderer, ..
        } = &mut self.water;
        // The water inside a hull is hidden: the mask of the crates' last step says where.
        let mut drawing = scene_drawing(scene, |_| CRATE_COLOUR)?;
        drawing.bodies.push(BodyDraw {
            mesh: &self.rim,
            transform: Affine3A::IDENTITY,
            colour: RIM_COLOUR,
        });
        renderer.encode(
            encoder,
            target.frame(SKY),
            &camera,
            &drawing.surface,
            drawing.hull_mask,
            &drawing.bodies,
        )?;
        Ok(())
    }
}

/// Whether a point on the water lies inside the pool.
fn in_pool(p: Vec3) -> bool {
    (0.0..POOL_SIDE_M).contains(&p.x) && (0.0..POOL_SIDE_M).contains(&p.y)
}

#[cfg(test)]
mod tests {
    use water_testkit::gpu_or_skip;

    use super::*;
    use crate::demo::TARGET_FORMAT;

    /// Straight down onto the pool at `(x, y)`.
    fn ray_down(x: f32, y: f32) -> Ray {
        Ray {
            origin: Vec3::new(x, y, 5.0),
            direction: Vec3::NEG_Z,
        }
    }

    #[test]
    fn crates_float_on_where_they_were_when_the_quality_changes() {
        let Some(gpu) = gpu_or_skip("crates_float_on_where_they_were_when_the_quality_changes")
        else {
            return;
        };
        let mut pool = GridScene::new(Rc::new(gpu), TARGET_FORMAT, Quality::Low).expect("pool");
        assert!(pool.throw_crate(&ray_down(3.0, 6.0)).expect("throw"));
        assert!(
            !pool.throw_crate(&ray_down(-1.0, 6.0)).expect("throw"),
            "outside the pool"
        );
        for _ in 0..30 {
            pool.advance(1.0 / 30.0).expect("advance");
        }
        let id = pool.water.scene.body_ids().next().expect("a crate");
        let before = pool.water.scene.body(id).expect("crate").position;
        assert!(before.z.abs() < 0.3, "afloat: {before}");
        pool.set_quality(Quality::Medium).expect("quality");
        let after = pool.water.scene.body(id).expect("crate").position;
        assert_eq!(pool.water.scene.body_count(), 1);
        assert_eq!(before, after);
        assert!(pool.describe().ends_with("1 crates"), "{}", pool.describe());
    }

    #[test]
    fn a_full_pool_refuses_another_crate_until_reset() {
        let Some(gpu) = gpu_or_skip("a_full_pool_refuses_another_crate_until_reset") else {
            return;
        };
        let mut pool = GridScene::new(Rc::new(gpu), TARGET_FORMAT, Quality::Low).expect("pool");
        for k in 0..MAX_CRATES {
            let at = ray_down(1.0 + 0.3 * k as f32, 5.0);
            assert!(pool.throw_crate(&at).expect("throw"), "crate {k}");
        }
        assert!(!pool.throw_crate(&ray_down(5.0, 5.0)).expect("throw"));
        assert_eq!(pool.water.scene.body_count(), MAX_CRATES);
        pool.reset().expect("reset");
        assert_eq!(pool.water.scene.body_count(), 0);
        assert!(pool.throw_crate(&ray_down(5.0, 5.0)).expect("throw"));
    }
}
