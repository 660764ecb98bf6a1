//! The patches of water the bodies read ([`crate::BodyWater`]): gathered after each step (on
//! the device for a GPU backend, read back without waiting), kept for as many steps as the lag,
//! and handed to the next steps' bodies. One design for every backend: the CPU gathers the same
//! patches from its own grid when the bodies read older water.

use std::collections::VecDeque;

use glam::Vec2;
use water_core::{CellRect, HeightPatches};
use water_gpu::{wgpu, PatchReader, PendingPatches};

use super::Scene;
use crate::body::BodyId;
use crate::error::SceneError;
use crate::water::WaterGrid;

/// Patches gathered after past steps, oldest first.
#[derive(Debug, Default)]
pub(super) struct BodyPatches {
    /// The device and queue of a GPU backend.
    gpu: Option<(wgpu::Device, wgpu::Queue)>,
    /// The gather pipeline, made on first use.
    reader: Option<PatchReader>,
    queue: VecDeque<Gathered>,
}

/// One gathering: the bodies' patches after some step, in the bodies' order.
#[derive(Debug)]
struct Gathered {
    ids: Vec<BodyId>,
    /// Where the grid's corner was in the world when they were gathered (metres): the grid
    /// may have moved since ([`Scene::set_focus`]), its cells not.
    origin: Vec2,
    water: GatheredWater,
}

#[derive(Debug)]
pub(super) enum GatheredWater {
    Ready(HeightPatches),
    Pending(PendingPatches),
}

/// The patches the bodies read at a step, and whether they came off the queue.
pub(super) struct StepPatches {
    pub(super) patches: HeightPatches,
    /// Where the grid's corner was in the world when they were gathered, metres.
    pub(super) origin: Vec2,
    consumed: bool,
}

impl BodyPatches {
    /// No gatherings yet; `gpu` for a GPU backend.
    pub(super) fn new(gpu: Option<&water_gpu::GpuContext>) -> Self {
        Self {
            gpu: gpu.map(|g| (g.device.clone(), g.queue.clone())),
            reader: None,
            queue: VecDeque::new(),
        }
    }

    /// The device and queue of a GPU backend.
    pub(super) fn gpu(&self) -> Option<(&wgpu::Device, &wgpu::Queue)> {
        self.gpu.as_ref().map(|(d, q)| (d, q))
    }

    /// Forgets every gathering (the water changed behind them, or the bodies did).
    pub(super) fn clear(&mut self) {
        self.queue.clear();
    }
}

impl Scene {
    /// Whether the bodies read patches rather than the grid itself: always on a GPU backend,
    /// and on the CPU when they read older water.
    fn bodies_read_patches(&self) -> bool {
        if self.cascades.is_some() && self.settings.body_water.lag() == 0 {
            // Bodies read every cascade, each read back on a GPU ([`Scene::set_cascades`]);
            // one step late they read the grid's patches alone, on every backend.
            return false;
        }
        self.water.gpu().is_some() || self.settings.body_water.lag() > 0
    }

    /// Each body's rectangle of cells now: the cells its step may read
    /// ([`water_buoyancy::FloatingBody::reach`]), with room for its motion over the steps until
    /// the patch is read (twice its speed over `lag + 1` steps) and one cell more.
    fn body_rects(&self) -> Vec<CellRect> {
        let cell = self.cell_size();
        let dt = self.spec.params.dt() as f32;
        let steps = (self.settings.body_water.lag() + 1) as f32;
        let origin = self.grid_origin();
        self.bodies
            .as_slice()
            .iter()
            .map(|b| {
                let s = &b.body.body.state;
                let travel = 2.0 * s.linear_velocity.length() * dt * steps;
                let radius = b.body.reach() + travel + cell;
                let position = s.pose.position.truncate() - origin;
                CellRect::around(self.spec.size, cell, position, radius)
            })
            .collect()
    }

    /// After a step: gathers the bodies' patches of the water it left, for the steps to come.
    /// On a GPU backend this records and submits the gather and waits for nothing.
    pub(super) fn gather_body_patches(&mut self) -> Result<(), SceneError> {
        if !self.bodies_read_patches() || self.bodies.is_empty() {
            self.patches.clear();
            return Ok(());
        }
        let ids: Vec<BodyId> = self.bodies.as_slice().iter().map(|b| b.id).collect();
        let rects = self.body_rects();
        let water = self.gather_now(rects, false)?;
        let origin = self.grid_origin();
        self.patches
            .queue
            .push_back(Gathered { ids, origin, water });
        let keep = self.settings.body_water.lag() + 1;
        while self.patches.queue.len() > keep {
            self.patches.queue.pop_front();
        }
        Ok(())
    }

