//! The following window in a scene: the grid moves by whole cells through the world to keep a
//! focus (a body, a point a game moves, a path) near its centre
//! ([`water_core::FollowingWindow`]). Everything the scene takes and gives stays in the world:
//! bodies, queries, impulses (world cells), land (world cells); only the grid moves.

use glam::{DVec2, I64Vec2, Vec2, Vec3};
use water_core::{FollowingWindow, LandMask};

use super::{Masks, Scene};
use crate::body::BodyId;
use crate::error::SceneError;
use crate::tow_path::TowPath;
use crate::water::WaterGrid;

/// What a scene's grid follows ([`Scene::set_focus`]).
#[derive(Debug, Clone, PartialEq)]
pub enum SceneFocus {
    /// A body of the scene, where it is at the start of each step (once it is removed, the
    /// grid stays where it was).
    Body(BodyId),
    /// A point in the caller's frame (its height along the up axis is ignored): a camera a
    /// game moves each frame with [`Scene::set_focus`].
    Point(Vec3),
    /// A route in the caller's horizontal plane, travelled from time 0 at its speed: the focus
    /// is where the route is at the start of each step.
    Path(TowPath),
}

/// The focus in the water's frame.
#[derive(Debug, Clone)]
pub(super) enum Target {
    Body(BodyId),
    Point(Vec2),
    Path(TowPath),
}

/// The window, what it follows, and the land of the world it moves over.
#[derive(Debug, Clone)]
pub(super) struct Following {
    pub(super) window: FollowingWindow,
    pub(super) target: Option<Target>,
    /// The land the scene was made with, in world cells: `[0, W) x [0, H)` from the world's
    /// origin. Cells beyond it are water.
    pub(super) world_land: LandMask,
    /// The land the grid holds now (kept here so a shift that brings in no land costs no
    /// upload).
    window_land: LandMask,
}

impl Following {
    pub(super) fn new(window: FollowingWindow, land: LandMask) -> Self {
        Self {
            window,
            target: None,
            window_land: land.clone(),
            world_land: land,
        }
    }

    /// The world land seen through the window at `origin` (cells).
    fn land_at(&self, origin: I64Vec2) -> Result<LandMask, SceneError> {
        let size = self.world_land.size();
        let (w, h) = (size.width() as i64, size.height() as i64);
        let cells = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (wx, wy) = (x + origin.x, y + origin.y);
                (0..w).contains(&wx)
                    && (0..h).contains(&wy)
                    && self.world_land.is_land(wx as usize, wy as usize)
            })
            .collect();
        Ok(LandMask::from_cells(size, cells)?)
    }
}

