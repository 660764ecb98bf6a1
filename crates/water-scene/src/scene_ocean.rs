//! The ambient sea of a [`crate::Scene`]: its sea and the frames of the last few steps asked
//! for, each made once and shared by the bodies (which may read the water one step late), the
//! queries (answered a frame later) and the outputs.

use std::sync::Arc;

use glam::Vec2;
use water_core::ocean::{AmbientSea, SeaFrame};
use water_core::GridSize;

/// A scene's ambient sea.
#[derive(Debug, Clone)]
pub(crate) struct SceneOcean {
    sea: AmbientSea,
    /// Frames of the steps they were made for, the latest asked for last (shared: a game's
    /// renderer and queries hold the frame they drew from while the scene steps on).
    frames: Vec<(u64, Arc<SeaFrame>)>,
}

/// Frames kept: the current step's, the one before (bodies one step late) and one more (a
/// query taken a frame later).
const FRAMES_KEPT: usize = 3;

impl SceneOcean {
    pub(crate) fn new(sea: AmbientSea) -> Self {
        Self {
            sea,
            frames: Vec::with_capacity(FRAMES_KEPT),
        }
    }

    pub(crate) fn sea(&self) -> &AmbientSea {
        &self.sea
    }

    /// The sea at step `step`, time `step * dt` (synthesised once while it is among the
    /// last few asked for).
    pub(crate) fn frame_at(&mut self, step: u64, dt: f64) -> &Arc<SeaFrame> {
        let frame = match self.frames.iter().position(|(s, _)| *s == step) {
            Some(i) => self.frames.remove(i),
            None => {
                let t = step as f64 * dt;
                // The oldest frame's storage is reused unless a caller still holds it.
                let spent = (self.frames.len() == FRAMES_KEPT)
                    .then(|| Arc::try_unwrap(self.frames.remove(0).1).ok())
                    .flatten();
                let frame = match spent {
                    Some(mut frame) => {
                        self.sea.frame_into(t, &mut frame);
                        frame
                    }
                    None => self.sea.frame(t),
                };
                (step, Arc::new(frame))
            }
        };
        self.frames.push(frame);
        &self.frames.last().expect("pushed above").1
    }
}

/// The world positions of a grid's cell centres, row-major: `((x + 0.5) h, (y + 0.5) h)`
/// from `origin`.
#[must_use]
pub fn cell_centres(size: GridSize, cell_size: f32, origin: Vec2) -> Vec<Vec2> {
    (0..size.cells())
        .map(|i| cell_centre(size, cell_size, origin, i))
        .collect()
}

/// The world position of cell `i`'s centre (row-major), as [`cell_centres`] gives it.
#[must_use]
pub(crate) fn cell_centre(size: GridSize, cell_size: f32, origin: Vec2, i: usize) -> Vec2 {
    cell_centre_at(cell_size, origin, i % size.width(), i / size.width())
}

/// The world position of the centre of cell `(x, y)`: [`cell_centre`] without its division,
/// for loops that walk the cells row by row.
#[must_use]
pub(crate) fn cell_centre_at(cell_size: f32, origin: Vec2, x: usize, y: usize) -> Vec2 {
    origin + Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * cell_size
}
