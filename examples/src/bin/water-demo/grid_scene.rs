//! The grid scene: a square pool of water stepped on the GPU, crates floating on it and making
//! waves where they cut it, drawn as a lit displaced mesh inside a stone rim.

use std::time::Instant;

use glam::{Affine3A, Vec2, Vec3};
use water_buoyancy::{FloatingBody, Gravity, Wrench};
use water_core::{
    Boundary, Damping, FixedStepClock, GridMode, GridSize, Impulse, ImpulseShape, WaveParams,
};
use water_gpu::render::{BodyDraw, GridSurfaceRenderer, GridSurfaceStyle, OffscreenTarget};
use water_gpu::{ContactHull, ContactMaskRenderer, GpuBackend, GpuGrid, GridSpec, HullMesh};

use crate::error::DemoError;
use crate::floating_crate::{crate_transform, keep_in_pool, CrateKit, CRATE_COLOUR};
use crate::orbit::Orbit;
use crate::picking::{hit_still_water, Ray};
use crate::pool_rim::{rim_boxes, RIM_COLOUR};
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
/// (lavapipe on two cores takes 60 to 100 ms a step there).
const MAX_STEPS_PER_FRAME: u32 = 8;

/// Most crates in the pool; throwing another takes the oldest away.
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
    grid: GpuGrid,
    renderer: GridSurfaceRenderer,
    contacts: ContactMaskRenderer,
    clock: FixedStepClock,
    cell_size: f32,
}

impl PoolWater {
    fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        quality: Quality,
    ) -> Result<Self, DemoError> {
        let cells = quality.grid_cells();
        let size = GridSize::new(cells, cells)?;
        let cell_size = POOL_SIDE_M / cells as f32;
        let h = f64::from(cell_size);
        let max_dt = water_core::params::max_stable_dt(h, WAVE_SPEED_M_S);
        let params = WaveParams::new(h, WAVE_SPEED_M_S, max_dt * STEP_SHARE_OF_LIMIT, DAMPING)?;
        // The pool's walls reflect waves back in, as the rim drawn around them would.
        let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
        let grid = GpuGrid::new(GpuBackend::Compute, device, queue, spec)?;
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
        let renderer = GridSurfaceRenderer::new(device, queue, format, size, cell_size, style)?;
        let contacts =
            ContactMaskRenderer::new(device, queue, size, cell_size, GpuBackend::Compute)?;
        let clock =
            FixedStepClock::new(params.dt())?.with_max_steps_per_frame(MAX_STEPS_PER_FRAME)?;
        Ok(Self {
            grid,
            renderer,
            contacts,
            clock,
            cell_size,
        })
    }
}

/// The pool, its crates and its camera.
#[derive(Debug)]
pub struct GridScene {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    quality: Quality,
    water: PoolWater,
    kit: CrateKit,
    rim: HullMesh,
    crates: Vec<FloatingBody>,
    /// Whether the contact masks may still hold a crate: stepping goes through them until they
    /// have drawn an empty mask, so a crate that leaves makes its stern wave.
    contacts_live: bool,
    throws: u32,
    /// The camera.
    pub orbit: Orbit,
}

