//! [`WaterImpulse`]: a message that disturbs the water at a world point (a click, a rock thrown
//! in), and the system that lands it on the next water step.

use bevy::prelude::*;
use water_scene::water_core::{Impulse, ImpulseShape};

use crate::simulation::WaterSimulation;

/// A bump raised on the water at a world point, landing before the next water step: the
/// surface takes the shape of a cosine bump of `height` metres and `radius` metres, at rest,
/// and spreads as rings. A negative height makes a dip.
///
/// ```
/// use bevy::prelude::*;
/// use water_bevy::WaterImpulse;
/// fn click(mut impulses: MessageWriter<WaterImpulse>) {
///     impulses.write(WaterImpulse::new(Vec3::new(1.0, 0.0, -2.0), 0.4, 0.05));
/// }
/// # let _ = IntoSystem::into_system(click);
/// ```
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct WaterImpulse {
    /// Where, world metres (its height is ignored: the bump is on the vertical through it).
    pub position: Vec3,
    /// Radius of the bump, metres.
    pub radius: f32,
    /// Height of the bump, metres.
    pub height: f32,
}

impl WaterImpulse {
    /// A bump of `height` (m) and `radius` (m) at `position` (world).
    #[must_use]
    pub fn new(position: Vec3, radius: f32, height: f32) -> Self {
        Self {
            position,
            radius,
            height,
        }
    }
}

/// Queues each [`WaterImpulse`] on the water; impulses off the grid or with bad numbers are
/// logged and dropped (and all of them while there is no water).
pub(crate) fn queue_impulses(
    mut impulses: MessageReader<WaterImpulse>,
    mut water: Query<&mut WaterSimulation>,
) {
    let mut simulation = water.iter_mut().next();
    for i in impulses.read() {
        let Some(simulation) = simulation.as_mut() else {
            continue;
        };
        let (placement, now) = (simulation.placement(), simulation.window_placement());
        if !now.covers(i.position) {
            warn!(
                "water impulse at {} is off the water ({} x {} m from {})",
                i.position,
                now.width as f32 * now.cell_size,
                now.height as f32 * now.cell_size,
                now.corner
            );
            continue;
        }
        // In the cells of the frame the water was made in: the scene lands it where its grid's
        // cells are now.
        let centre = placement.to_cells(i.position);
        match Impulse::new(
            centre,
            i.radius / placement.cell_size,
            i.height,
            ImpulseShape::Cosine,
        ) {
            Ok(impulse) => simulation
                .scene_mut()
                .add_impulse(impulse.with_displacement(true)),
            Err(e) => error!("water impulse at {}: {e}", i.position),
        }
    }
}
