//! The bodies' contact masks: drawn each step (on the CPU, or on the GPU from the hulls'
//! meshes), fed to the water step as bow and stern events or pressure, and read back.

use glam::Vec3;
use water_buoyancy::FloatingBody;
use water_core::ContactMasks;
use water_gpu::{wgpu, ContactHull, ContactMaskRenderer, HullMesh};

use crate::water::Water;

use super::Scene;
use crate::error::SceneError;

/// The contact masks and where they are drawn.
#[derive(Debug)]
pub(super) enum Masks {
    Cpu {
        contacts: ContactMasks,
        /// The mask being drawn, reused every step.
        scratch: Vec<f32>,
    },
    Gpu {
        renderer: Box<ContactMaskRenderer>,
        /// Each body's hull meshes, in the bodies' order.
        meshes: Vec<Vec<HullMesh>>,
        /// The device the meshes are uploaded to.
        device: wgpu::Device,
    },
}

impl Scene {
    /// Puts every body, a just-added one too, into both `C_new` and `C_old`, so that the next
    /// step raises no entry event for it. A body removed since the last step stays in both on
    /// the CPU (its cut is the current `C_new`'s), so that the next step, which draws the masks
    /// without it, still sees it leave; masks drawn on the GPU lose that stern event.
    pub(super) fn settle_masks(&mut self) -> Result<(), SceneError> {
        if matches!(self.masks, Masks::Gpu { .. }) {
            self.redraw_masks()?;
            return self.redraw_masks();
        }
        let removed = match &self.masks {
            Masks::Cpu { contacts, .. } if self.masks_hold_removed => {
                Some(contacts.new_mask().to_vec())
            }
            _ => None,
        };
        // Drawn once and advanced twice: the bodies are where they were for both time levels.
        self.draw_cpu_masks()?;
        if let Masks::Cpu { contacts, scratch } = &mut self.masks {
            for (m, r) in scratch.iter_mut().zip(removed.iter().flatten()) {
                *m = m.max(*r);
            }
            contacts.advance(scratch)?;
            contacts.advance(scratch)?;
        }
        Ok(())
    }

    /// Draws every body's hulls into the CPU masks' scratch mask (nothing with GPU masks).
    fn draw_cpu_masks(&mut self) -> Result<(), SceneError> {
        let size = self.spec.size;
        let cell_size = self.cell_size();
        let origin = self.grid_origin();
        if let Masks::Cpu { contacts, scratch } = &mut self.masks {
            scratch.fill(0.0);
            let source = contacts.source();
            for b in self.bodies.as_slice() {
                b.body
                    .rasterise_grid_mask_at(origin, size, cell_size, source, scratch)
                    .map_err(|source| SceneError::body(&b.name, self.step, source))?;
            }
        }
        Ok(())
    }

    /// Draws every body's hulls into a new `C_new` (the last one becoming `C_old`).
    pub(super) fn redraw_masks(&mut self) -> Result<(), SceneError> {
        self.draw_cpu_masks()?;
        match &mut self.masks {
            Masks::Cpu { contacts, scratch } => contacts.advance(scratch)?,
            Masks::Gpu {
                renderer, meshes, ..
            } => {
                let hulls: Vec<ContactHull<'_>> = self
                    .bodies
                    .as_slice()
                    .iter()
                    .zip(meshes.iter())
                    .flat_map(|(b, meshes)| {
                        let speed = b.body.speed_factor(Vec3::Z);
                        let body_pose = b.body.body.state.pose;
                        b.body.hulls.iter().zip(meshes).map(move |(hull, mesh)| {
                            let pose = hull.world_pose(&body_pose);
                            ContactHull {
                                mesh,
                                transform: glam::Affine3A::from_rotation_translation(
                                    pose.orientation,
                                    pose.position,
                                ),
                                speed,
                            }
                        })
                    })
                    .collect();
                renderer.render(&hulls)?;
            }
        }
        Ok(())
    }

    pub(super) fn step_water_with_contacts(&mut self) -> Result<(), SceneError> {
        match &self.masks {
            Masks::Cpu { contacts, .. } => self.water.step_with_contacts(contacts),
            Masks::Gpu { renderer, .. } => {
                let grid = self
                    .water
                    .gpu_mut()
                    .expect("GPU masks are only made for GPU backends");
                renderer.step(grid, self.settings.contact_amplitude)?;
                Ok(())
            }
        }
    }

    /// The contact masks `(C_new, C_old)` of the last redraw (GPU masks are read back).
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn contact_masks(&self) -> Result<(Vec<f32>, Vec<f32>), SceneError> {
        Ok(match &self.masks {
            Masks::Cpu { contacts, .. } => {
                (contacts.new_mask().to_vec(), contacts.old_mask().to_vec())
            }
            Masks::Gpu { renderer, .. } => (renderer.read_new_mask()?, renderer.read_old_mask()?),
        })
    }

    /// The GPU contact mask renderer, with [`crate::MaskSource::Gpu`] (its `new_view` hides the waves
    /// inside hulls when the surface is drawn).
    #[must_use]
    pub fn gpu_masks(&self) -> Option<&ContactMaskRenderer> {
        match &self.masks {
            Masks::Gpu { renderer, .. } => Some(renderer),
            Masks::Cpu { .. } => None,
        }
    }

    /// Every body's pose in the water's frame with its hull meshes on the GPU (with
    /// [`crate::MaskSource::Gpu`]), for drawing them.
    pub fn gpu_hull_meshes(&self) -> impl Iterator<Item = (&FloatingBody, &[HullMesh])> {
        let meshes: &[Vec<HullMesh>] = match &self.masks {
            Masks::Gpu { meshes, .. } => meshes,
            Masks::Cpu { .. } => &[],
        };
        self.bodies
            .as_slice()
            .iter()
            .zip(meshes)
            .map(|(b, m)| (&b.body, m.as_slice()))
    }
}