impl GridScene {
    /// Still water at `quality`, drawn into targets of `format`.
    ///
    /// # Errors
    /// GPU failures (limits, pipelines).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        quality: Quality,
    ) -> Result<Self, DemoError> {
        let (rim_vertices, rim_triangles) = rim_boxes(POOL_SIDE_M, RIM_WIDTH_M, -2.0, RIM_HEIGHT_M);
        let centre = Vec3::new(POOL_SIDE_M * 0.5, POOL_SIDE_M * 0.5, 0.0);
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            format,
            quality,
            water: PoolWater::new(device, queue, format, quality)?,
            kit: CrateKit::new(device)?,
            rim: HullMesh::new(device, &rim_vertices, &rim_triangles)?,
            crates: Vec::new(),
            contacts_live: false,
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
        format!("pool {cells} x {cells} cells, {} crates", self.crates.len())
    }

    /// New still water at `quality`; the crates stay where they float.
    ///
    /// # Errors
    /// GPU failures.
    pub fn set_quality(&mut self, quality: Quality) -> Result<(), DemoError> {
        self.water = PoolWater::new(&self.device, &self.queue, self.format, quality)?;
        self.quality = quality;
        // The crates are already in the water: draw them into both masks, so the new water does
        // not see them arrive (which would be a bow wave under every crate at once).
        if !self.crates.is_empty() {
            for _ in 0..2 {
                let hulls = contact_hulls(&self.crates, &self.kit.mesh);
                self.water.contacts.render(&hulls)?;
            }
            self.contacts_live = true;
        }
        Ok(())
    }

    /// Still water, no crates.
    ///
    /// # Errors
    /// GPU failures.
    pub fn reset(&mut self) -> Result<(), DemoError> {
        self.crates.clear();
        self.contacts_live = false;
        self.set_quality(self.quality)
    }

    /// Raises a bump where `ray` meets the water, `strength` times the full click. Returns
    /// whether it met the pool.
    ///
    /// # Errors
    /// A lost device.
    pub fn click(&mut self, ray: &Ray, strength: f32) -> Result<bool, DemoError> {
        let Some(hit) = hit_still_water(ray).filter(|p| in_pool(*p)) else {
            return Ok(false);
        };
        let h = self.water.cell_size;
        // Cell (x, y) is centred at ((x + 0.5) h, (y + 0.5) h); impulses take cell coordinates.
        let centre = Vec2::new(hit.x, hit.y) / h - Vec2::splat(0.5);
        let impulse = Impulse::new(
            centre,
            CLICK_RADIUS_M / h,
            CLICK_AMPLITUDE_M * strength,
            ImpulseShape::Cosine,
        )?;
        self.water.grid.add_impulse(&impulse)?;
        Ok(true)
    }

    /// Throws a crate to land where `ray` meets the water, away from the camera. Returns
    /// whether it met the pool.
    ///
    /// # Errors
    /// Never for a ray that met the pool (the crate's parameters are the demo's own).
    pub fn throw_crate(&mut self, ray: &Ray) -> Result<bool, DemoError> {
        let Some(hit) = hit_still_water(ray).filter(|p| in_pool(*p)) else {
            return Ok(false);
        };
        let yaw = GOLDEN_ANGLE * self.throws as f32;
        let body = self.kit.template.throw(hit, ray.direction, yaw)?;
        self.throws += 1;
        if self.crates.len() >= MAX_CRATES {
            self.crates.remove(0);
        }
        self.crates.push(body);
        self.contacts_live = true;
        Ok(true)
    }

    /// Runs the fixed steps `frame_seconds` of wall time owe, crates moving on the water before
    /// each step and their contact masks making waves.
    ///
    /// # Errors
    /// A lost device, a failed readback.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<StepReport, DemoError> {
        let frame = self.water.clock.advance(frame_seconds)?;
        let start = Instant::now();
        if frame.steps > 0 {
            if self.contacts_live {
                self.step_with_crates(frame.steps)?;
            } else {
                self.water.grid.step_many(u64::from(frame.steps))?;
            }
            // Wait for the GPU, so the time measured is the steps' and not just their recording.
            self.device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| water_gpu::GpuError::DeviceLost(e.to_string()))?;
        }
        Ok(StepReport {
            steps: frame.steps,
            elapsed: start.elapsed(),
            dropped_seconds: frame.dropped_seconds,
        })
    }

    /// `steps` steps, each after moving the crates on the water and drawing their masks. The
    /// crates float on heights read back once per frame: a frame's steps are a few hundredths
    /// of a second, which a crate's bobbing does not notice.
    fn step_with_crates(&mut self, steps: u32) -> Result<(), DemoError> {
        let water = self.water.grid.height_snapshot()?;
        let dt = self.water.clock.dt() as f32;
        for _ in 0..steps {
            self.crates.retain_mut(|body| {
                keep_in_pool(body, POOL_SIDE_M);
                match body.step(&water, &Gravity::EARTH, dt, Wrench::ZERO) {
                    Ok(_) => true,
                    Err(e) => {
                        // Forces stopped being finite: that crate goes, the demo goes on.
                        eprintln!("water-demo: a crate was taken out of the pool: {e}");
                        false
                    }
                }
            });
            let hulls = contact_hulls(&self.crates, &self.kit.mesh);
            self.water.contacts.render(&hulls)?;
            self.water
                .contacts
                .step(&mut self.water.grid, CONTACT_AMPLITUDE)?;
        }
        // An empty mask has now been drawn if the crates are gone: their stern waves are made.
        self.contacts_live = !self.crates.is_empty();
        Ok(())
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
        let camera = self
            .orbit
            .camera(target.width() as f32 / target.height() as f32);
        let mut draws: Vec<BodyDraw<'_>> = self
            .crates
            .iter()
            .map(|body| BodyDraw {
                mesh: &self.kit.mesh,
                transform: crate_transform(body),
                colour: CRATE_COLOUR,
            })
            .collect();
        draws.push(BodyDraw {
            mesh: &self.rim,
            transform: Affine3A::IDENTITY,
            colour: RIM_COLOUR,
        });
        let water = &mut self.water;
        let surface = water.grid.update_surface()?;
        // The water inside a hull is hidden: the mask of the crates' last step says where.
        let hull_mask = (!self.crates.is_empty()).then(|| water.contacts.new_view());
        water.renderer.encode(
            encoder,
            target.colour_view(),
            target.depth_view(),
            SKY,
            &camera,
            surface,
            hull_mask,
            &draws,
        )?;
        Ok(())
    }
}

/// Whether a point on the water lies inside the pool.
fn in_pool(p: Vec3) -> bool {
    (0.0..POOL_SIDE_M).contains(&p.x) && (0.0..POOL_SIDE_M).contains(&p.y)
}

/// The crates as the contact masks draw them: where each is, and its speed across the water.
fn contact_hulls<'a>(crates: &'a [FloatingBody], mesh: &'a HullMesh) -> Vec<ContactHull<'a>> {
    crates
        .iter()
        .map(|body| ContactHull {
            mesh,
            transform: crate_transform(body),
            speed: body.speed_factor(Vec3::Z),
        })
        .collect()
}
