//! Foam on a scene's grid ([`Scene::set_foam`]): each step, hulls' bow and stern events and
//! (with a choppy ambient sea) breaking crests raise a [`FoamField`], which decays by its
//! half-life and moves with the grid when it follows a focus.

use glam::Vec2;
use water_core::FoamField;

use super::{Masks, Scene};
use crate::error::SceneError;
use crate::scene_ocean::cell_centres;

/// How a scene makes foam.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoamSettings {
    /// Time for the coverage to halve, s (> 0).
    pub half_life: f64,
    /// Coverage a bow or stern event adds to its cell, in `[0, 1]`.
    pub wake: f32,
    /// Cells where the ambient sea's Jacobian `det(I + grad D)` is below this turn white
    /// (`None`: no breaking foam); in `[-1, 1]` (1 on a flat sea, below 0 where it folds).
    pub jacobian_threshold: Option<f32>,
}

/// The foam and the scratch its breaking source samples the sea with.
#[derive(Debug)]
pub(super) struct SceneFoam {
    pub(super) field: FoamField,
    settings: FoamSettings,
    /// The grid's cell centres (world, m) where the grid's corner was `centres_origin`.
    centres: Vec<Vec2>,
    centres_origin: Option<Vec2>,
    /// The sea's Jacobian at each centre, reused every step.
    jacobians: Vec<f32>,
}

impl Scene {
    /// Puts foam on the grid (`None`: no foam). From the next step on, every step's bow and
    /// stern events add [`FoamSettings::wake`] to their cells and, with an ambient sea
    /// ([`Scene::set_ocean`]), cells where the sea's Jacobian falls below the threshold turn
    /// white; the coverage decays by the half-life and moves with the grid. The steps then run
    /// one at a time.
    ///
    /// # Errors
    /// A `half_life` that is not a finite number above 0, a `wake` outside `[0, 1]`, a
    /// threshold outside `[-1, 1]`, each by name; [`SceneError::FoamWithGpuMasks`] with masks
    /// drawn on the GPU.
    pub fn set_foam(&mut self, settings: Option<FoamSettings>) -> Result<(), SceneError> {
        let Some(settings) = settings else {
            self.foam = None;
            return Ok(());
        };
        if matches!(self.masks, Masks::Gpu { .. }) {
            return Err(SceneError::FoamWithGpuMasks);
        }
        let field = FoamField::new(self.spec.size, settings.half_life)?;
        let check = |name, value: f32, range: &'static str, ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(water_core::WaterError::OutOfRange {
                    name,
                    value: f64::from(value),
                    range,
                })
            }
        };
        check(
            "foam wake",
            settings.wake,
            "[0, 1]",
            (0.0..=1.0).contains(&settings.wake),
        )?;
        if let Some(t) = settings.jacobian_threshold {
            check(
                "foam jacobian_threshold",
                t,
                "[-1, 1]",
                (-1.0..=1.0).contains(&t),
            )?;
        }
        self.foam = Some(SceneFoam {
            field,
            settings,
            centres: Vec::new(),
            centres_origin: None,
            jacobians: Vec::new(),
        });
        Ok(())
    }

    /// The foam's coverage now (after [`Scene::steps_taken`] steps), per cell of the grid where
    /// it is now, row-major; `None` without foam.
    #[must_use]
    pub fn foam_coverage(&self) -> Option<Vec<f32>> {
        self.foam.as_ref().map(|f| f.field.coverage(self.time()))
    }

    /// After a step: the step's sources raise the foam at the step's end.
    pub(super) fn raise_foam(&mut self) -> Result<(), SceneError> {
        let t = self.time();
        let (step, dt) = (self.step, self.spec.params.dt());
        let cell = self.cell_size();
        let origin = self.grid_origin();
        let size = self.spec.size;
        let Some(foam) = self.foam.as_mut() else {
            return Ok(());
        };
        if let Masks::Cpu { contacts, .. } = &self.masks {
            if foam.settings.wake > 0.0 {
                foam.field.add_wake(contacts, foam.settings.wake, t)?;
            }
        }
        let (Some(threshold), Some(ocean)) = (foam.settings.jacobian_threshold, &mut self.ocean)
        else {
            return Ok(());
        };
        let frame = ocean.frame_at(step, dt);
        // The cells' centres, made again only where the grid has moved.
        if foam.centres_origin != Some(origin) || foam.centres.len() != size.cells() {
            foam.centres = cell_centres(size, cell, origin);
            foam.centres_origin = Some(origin);
        }
        foam.jacobians.resize(size.cells(), 1.0);
        frame.jacobians_into(&foam.centres, &mut foam.jacobians);
        let jacobians = &foam.jacobians;
        foam.field.add_breaking(jacobians, threshold, t)?;
        Ok(())
    }
}
