//! [`BackendSphere`]: sphere water on any backend behind one type, as the scenes step it.

use water_buoyancy::SphereContacts;
use water_core::{HeightSource, WaterError};
use water_gpu::GpuSphereWater;
use water_gpu::{GpuContext, GpuSphere};
use water_sphere::{SphereImpulse, SphereWater};

use super::Water;
use crate::backend::Backend;
use crate::error::SceneError;

/// Sphere water on the CPU ([`SphereWater`]) or on a GPU backend ([`GpuSphere`]).
#[derive(Debug)]
pub enum BackendSphere {
    /// On the CPU.
    Cpu(Box<SphereWater>),
    /// On a GPU backend, with a CPU copy of the mesh whose heights are refreshed from the GPU
    /// when a [`HeightSource`] is asked for.
    Gpu {
        /// The GPU water.
        water: Box<GpuSphere>,
        /// The mesh and its last heights read back.
        host: Box<SphereWater>,
    },
}

impl BackendSphere {
    /// `water` (its mesh, stepper and current state) on `backend`; GPU backends run on `gpu`.
    ///
    /// # Errors
    /// [`SceneError::NoGpu`] for a GPU backend without a context; what the GPU backend refuses.
    pub fn new(
        water: SphereWater,
        backend: Backend,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        Ok(match backend.gpu() {
            None => Self::Cpu(Box::new(water)),
            Some(kind) => {
                let gpu = gpu.ok_or(SceneError::NoGpu { backend })?;
                Self::Gpu {
                    water: Box::new(GpuSphere::new(kind, &gpu.device, &gpu.queue, &water)?),
                    host: Box::new(water),
                }
            }
        })
    }

    /// The mesh, stepper and (on the CPU) the current state.
    #[must_use]
    pub fn host(&self) -> &SphereWater {
        match self {
            Self::Cpu(w) => w,
            Self::Gpu { host, .. } => host,
        }
    }

    /// The GPU water, on a GPU backend (for the renderers).
    #[must_use]
    pub fn gpu(&self) -> Option<&GpuSphere> {
        match self {
            Self::Cpu(_) => None,
            Self::Gpu { water, .. } => Some(water),
        }
    }

    /// Calls `f` with the current water as a [`HeightSource`] (heights along the radius, a
    /// readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    pub fn with_heights<R>(
        &mut self,
        f: impl FnOnce(&(dyn HeightSource + Sync)) -> R,
    ) -> Result<R, SceneError> {
        match self {
            Self::Cpu(w) => Ok(f(w.as_ref())),
            Self::Gpu { water, host } => {
                let heights = water.heights()?;
                host.heights_mut().copy_from_slice(&heights);
                Ok(f(host.as_ref()))
            }
        }
    }
}

/// The trait's documentation holds for each method; [`Water::step_with_contacts`] here works
/// out a GPU backend's events on the host (below).
impl Water for BackendSphere {
    type Impulse = SphereImpulse;
    type Contacts = SphereContacts;

    /// The backend it runs on.
    fn backend(&self) -> Backend {
        match self {
            Self::Cpu(_) => Backend::Cpu,
            Self::Gpu { water, .. } => water.backend().into(),
        }
    }

    /// A click (a submission on the GPU).
    ///
    /// # Errors
    /// A lost GPU device.
    fn add_impulse(&mut self, click: &SphereImpulse) -> Result<(), SceneError> {
        match self {
            Self::Cpu(w) => w.add_impulse(click),
            Self::Gpu { water, .. } => water.add_impulse(click)?,
        }
        Ok(())
    }

    /// `steps` steps (one submission on the GPU).
    ///
    /// # Errors
    /// A lost GPU device.
    fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        match self {
            Self::Cpu(w) => w.step_many(steps),
            Self::Gpu { water, .. } => water.step_many(steps)?,
        }
        Ok(())
    }

    /// One step with the bow and stern events of `contacts` on its new heights, as
    /// [`SphereContacts::step`] does on the CPU; on a GPU backend the events are worked out on
    /// the host ([`water_core::apply_signed_events`] on zeros, the same f32 products) and added
    /// to the new heights on the device ([`GpuSphereWater::add_heights`]). As the CPU's step
    /// edits the heights ([`SphereWater::heights_mut`]), undamped water's mean-level keeper
    /// anchors anew before every step with contacts on either backend (on the GPU: both levels
    /// read back, a wait).
    ///
    /// # Errors
    /// [`SceneError::VertexCount`] for masks of another length than the vertex count;
    /// [`WaterError::OutOfRange`] for an event past f32's range (a body's speed times the
    /// amplitude), before anything steps; a lost GPU device.
    fn step_with_contacts(&mut self, contacts: &SphereContacts) -> Result<(), SceneError> {
        let vertices = self.host().heights().len();
        let mismatch = |actual| SceneError::VertexCount {
            what: "contact masks",
            expected: vertices,
            actual,
        };
        if contacts.new_mask().len() != vertices {
            return Err(mismatch(contacts.new_mask().len()));
        }
        let amplitude = contacts.amplitude();
        let masks = contacts.new_mask().iter().chain(contacts.old_mask());
        if let Some(&m) = masks.into_iter().find(|&&m| !(amplitude * m).is_finite()) {
            return Err(WaterError::OutOfRange {
                name: "bow or stern wave height (amplitude times speed)",
                value: f64::from(amplitude) * f64::from(m),
                range: "finite in f32, m",
            }
            .into());
        }
        match self {
            // The length was checked above, the only thing the step refuses.
            Self::Cpu(w) => contacts
                .step(w)
                .map_err(|_| mismatch(contacts.new_mask().len()))?,
            Self::Gpu { water, .. } => {
                water.step_many(1)?;
                let mut events = vec![0.0; vertices];
                water_core::apply_signed_events(
                    amplitude,
                    contacts.new_mask(),
                    contacts.old_mask(),
                    &mut events,
                );
                // Also where no event fired: the keeper forgets its reference as on the CPU.
                water.add_heights(&events)?;
            }
        }
        Ok(())
    }

    /// Current heights per vertex, m (a readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    fn heights(&self) -> Result<Vec<f32>, SceneError> {
        Ok(match self {
            Self::Cpu(w) => w.heights().to_vec(),
            Self::Gpu { water, .. } => water.heights()?,
        })
    }
}
