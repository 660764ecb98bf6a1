//! Surface queries that never read the whole field back: a batch of points in, the surface at
//! each a frame later on a GPU backend (at once on the CPU), from patches of five by five cells
//! around each point gathered on the device.

use glam::{Vec2, Vec3};
use water_core::ocean::SeaWithWater;
use water_core::{CellRect, HeightSource, PlacedWater, SurfaceSample};

use super::body_patches::GatheredWater;
use super::Scene;
use crate::error::SceneError;

/// Surface queries on their way ([`Scene::query_surfaces`]): answered by
/// [`Scene::surfaces`] once the water's patches are on the host.
#[derive(Debug)]
pub struct SurfaceQuery {
    /// The points, in the water's frame.
    points: Vec<Vec3>,
    /// Steps the water had taken when asked.
    step: u64,
    /// Where the grid's corner was in the world when asked, metres.
    origin: Vec2,
    water: GatheredWater,
    /// With cascades, the answers made when asked, from every cascade (each read back on a
    /// GPU backend).
    answered: Option<Vec<Option<SurfaceSample>>>,
}

impl SurfaceQuery {
    /// The water the answers describe: the grid's water after this many steps (the scene's
    /// [`Scene::steps_taken`] when it was asked), the ambient sea at the same step.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Number of points asked about.
    #[must_use]
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether it asks about no point.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

impl Scene {
    /// Asks for the surface on the verticals through `points` (the caller's frame) on the
    /// water as it is now, after [`Scene::steps_taken`] steps (impulses queued and not yet
    /// landed are not in it). On the CPU the answer is ready at once; on a GPU backend the
    /// patches around the points (5 x 5 cells, 100 bytes a point) are gathered on the device
    /// and read back without waiting: ask [`Scene::surfaces`] once a frame until they are
    /// there. The whole field is never read back.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
    /// use water_scene::{GridSpec, Scene, SceneSettings};
    /// let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE)?;
    /// let spec = GridSpec::new(GridSize::new(32, 32)?, params, Boundary::Absorbing, GridMode::Signed);
    /// let mut scene = Scene::new(spec, LandMask::empty(spec.size), SceneSettings::default(), None)?;
    /// let mut query = scene.query_surfaces(&[Vec3::new(1.0, 1.0, 0.0), Vec3::new(-5.0, 1.0, 0.0)])?;
    /// scene.step()?; // the game goes on
    /// let answers = scene.surfaces(&mut query)?.expect("the CPU answers at once");
    /// assert_eq!(answers[0].map(|s| s.point.z), Some(0.0)); // still water, after 0 steps
    /// assert_eq!(answers[1], None); // off the grid, no sea around it
    /// assert_eq!(query.step(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A failed GPU submission.
    pub fn query_surfaces(&mut self, points: &[Vec3]) -> Result<SurfaceQuery, SceneError> {
        self.query(points, false)
    }

    /// [`Scene::query_surfaces`], waiting for the patches (`wait`) or not.
    pub(super) fn query(
        &mut self,
        points: &[Vec3],
        wait: bool,
    ) -> Result<SurfaceQuery, SceneError> {
        let up = self.settings.up;
        let cell = self.cell_size();
        let points: Vec<Vec3> = points.iter().map(|&p| up.to_water(p)).collect();
        let origin = self.grid_origin();
        if let Some(cascades) = &self.cascades {
            // Answered at once, from all of them, as `Scene::surface_at` answers (on a GPU
            // backend every cascade read back: a wait).
            let heights = super::nested_water::CascadeHeights::read(
                (&self.water, &self.spec, origin),
                cascades,
            )?;
            let nested = heights.nested()?;
            let (step, dt) = (self.step, self.spec.params.dt());
            let sea = self.ocean.as_mut().map(|o| o.frame_at(step, dt).as_ref());
            let answered = points
                .iter()
                .map(|&p| answer(self.settings.up, sea, &nested, p))
                .collect();
            return Ok(SurfaceQuery {
                points,
                step: self.step,
                origin,
                water: self.gather_now(Vec::new(), wait)?,
                answered: Some(answered),
            });
        }
        let rects = points
            .iter()
            .map(|p| CellRect::around(self.spec.size, cell, p.truncate() - origin, 0.0))
            .collect();
        let water = self.gather_now(rects, wait)?;
        Ok(SurfaceQuery {
            points,
            step: self.step,
            origin,
            water,
            answered: None,
        })
    }

    /// The answers to `query` if its patches have arrived (the device is polled once, never
    /// waited for), `None` while they are on the way: per point, the surface's point, normal
    /// and up vector in the caller's frame, or `None` beyond the water's edge and at a point
    /// that is not finite, as [`Scene::surface_at`] would have answered after
    /// [`SurfaceQuery::step`] steps.
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn surfaces(
        &mut self,
        query: &mut SurfaceQuery,
    ) -> Result<Option<Vec<Option<SurfaceSample>>>, SceneError> {
        if let Some(answered) = &query.answered {
            return Ok(Some(answered.clone()));
        }
        if !self.poll_arrived(&mut query.water)? {
            return Ok(None);
        }
        let GatheredWater::Ready(patches) = &query.water else {
            unreachable!("arrived")
        };
        let up = self.settings.up;
        let dt = self.spec.params.dt();
        let sea = self
            .ocean
            .as_mut()
            .map(|o| o.frame_at(query.step, dt).as_ref());
        let answers = query
            .points
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let view = patches.view(i);
                answer(up, sea, &PlacedWater::new(&view, query.origin), p)
            })
            .collect();
        Ok(Some(answers))
    }
}

/// The surface over `p` (the water's frame) on `water` plus the `sea`, in the caller's frame
/// (`up`): what [`Scene::surface_at`] and the queries answer.
pub(super) fn answer(
    up: crate::UpAxis,
    sea: Option<&water_core::ocean::SeaFrame>,
    water: &dyn HeightSource,
    p: Vec3,
) -> Option<SurfaceSample> {
    let found = match sea {
        Some(sea) => SeaWithWater::new(sea, water).surface_at(p),
        None => water.surface_at(p),
    };
    found.map(|s| SurfaceSample {
        point: up.from_water(s.point),
        normal: up.from_water(s.normal),
        up: up.from_water(s.up),
    })
}