    /// The patches of `rects` of the water as it is now: copied on the CPU, gathered on the
    /// device (waited for only if `wait`).
    pub(super) fn gather_now(
        &mut self,
        rects: Vec<CellRect>,
        wait: bool,
    ) -> Result<GatheredWater, SceneError> {
        let step = self.step;
        let cell_size = self.cell_size();
        if let (Some(grid), Some((device, queue))) = (self.water.gpu_mut(), &self.patches.gpu) {
            if self.patches.reader.is_none() {
                self.patches.reader = Some(PatchReader::new(device)?);
            }
            let Some(reader) = &self.patches.reader else {
                unreachable!("made above")
            };
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("water body patches"),
            });
            let pending = reader.encode_read(grid.water_mut(), &mut encoder, rects)?;
            queue.submit([encoder.finish()]);
            return Ok(if wait {
                GatheredWater::Ready(pending.wait()?)
            } else {
                GatheredWater::Pending(pending)
            });
        }
        let view = self.water.heights_view(cell_size, &mut self.heights)?;
        let patches = HeightPatches::gather(&view, rects, step)?;
        Ok(GatheredWater::Ready(patches))
    }

    /// The patches this step's bodies read, or `None` where they read the grid itself (the CPU
    /// at no lag). `consume`: a step takes the oldest gathering off the queue once the queue
    /// holds the lag's worth; a measurement between steps only looks. `impulses_landed`: the
    /// water the step starts from changed since the last gathering.
    pub(super) fn patches_for_bodies(
        &mut self,
        consume: bool,
        impulses_landed: bool,
    ) -> Result<Option<StepPatches>, SceneError> {
        if !self.bodies_read_patches() {
            return Ok(None);
        }
        let lag = self.settings.body_water.lag();
        if impulses_landed && lag == 0 {
            self.patches.clear();
        }
        let ids: Vec<BodyId> = self.bodies.as_slice().iter().map(|b| b.id).collect();
        if self.patches.queue.iter().any(|g| g.ids != ids) {
            self.patches.clear();
        }
        let consumed = consume && self.patches.queue.len() > lag;
        let oldest = match self.patches.queue.pop_front() {
            Some(g) => Some((self.arrived(g.water)?, g.origin)),
            None => None,
        };
        // Every body must still lie inside its patch (a body its engine moved far, or one
        // that outran its margin, reads the water it starts from instead).
        let fits = |p: &HeightPatches, origin: Vec2| {
            p.rects()
                .iter()
                .zip(&self.body_rects_tight(origin))
                .all(|(have, need)| have.holds(need))
        };
        match oldest {
            Some((patches, origin)) if fits(&patches, origin) => Ok(Some(StepPatches {
                patches,
                origin,
                consumed,
            })),
            _ => {
                self.patches.clear();
                let water = self.gather_now(self.body_rects(), true)?;
                let GatheredWater::Ready(patches) = water else {
                    unreachable!("gathered with a wait")
                };
                // Kept for the next step when it reads older water: the step after a
                // regathering is one step late again.
                Ok(Some(StepPatches {
                    patches,
                    origin: self.grid_origin(),
                    consumed: consume && lag == 0,
                }))
            }
        }
    }

    /// Hands back patches a step or a measurement did not consume, as the oldest gathering.
    pub(super) fn return_patches(&mut self, used: StepPatches) {
        if !used.consumed {
            let ids = self.bodies.as_slice().iter().map(|b| b.id).collect();
            self.patches.queue.push_front(Gathered {
                ids,
                origin: used.origin,
                water: GatheredWater::Ready(used.patches),
            });
        }
    }

    /// The rectangles each body's step reads now, without margins, in the cells of a grid
    /// whose corner is at `origin` (world metres).
    fn body_rects_tight(&self, origin: Vec2) -> Vec<CellRect> {
        let cell = self.cell_size();
        self.bodies
            .as_slice()
            .iter()
            .map(|b| {
                let position = b.body.body.state.pose.position.truncate() - origin;
                CellRect::around(self.spec.size, cell, position, b.body.reach())
            })
            .collect()
    }

    /// Makes `water` ready if its patches have arrived (after one non-blocking poll of the
    /// device); whether they are.
    pub(super) fn poll_arrived(&self, water: &mut GatheredWater) -> Result<bool, SceneError> {
        if let GatheredWater::Pending(pending) = water {
            if let Some((device, _)) = &self.patches.gpu {
                let _ = device.poll(wgpu::PollType::Poll);
            }
            match pending.try_take() {
                Some(taken) => *water = GatheredWater::Ready(taken?),
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The patches of a gathering, once on the host: taken if they have arrived (after one
    /// non-blocking poll), waited for otherwise (a counted wait).
    fn arrived(&self, water: GatheredWater) -> Result<HeightPatches, SceneError> {
        match water {
            GatheredWater::Ready(p) => Ok(p),
            GatheredWater::Pending(pending) => {
                if let Some((device, _)) = &self.patches.gpu {
                    let _ = device.poll(wgpu::PollType::Poll);
                }
                match pending.try_take() {
                    Some(taken) => Ok(taken?),
                    None => Ok(pending.wait()?),
                }
            }
        }
    }
}
