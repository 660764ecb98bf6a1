//! The water's resolution: keys 1 to 4, `--quality 128..1024`.

/// How finely the water is resolved. The grid keeps its physical size, so finer cells mean
/// shorter waves, smaller steps and more of them per second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quality {
    /// 128 cells a side; icosphere level 4 (2 562 vertices).
    Low,
    /// 256 cells a side; icosphere level 5 (10 242 vertices).
    Medium,
    /// 512 cells a side; icosphere level 6 (40 962 vertices).
    High,
    /// 1024 cells a side; icosphere level 7 (163 842 vertices).
    Ultra,
}

impl Quality {
    /// Every quality, in the order of keys 1 to 4.
    pub const ALL: [Quality; 4] = [Quality::Low, Quality::Medium, Quality::High, Quality::Ultra];

    /// Cells along each side of the grid's water texture.
    #[must_use]
    pub fn grid_cells(self) -> usize {
        match self {
            Quality::Low => 128,
            Quality::Medium => 256,
            Quality::High => 512,
            Quality::Ultra => 1024,
        }
    }

    /// Subdivision level of the sphere scene's icosphere: each level has four times the
    /// vertices, as each step up the grid has four times the cells.
    #[must_use]
    pub fn sphere_level(self) -> u32 {
        match self {
            Quality::Low => 4,
            Quality::Medium => 5,
            Quality::High => 6,
            Quality::Ultra => 7,
        }
    }

    /// The quality with `cells` a side, if there is one.
    #[must_use]
    pub fn from_cells(cells: usize) -> Option<Self> {
        Self::ALL.into_iter().find(|q| q.grid_cells() == cells)
    }

    /// The quality of number key `digit` (1 to 4).
    #[must_use]
    pub fn from_digit(digit: u32) -> Option<Self> {
        let index = usize::try_from(digit.checked_sub(1)?).ok()?;
        Self::ALL.get(index).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_one_to_four_pick_128_to_1024_cells() {
        let cells: Vec<usize> = (1..=4)
            .map(|d| Quality::from_digit(d).map_or(0, Quality::grid_cells))
            .collect();
        assert_eq!(cells, [128, 256, 512, 1024]);
        assert_eq!(Quality::from_digit(0), None);
        assert_eq!(Quality::from_digit(5), None);
        assert_eq!(Quality::from_cells(512), Some(Quality::High));
        assert_eq!(Quality::from_cells(300), None);
    }

    #[test]
    fn sphere_levels_grow_with_the_grid() {
        for pair in Quality::ALL.windows(2) {
            assert_eq!(pair[1].sphere_level(), pair[0].sphere_level() + 1);
            assert_eq!(pair[1].grid_cells(), 2 * pair[0].grid_cells());
        }
    }
}