impl Scene {
    /// Makes the grid follow `focus` (`None`: it stays where it is). The grid moves at once
    /// and then at the start of every step, by whole cells, so the focus lies in its centre
    /// cell ([`water_core::FollowingWindow::shift_for`]); the waves stay where they are in
    /// the world, cells that come in start still, the land comes in from the land the scene
    /// was made with (world cells) and the contact masks move with the grid. Bodies, queries
    /// and impulses stay in the world: a body far from the grid floats on the ambient sea, or
    /// leaves the water without one.
    ///
    /// A depth set on the grid keeps its wave speeds where the grid moves (set the new place's
    /// depth, as [`water_core::FollowingWindow`] says); a uniform depth is the same anywhere.
    ///
    /// Behind the wave model's absorbing edges ([`water_core::Boundary::Absorbing`], Mur's) each
    /// shift brings the old edge cells inside as still water
    /// ([`water_core::clear_rim_moved_inside`]), which keeps a grid that moves for good bounded.
    ///
    /// ```
    /// use glam::{DVec2, Vec3};
    /// use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
    /// use water_scene::{GridSpec, Scene, SceneFocus, SceneSettings};
    /// let params = WaveParams::new(0.5, 1.0, 0.1, Damping::NONE)?;
    /// let spec = GridSpec::new(GridSize::new(64, 64)?, params, Boundary::Absorbing, GridMode::Signed);
    /// let mut scene = Scene::new(spec, LandMask::empty(spec.size), SceneSettings::default(), None)?;
    /// // A camera at (100, 40) m: the grid's centre cell (32, 32) comes under it.
    /// scene.set_focus(Some(SceneFocus::Point(Vec3::new(100.0, 40.0, 2.0))))?;
    /// assert_eq!(scene.window_origin(), DVec2::new(84.0, 24.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A focus that goes past [`water_core::MAX_WINDOW_ORIGIN_CELLS`] cells from the world's
    /// origin (a body pushed that far) makes the steps that would follow it fail, by name,
    /// until the focus changes.
    ///
    /// # Errors
    /// [`SceneError::FocusWithGpuMasks`] with masks drawn on the GPU; an unknown or removed
    /// body; a point that is not finite or lies too far ([`water_core::MAX_WINDOW_ORIGIN_CELLS`]);
    /// a failed GPU shift. The focus is left unchanged then, and the grid too, except where the
    /// upload of the land that came in failed after the grid moved (a lost GPU device).
    pub fn set_focus(&mut self, focus: Option<SceneFocus>) -> Result<(), SceneError> {
        if focus.is_some() && matches!(self.masks, Masks::Gpu { .. }) {
            return Err(SceneError::FocusWithGpuMasks);
        }
        let up = self.settings.up;
        let target = match focus {
            None => None,
            Some(SceneFocus::Body(id)) => {
                self.bodies.get(id)?;
                Some(Target::Body(id))
            }
            Some(SceneFocus::Point(p)) => Some(Target::Point(up.to_water(p).truncate())),
            Some(SceneFocus::Path(path)) => {
                Some(Target::Path(path.mapped(|v| up.horizontal_to_water(v))))
            }
        };
        let before = std::mem::replace(&mut self.following.target, target);
        if let Err(e) = self.follow_focus() {
            self.following.target = before;
            return Err(e);
        }
        Ok(())
    }

    /// Where the grid's corner is in the world (the water's frame, metres): `(0, 0)` until a
    /// focus moves it.
    #[must_use]
    pub fn window_origin(&self) -> DVec2 {
        self.following.window.origin()
    }

    /// Where the grid's corner is in the world, in whole cells.
    #[must_use]
    pub fn window_origin_cells(&self) -> I64Vec2 {
        self.following.window.origin_cells()
    }

    /// The land under the grid where it is now: the land the scene was made with (world
    /// cells), as the window sees it.
    #[must_use]
    pub fn window_land(&self) -> &LandMask {
        &self.following.window_land
    }

    /// The grid's corner as the bodies and queries use it (f32 metres).
    pub(super) fn grid_origin(&self) -> Vec2 {
        self.following.window.origin().as_vec2()
    }

    /// Whether the focus can move between steps without the caller (so the grid must follow
    /// it step by step).
    pub(super) fn focus_moves(&self) -> bool {
        match &self.following.target {
            Some(Target::Path(_)) => true,
            // A removed body's focus leaves the grid where it was.
            Some(Target::Body(id)) => self.bodies.get(*id).is_ok(),
            Some(Target::Point(_)) | None => false,
        }
    }

    /// Moves the grid (and its masks and land) to keep the focus in its centre cell.
    pub(super) fn follow_focus(&mut self) -> Result<(), SceneError> {
        let focus = match &self.following.target {
            None => return Ok(()),
            Some(Target::Point(p)) => *p,
            Some(Target::Path(path)) => path.at(self.time() as f32).0,
            Some(Target::Body(id)) => match self.bodies.get(*id) {
                Ok(b) => b.body.body.state.pose.position.truncate(),
                Err(_) => return Ok(()),
            },
        };
        let Self {
            following,
            water,
            masks,
            foam,
            ..
        } = self;
        let by =
            following
                .window
                .follow_with(focus.as_dvec2(), |dx, dy| -> Result<(), SceneError> {
                    water.shift_window(dx, dy)?;
                    if let Masks::Cpu { contacts, .. } = masks {
                        contacts.shift(dx, dy);
                    }
                    if let Some(foam) = foam {
                        foam.layer.field.shift(dx, dy);
                    }
                    following.window_land.shift(dx, dy);
                    Ok(())
                })?;
        if by != I64Vec2::ZERO && !following.world_land.is_empty() {
            let land = following.land_at(following.window.origin_cells())?;
            if land != following.window_land {
                water.set_land(land.clone())?;
                following.window_land = land;
            }
        }
        Ok(())
    }
}
