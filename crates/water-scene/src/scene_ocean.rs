//! The ambient sea of a [`crate::Scene`]: its sea and the frame of the current step, made once a
//! step and shared by the bodies, the queries and the outputs.

use glam::Vec2;
use water_core::ocean::{AmbientSea, SeaFrame};
use water_core::GridSize;

/// A scene's ambient sea.
#[derive(Debug, Clone)]
pub(crate) struct SceneOcean {
    sea: AmbientSea,
    /// The frame of the step it was made for.
    frame: Option<(u64, SeaFrame)>,
}

impl SceneOcean {
    pub(crate) fn new(sea: AmbientSea) -> Self {
        Self { sea, frame: None }
    }

    pub(crate) fn sea(&self) -> &AmbientSea {
        &self.sea
    }

    /// The sea at step `step`, time `step * dt` (synthesised once a step).
    pub(crate) fn frame_at(&mut self, step: u64, dt: f64) -> &SeaFrame {
        if self.frame.as_ref().is_none_or(|(s, _)| *s != step) {
            self.frame = Some((step, self.sea.frame(step as f64 * dt)));
        }
        &self.frame.as_ref().expect("made above").1
    }
}

/// The world positions of a grid's cell centres, row-major: `((x + 0.5) h, (y + 0.5) h)`
/// from `origin`.
#[must_use]
pub fn cell_centres(size: GridSize, cell_size: f32, origin: Vec2) -> Vec<Vec2> {
    (0..size.cells())
        .map(|i| {
            let (x, y) = (i % size.width(), i / size.width());
            origin + Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * cell_size
        })
        .collect()
}
