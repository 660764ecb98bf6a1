//! [`SceneEvent`]: what happened during a step that the caller may want to react to.

use crate::body::BodyId;

/// Something that happened during a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneEvent {
    /// Part of a body went beyond the water's edge: from this step on it floats on still water
    /// at rest level there (never into the void) and makes no waves beyond the edge.
    LeftWater {
        /// The body.
        body: BodyId,
        /// The step during which it happened.
        step: u64,
    },
    /// A body that had left the water is wholly over it again.
    ReturnedToWater {
        /// The body.
        body: BodyId,
        /// The step during which it happened.
        step: u64,
    },
}
