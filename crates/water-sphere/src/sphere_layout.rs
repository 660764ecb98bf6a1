//! Where sphere water keeps its heights: in vertex order, or in ten rhombus patches.

/// How [`crate::SphereWater`] keeps its heights and steps them. Both give the same bits.
///
/// ```
/// use water_core::Damping;
/// use water_sphere::{SphereImpulse, Icosphere, SphereLayout, SphereStepper, SphereWater};
/// let sphere = Icosphere::new(4, 1.0)?;
/// let mut rhombus = SphereWater::new(sphere, SphereStepper::Mean { a: 0.5 }, Damping::NONE)?;
/// assert_eq!(rhombus.layout(), SphereLayout::Rhombus);
/// rhombus.add_impulse(&SphereImpulse::new(glam::Vec3::Y, 0.5, 0.01)?);
/// let mut gather = rhombus.clone();
/// gather.set_layout(SphereLayout::Gather);
/// rhombus.step_many(10);
/// gather.step_many(10);
/// assert_eq!(rhombus.heights(), gather.heights());
/// # Ok::<(), water_sphere::SphereError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SphereLayout {
    /// Ten regular rhombus patches with halos ([`crate::RhombusLayout`]): a seven-point stencil over
    /// rows, the twelve corners apart. Several times faster than the gather on a CPU (see
    /// `docs/benchmarks.md`); the default.
    #[default]
    Rhombus,
    /// Vertex order; each vertex gathers its six neighbour slots ([`crate::sphere_step`]), as
    /// the GPU shaders do.
    Gather,
}
