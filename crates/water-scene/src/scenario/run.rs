//! [`ScenarioRun`]: a grid scenario played into a scene, its impulses landing before their steps.

use water_core::ocean::AmbientSea;
use water_gpu::GpuContext;

use super::Scenario;
use crate::error::SceneError;
use crate::scene::{Scene, SceneFocus, SceneSettings};
use crate::trajectory::TrajectorySink;
use crate::Backend;

/// Most steps [`ScenarioRun::advance_to`] takes between progress reports.
pub const RUN_CHUNK_STEPS: u64 = 64;

/// A scenario part of the way through: `water run` plays it in one go, `water render` between
/// frames.
///
/// ```
/// use water_scene::{scenario::{Scenario, ScenarioRun}, Backend};
/// let scenario = Scenario::parse("pond", r#"
///     steps = 100
///     [grid]
///     width = 32
///     height = 32
///     cell_size = 0.1
///     wave_speed = 1.0
///     dt = 0.02
///     [[impulse]]
///     x = 16.0
///     y = 16.0
///     radius = 3.0
///     amplitude = 0.1
///     step = 10
/// "#)?;
/// let mut scene = scenario.scene(Backend::Cpu, None)?;
/// let mut run = ScenarioRun::new(&scenario);
/// run.advance_to(&mut scene, scenario.steps, None, |_done| {})?;
/// assert_eq!(scene.steps_taken(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ScenarioRun<'a> {
    scenario: &'a Scenario,
    /// Index of the next impulse to land.
    next: usize,
}

impl<'a> ScenarioRun<'a> {
    /// The scenario at step 0.
    #[must_use]
    pub fn new(scenario: &'a Scenario) -> Self {
        Self { scenario, next: 0 }
    }

    /// Steps `scene` on to step `until` (at most the scenario's steps), each impulse landing just
    /// before its step, in runs of at most [`RUN_CHUNK_STEPS`]; `on_step` is told the steps done
    /// after each run. With a `trajectory` sink, every body's state is recorded after every step
    /// (the runs are then one step long).
    ///
    /// # Errors
    /// What [`Scene::step_many`] and the sink report; [`SceneError::ImpulseMissed`] for an
    /// impulse that lands on no cell of a grid that follows a `[focus]` (it had moved away).
    pub fn advance_to(
        &mut self,
        scene: &mut Scene,
        until: u64,
        mut trajectory: Option<&mut dyn TrajectorySink>,
        mut on_step: impl FnMut(u64),
    ) -> Result<(), SceneError> {
        let impulses = &self.scenario.impulses;
        let until = until.min(self.scenario.steps);
        let mut step = scene.steps_taken();
        while step < until {
            let first = self.next;
            while let Some(timed) = impulses.get(self.next).filter(|t| t.step <= step) {
                scene.add_impulse(timed.impulse);
                self.next += 1;
            }
            // A grid that follows a focus may have moved away from an impulse by its step
            // (where the grid stays, the file's check that each reaches it holds).
            if first < self.next && self.scenario.focus.is_some() {
                // The step they land in alone, to say at once if one missed the grid.
                let missed = scene.impulses_missed();
                scene.step()?;
                if let Some(trajectory) = trajectory.as_deref_mut() {
                    scene.record(trajectory)?;
                }
                if scene.impulses_missed() > missed {
                    return Err(missed_impulse(scene, self.next - first, step));
                }
                step += 1;
                on_step(step);
                continue;
            }
            let run_end = impulses
                .get(self.next)
                .map_or(until, |t| t.step.min(until))
                .min(step + RUN_CHUNK_STEPS);
            if let Some(sink) = trajectory.as_deref_mut() {
                for _ in step..run_end {
                    scene.step()?;
                    scene.record(sink)?;
                }
            } else {
                scene.step_many(run_end - step)?;
            }
            step = run_end;
            on_step(step);
        }
        Ok(())
    }
}

/// Why an impulse timed for `step` (with `landed - 1` others) landed on no cell of `scene` in
/// the step just taken: the first the scene counted as missed.
fn missed_impulse(scene: &Scene, landed: usize, step: u64) -> SceneError {
    let corner = scene.window_origin_cells();
    let size = scene.spec().size;
    let missed = scene.impulses_missed_last()[0];
    SceneError::ImpulseMissed {
        step,
        landed,
        x: missed.centre().x,
        y: missed.centre().y,
        radius: missed.radius(),
        corner_x: corner.x,
        corner_y: corner.y,
        width: size.width(),
        height: size.height(),
    }
}

impl Scenario {
    /// What `backend` refuses of this scenario that can be known without a device: on the
    /// fragment backend, the dispersive model and cascades. A caller asks before it looks for
    /// an adapter, so that a machine without one hears the real reason.
    ///
    /// # Errors
    /// [`SceneError::Gpu`] with what [`water_gpu::FragmentGrid::check_spec`] refuses
    /// ([`water_gpu::GpuError::DispersiveNotOffered`], [`water_gpu::GpuError::Invalid`]);
    /// [`SceneError::Cascades`].
    pub fn check_backend(&self, backend: Backend) -> Result<(), SceneError> {
        if backend == Backend::GpuFragment {
            water_gpu::FragmentGrid::check_spec(&self.spec())?;
        }
        crate::scene::cascades_refused_on(backend, self.cascades).map_or(Ok(()), Err)
    }

    /// The scene at step 0 on `backend` (GPU backends run on `gpu`): the grid with its land and
    /// its bodies at their start, z up. Play the impulses with [`super::ScenarioRun`].
    ///
    /// # Errors
    /// What [`Scene::new`] and [`Scene::add_bodies`] report.
    pub fn scene(&self, backend: Backend, gpu: Option<&GpuContext>) -> Result<Scene, SceneError> {
        let settings = SceneSettings {
            backend,
            contact_amplitude: self.contact_amplitude,
            contact_source: self.contact_source,
            ..SceneSettings::default()
        };
        let mut scene = Scene::new(self.spec(), self.land.clone(), settings, gpu)?;
        if let Some(depth) = &self.depth {
            scene.set_depth(depth)?;
        }
        if let Some(spec) = &self.ocean {
            scene.set_ocean(Some(AmbientSea::new(spec, self.params.cell_size())?));
        }
        let ids = scene
            .add_bodies(self.bodies.iter().cloned())?
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let focus = match &self.focus {
            Some(super::ScenarioFocus::Body(name)) => self
                .bodies
                .iter()
                .position(|b| b.name == *name)
                .map(|i| SceneFocus::Body(ids[i])),
            Some(super::ScenarioFocus::Path(path)) => Some(SceneFocus::Path(path.clone())),
            None => None,
        };
        scene.set_focus(focus)?;
        scene.set_foam(self.foam)?;
        scene.set_cascades(self.cascades)?;
        Ok(scene)
    }
}
