//! What happens to waves at the edge of the grid.

use crate::named::display_and_parse_by_name;

/// Edge treatment of the grid. See `docs/math.md` for each scheme's derivation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Boundary {
    /// Edge cells (x = 0, W-1; y = 0, H-1) stay 0 and only interior cells update (Dirichlet, as
    /// in Hugo Elias's ripple). Waves reflect with inverted sign.
    Fixed,
    /// Every cell updates; a neighbour outside the grid takes the edge cell's value
    /// (clamp-to-edge, a discrete Neumann condition). Waves reflect with their sign and volume is
    /// conserved.
    #[default]
    Reflective,
    /// Every cell updates; neighbours wrap around, as on a torus.
    Periodic,
    /// Every cell updates; edge cells follow Mur's first-order absorbing condition, an open
    /// boundary that lets normally incident waves leave with under 5% reflected.
    Absorbing,
}

impl Boundary {
    /// All boundaries, in the order the docs list them.
    pub const ALL: [Self; 4] = [
        Self::Fixed,
        Self::Reflective,
        Self::Periodic,
        Self::Absorbing,
    ];

    /// The name used in scenario files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fixed => "fixed",
            Self::Reflective => "reflective",
            Self::Periodic => "periodic",
            Self::Absorbing => "absorbing",
        }
    }

    /// True when the edge cells are updated by the step (all but [`Boundary::Fixed`]).
    #[must_use]
    pub fn updates_edges(self) -> bool {
        self != Self::Fixed
    }
}

/// Error for an unknown boundary name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown boundary {0:?}; expected one of fixed, reflective, periodic, absorbing")]
pub struct UnknownBoundary(pub String);

display_and_parse_by_name!(Boundary, UnknownBoundary);
