//! Foam on a scene's grid and on each of its cascades ([`Scene::set_foam`]): each step, hulls'
//! bow and stern events, breaking crests of a choppy ambient sea and surf on shallow shores raise
//! a [`FoamField`], which decays by its half-life and moves with the grid when it follows a
//! focus.
//!
//! A cascade `k` samples the sea's breaking every `2^k` steps (its cells are `2^k` times the
//! finest grid's, so a crest takes that many steps longer to cross one) and only outside the
//! finer grid where that one shows alone (there the surface drawn and its foam are the finer
//! grid's): sampled every step at every cell, the Jacobians would cost each cascade as much as
//! the finest grid's, the largest share of a step at sea.

use glam::Vec2;
use rayon::prelude::*;
use water_core::ocean::SeaFrame;
use water_core::{ContactMasks, FoamField, GridSize};

use super::{Masks, Scene};
use crate::error::SceneError;
use crate::scene_ocean::cell_centre;
use crate::water::WaterGrid;

/// How a scene makes foam.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoamSettings {
    /// Time for the coverage to halve, s (> 0).
    pub half_life: f64,
    /// Coverage a bow or stern event adds to its cell, in `[0, 1]`.
    pub wake: f32,
    /// Cells where the ambient sea's Jacobian `det(I + grad D)` is below this turn white
    /// (`None`: no breaking foam); in `[-1, 1]` (1 on a flat sea, below 0 where it folds).
    pub jacobian_threshold: Option<f32>,
    /// Wet cells shallower than this, m, foam where the surface stands above McCowan's limit
    /// ([`water_core::SURF_BREAKING_RATIO`] times their still depth: surf); `None`: no surf.
    /// Reads the depth given to [`Scene::set_depth`]; the finest grid only (the cascades are
    /// open water).
    pub shore_depth: Option<f32>,
}

/// One grid's foam (the scene's or a cascade's) and the scratch its breaking source samples the
/// sea with.
#[derive(Debug)]
pub(super) struct FoamLayer {
    pub(super) field: FoamField,
    /// Where the finer grid shows alone, one answer a column and one a row
    /// ([`FinerGrid::along`]; `None` without a finer grid: every cell sampled), made for
    /// `key`: the grid's corner and the finer grid's.
    along: Option<Along>,
    /// Each column's centre, world x (m), for `key`.
    column_x: Vec<f32>,
    key: Option<(Vec2, Option<Vec2>)>,
    /// The sea's Jacobian at every cell (1, never breaking, where not sampled).
    jacobians: Vec<f32>,
}

/// [`FinerGrid::along`]'s answers for a grid's columns and rows.
#[derive(Debug)]
struct Along {
    columns: Vec<(f32, bool)>,
    rows: Vec<(f32, bool)>,
}

/// Parallel tasks per thread that sample the sea's breaking, each over its own rows with its
/// own scratch (the rows' centres and answers), made once a task: a few, so a thread that
/// finishes early takes another's rows where a finer grid leaves uneven work.
const SAMPLE_TASKS_PER_THREAD: usize = 4;

/// The finer grid inside a cascade, where it shows alone (its hand-over weight is 1: the drawn
/// surface and its foam are the finer grid's): the cascade samples no breaking there.
#[derive(Debug, Clone, Copy)]
pub(super) struct FinerGrid {
    /// Its corner (world, m), extent (m), cell size (m) and edge band (cells).
    pub(super) corner: Vec2,
    pub(super) extent: Vec2,
    pub(super) cell: f32,
    pub(super) edge: f32,
}

impl FinerGrid {
    /// The finer grid shows alone over the whole coarse cell of `size` metres centred at `p`
    /// (its edge nearest the finer grid's rim included: bilinear reads reach that far).
    #[cfg(test)]
    fn shows_alone(&self, p: Vec2, size: f32) -> bool {
        let local = p - self.corner;
        self.shows_alone_within(local.min(self.extent - local).min_element(), size)
    }

    /// [`FinerGrid::shows_alone`] for a centre `inside` metres from the finer grid's nearest
    /// edge.
    fn shows_alone_within(&self, inside: f32, size: f32) -> bool {
        let distance = (inside - 0.5 * size) / self.cell;
        super::cascades::cascade_weight(distance, self.edge) >= 1.0
    }

    /// Along one axis (`x`: 0, `y`: 1), each of `count` cells' centres (of `size` metres, the
    /// first at `first` m) as `(its distance from the finer grid's nearer edge on that axis,
    /// whether the finer grid shows alone at that distance)`. A cell's
    /// [`FinerGrid::shows_alone`] is its column's answer where the column's distance is the
    /// smaller, else its row's: the same minimum of the same numbers, so the same bits.
    fn along(&self, axis: usize, first: f32, size: f32, count: usize) -> Vec<(f32, bool)> {
        (0..count)
            .map(|i| {
                let local = first + (i as f32 + 0.5) * size - self.corner[axis];
                let inside = local.min(self.extent[axis] - local);
                (inside, self.shows_alone_within(inside, size))
            })
            .collect()
    }
}

impl FoamLayer {
    pub(super) fn new(size: GridSize, half_life: f64) -> Result<Self, SceneError> {
        Ok(Self {
            field: FoamField::new(size, half_life)?,
            along: None,
            column_x: Vec::new(),
            key: None,
            jacobians: Vec::new(),
        })
    }

    /// The step's wake and (with a threshold and a sea) breaking sources at time `t`, on a grid
    /// of `cell` metres whose corner is at `origin` (world, m); breaking is not sampled where
    /// `finer` shows alone.
    pub(super) fn raise(
        &mut self,
        settings: &FoamSettings,
        contacts: Option<&ContactMasks>,
        sea: Option<&SeaFrame>,
        (cell, origin, finer): (f32, Vec2, Option<FinerGrid>),
        t: f64,
    ) -> Result<(), SceneError> {
        if let Some(contacts) = contacts {
            if settings.wake > 0.0 {
                self.field.add_wake(contacts, settings.wake, t)?;
            }
        }
        let (Some(threshold), Some(frame)) = (settings.jacobian_threshold, sea) else {
            return Ok(());
        };
        let size = self.field.size();
        let key = (origin, finer.map(|f| f.corner));
        if self.key != Some(key) {
            self.along = finer.map(|f| Along {
                columns: f.along(0, origin.x, cell, size.width()),
                rows: f.along(1, origin.y, cell, size.height()),
            });
            self.column_x = column_centres(origin.x, cell, size.width());
            self.key = Some(key);
        }
        self.jacobians.resize(size.cells(), 1.0);
        // The sampled cells' centres made again every step, a few rows at a time in each
        // task's own scratch: no grid of centres to keep, so a grid that moved costs what a
        // grid at rest does (a following grid moves most steps).
        let width = size.width();
        let tasks = SAMPLE_TASKS_PER_THREAD * rayon::current_num_threads();
        let rows_per_task = size.height().div_ceil(tasks);
        let (along, column_x) = (self.along.as_ref(), self.column_x.as_slice());
        self.jacobians
            .par_chunks_mut(rows_per_task * width)
            .enumerate()
            .for_each_init(
                || {
                    let cells = rows_per_task * width;
                    (
                        Vec::new(),
                        Vec::with_capacity(cells),
                        Vec::with_capacity(cells),
                    )
                },
                |(runs, centres, answers), (task, out)| {
                    let first = task * rows_per_task;
                    let rows = first..first + out.len() / width;
                    runs.clear();
                    centres.clear();
                    sampled_cells((column_x, cell, origin.y), along, rows, runs, centres);
                    if centres.len() == out.len() {
                        frame.jacobians_into(centres, out);
                        return;
                    }
                    answers.resize(centres.len(), 1.0);
                    frame.jacobians_into(centres, answers);
                    // Each run's answers in place, and 1 (never breaking) between the runs.
                    let (mut answers, mut done) = (answers.as_slice(), 0);
                    for run in runs.iter() {
                        let (start, end) = (run.start - first * width, run.end - first * width);
                        out[done..start].fill(1.0);
                        let (these, rest) = answers.split_at(run.len());
                        out[start..end].copy_from_slice(these);
                        (answers, done) = (rest, end);
                    }
                    out[done..].fill(1.0);
                },
            );
        self.field.add_breaking(&self.jacobians, threshold, t)?;
        Ok(())
    }
}

/// Each of `width` columns' centre, world x (m), on a grid of `cell` m cells whose corner is at
/// world x `corner_x`: `corner + (x + 1/2) h`, the sum `cell_centre_at` makes.
fn column_centres(corner_x: f32, cell: f32, width: usize) -> Vec<f32> {
    (0..width)
        .map(|x| corner_x + (x as f32 + 0.5) * cell)
        .collect()
}

/// Appends the cells in `rows` of a grid of `cell` m cells whose columns' centres are at
/// `column_x` and whose corner is at world y `corner_y` (m), that sample the sea's breaking
/// (those where the finer grid does not show alone, from its answers `along`; all without
/// one), row-major, to `runs` (ranges of cell indices), and their centres (world, m) to
/// `centres`: with the bits `cell_centre_at` and [`FinerGrid::shows_alone`] give each cell.
fn sampled_cells(
    (column_x, cell, corner_y): (&[f32], f32, f32),
    along: Option<&Along>,
    rows: std::ops::Range<usize>,
    runs: &mut Vec<std::ops::Range<usize>>,
    centres: &mut Vec<Vec2>,
) {
    // A centre is its column's and its row's (the corner's plus `(y + 1/2) h`, the sum
    // `cell_centre_at` makes), each row's sampled cells in runs.
    let width = column_x.len();
    let mut sample_run = |y: usize, run: std::ops::Range<usize>| {
        let row_y = corner_y + (y as f32 + 0.5) * cell;
        runs.push(y * width + run.start..y * width + run.end);
        centres.extend(column_x[run].iter().map(|&x| Vec2::new(x, row_y)));
    };
    let Some(Along {
        columns,
        rows: row_answers,
    }) = along
    else {
        rows.for_each(|y| sample_run(y, 0..width));
        return;
    };
    // Where the finer grid shows alone, from one answer a column and one a row.
    for y in rows {
        let (row_inside, row_alone) = row_answers[y];
        let alone = |x: usize| {
            let (column_inside, column_alone) = columns[x];
            if column_inside <= row_inside {
                column_alone
            } else {
                row_alone
            }
        };
        let mut x = 0;
        while x < width {
            let start = x;
            while x < width && !alone(x) {
                x += 1;
            }
            if x > start {
                sample_run(y, start..x);
            }
            while x < width && alone(x) {
                x += 1;
            }
        }
    }
}

/// The scene's foam: its grid's layer (each cascade holds its own), and the scratch the surf
/// reads the surface with.
#[derive(Debug)]
pub(super) struct SceneFoam {
    pub(super) layer: FoamLayer,
    pub(super) settings: FoamSettings,
    /// The surface (interactive + ambient, m) at each cell, for the surf.
    surface: Vec<f32>,
    /// The shore cells (shallower than the shore depth, wet) and their centres (world, m)
    /// where the grid's corner was `shore_origin`, and the sea's height at each.
    shore_cells: Vec<usize>,
    shore_centres: Vec<Vec2>,
    shore_origin: Option<Vec2>,
    shore_sea: Vec<f32>,
}

impl SceneFoam {
    /// Finds the shore cells again at the next step (the depth changed).
    pub(super) fn forget_shores(&mut self) {
        self.shore_origin = None;
    }
}

impl Scene {
    /// Puts foam on the grid and its cascades (`None`: no foam). From the next step on, every
    /// step's bow and stern events add [`FoamSettings::wake`] to their cells; with an ambient
    /// sea ([`Scene::set_ocean`]), cells where the sea's Jacobian falls below the threshold turn
    /// white; with a [`FoamSettings::shore_depth`] and a depth ([`Scene::set_depth`]), so do
    /// shallow cells where the surf breaks. The coverage decays by the half-life and moves with
    /// the grid. The steps then run
    /// one at a time.
    ///
    /// # Errors
    /// A `half_life` that is not a finite number above 0, a `wake` outside `[0, 1]`, a
    /// threshold outside `[-1, 1]`, a `shore_depth` that is not a finite number above 0, each
    /// by name; [`SceneError::ShoreWithoutDepth`] for a shore depth before
    /// [`Scene::set_depth`]; [`SceneError::FoamWithGpuMasks`] with masks
    /// drawn on the GPU.
    pub fn set_foam(&mut self, settings: Option<FoamSettings>) -> Result<(), SceneError> {
        let Some(settings) = settings else {
            self.foam = None;
            if let Some(cascades) = &mut self.cascades {
                for level in &mut cascades.levels {
                    level.foam = None;
                }
            }
            return Ok(());
        };
        if matches!(self.masks, Masks::Gpu { .. }) {
            return Err(SceneError::FoamWithGpuMasks);
        }
        let layer = FoamLayer::new(self.spec.size, settings.half_life)?;
        let check = |name, value: f32, range: &'static str, ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(water_core::WaterError::OutOfRange {
                    name,
                    value: f64::from(value),
                    range,
                })
            }
        };
        check(
            "foam wake",
            settings.wake,
            "[0, 1]",
            (0.0..=1.0).contains(&settings.wake),
        )?;
        if let Some(t) = settings.jacobian_threshold {
            check(
                "foam jacobian_threshold",
                t,
                "[-1, 1]",
                (-1.0..=1.0).contains(&t),
            )?;
        }
        if let Some(d) = settings.shore_depth {
            check(
                "foam shore_depth",
                d,
                "(0, +inf) m",
                d.is_finite() && d > 0.0,
            )?;
            if self.depth.is_none() {
                return Err(SceneError::ShoreWithoutDepth { shore_depth: d });
            }
        }
        let half_life = settings.half_life;
        if let Some(cascades) = &mut self.cascades {
            for level in &mut cascades.levels {
                level.foam = Some(FoamLayer::new(level.spec.size, half_life)?);
            }
        }
        self.foam = Some(SceneFoam {
            layer,
            settings,
            surface: Vec::new(),
            shore_cells: Vec::new(),
            shore_centres: Vec::new(),
            shore_origin: None,
            shore_sea: Vec::new(),
        });
        Ok(())
    }

    /// The foam's coverage now (after [`Scene::steps_taken`] steps), per cell of the grid where
    /// it is now, row-major; `None` without foam.
    #[must_use]
    pub fn foam_coverage(&self) -> Option<Vec<f32>> {
        self.foam
            .as_ref()
            .map(|f| f.layer.field.coverage(self.time()))
    }

    /// Cascade `k`'s foam coverage now, per cell where the cascade is now, row-major (`k = 0`:
    /// [`Scene::foam_coverage`]); `None` without foam.
    ///
    /// # Errors
    /// [`SceneError::NoCascade`] for a `k` past the last cascade.
    pub fn cascade_foam(&self, k: usize) -> Result<Option<Vec<f32>>, SceneError> {
        if k == 0 {
            return Ok(self.foam_coverage());
        }
        let t = self.time();
        Ok(self
            .cascade_level(k)?
            .foam
            .as_ref()
            .map(|f| f.field.coverage(t)))
    }

    /// After a step: the step's sources raise the grid's foam at the step's end; the masks'
    /// edges are a wake only when `masks_advanced` (the step drew them).
    pub(super) fn raise_foam(&mut self, masks_advanced: bool) -> Result<(), SceneError> {
        let t = self.time();
        let (step, dt) = (self.step, self.spec.params.dt());
        let cell = self.cell_size();
        let origin = self.grid_origin();
        let Some(foam) = self.foam.as_mut() else {
            return Ok(());
        };
        let contacts = match &self.masks {
            Masks::Cpu { contacts, .. } if masks_advanced => Some(contacts),
            _ => None,
        };
        let breaking = foam.settings.jacobian_threshold.is_some();
        let sea = match (
            &mut self.ocean,
            breaking || foam.settings.shore_depth.is_some(),
        ) {
            (Some(ocean), true) => Some(ocean.frame_at(step, dt).clone()),
            _ => None,
        };
        foam.layer.raise(
            &foam.settings,
            contacts,
            sea.as_deref(),
            (cell, origin, None),
            t,
        )?;
        let (Some(shore_depth), Some(depth)) = (foam.settings.shore_depth, &self.depth) else {
            return Ok(());
        };
        // The surf: the surface at each shore cell, the sea's height added where there is one.
        let size = self.spec.size;
        if foam.shore_origin != Some(origin) || foam.surface.len() != size.cells() {
            foam.shore_cells = (0..size.cells())
                .filter(|&i| depth.cells()[i] > 0.0 && depth.cells()[i] < shore_depth)
                .collect();
            foam.shore_centres = foam
                .shore_cells
                .iter()
                .map(|&i| cell_centre(size, cell, origin, i))
                .collect();
            foam.shore_sea.resize(foam.shore_cells.len(), 0.0);
            foam.surface.resize(size.cells(), 0.0);
            foam.shore_origin = Some(origin);
        }
        let SceneFoam {
            surface,
            shore_cells,
            shore_centres,
            shore_sea,
            ..
        } = foam;
        let view = self.water.heights_view(cell, &mut self.heights)?;
        for &i in shore_cells.iter() {
            surface[i] = view.cell(i % size.width(), i / size.width());
        }
        if let Some(frame) = &sea {
            frame.heights_into(shore_centres, shore_sea);
            for (&i, &z) in shore_cells.iter().zip(shore_sea.iter()) {
                surface[i] += z;
            }
        }
        foam.layer
            .field
            .add_shore(&foam.surface, depth.cells(), shore_depth, t)?;
        Ok(())
    }
}

/// After cascade `k`'s step at `step`: its wake (from `contacts` when the step drew them) and,
/// every `2^k` steps, its breaking outside where the finer grid shows alone.
pub(super) fn raise_cascade_foam(
    layer: &mut FoamLayer,
    settings: &FoamSettings,
    (k, step): (usize, u64),
    contacts: Option<&ContactMasks>,
    sea: Option<&SeaFrame>,
    place: (f32, Vec2, Option<FinerGrid>),
    t: f64,
) -> Result<(), SceneError> {
    let breaking_now = step % (1u64 << k) == 0;
    layer.raise(settings, contacts, sea.filter(|_| breaking_now), place, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene_ocean::cell_centre_at;

    /// The cells a cascade samples, found from one answer a column and one a row
    /// ([`FinerGrid::along`]), are every cell's own [`FinerGrid::shows_alone`] answer: for a
    /// finer grid at whole, half and odd cells from the cascade's corner, far out and in the
    /// world's thousands of metres (where the sums round).
    #[test]
    fn the_column_and_row_answers_are_each_cells_own() {
        let (w, h, cell) = (96usize, 80usize, 0.5f32);
        for origin in [
            Vec2::ZERO,
            Vec2::new(-37.5, 12.0),
            Vec2::new(4096.5, -2811.0),
        ] {
            for shift in [Vec2::ZERO, Vec2::new(0.25, 0.75), Vec2::new(3.0, -5.5)] {
                let finer = FinerGrid {
                    corner: origin + Vec2::new(12.0, 10.0) + shift,
                    extent: Vec2::new(24.0, 20.0),
                    cell: cell / 2.0,
                    edge: 2.0,
                };
                let columns = finer.along(0, origin.x, cell, w);
                let rows = finer.along(1, origin.y, cell, h);
                let mut alone = 0;
                for (y, &(ry, ay)) in rows.iter().enumerate() {
                    for (x, &(rx, ax)) in columns.iter().enumerate() {
                        let from_axes = if rx <= ry { ax } else { ay };
                        let own = finer.shows_alone(cell_centre_at(cell, origin, x, y), cell);
                        assert_eq!(from_axes, own, "cell ({x}, {y}), origin {origin}, {shift}");
                        alone += usize::from(own);
                    }
                }
                assert!(
                    alone > 100,
                    "the finer grid shows alone somewhere ({alone})"
                );
                let (mut runs, mut centres) = (Vec::new(), Vec::new());
                let column_x = column_centres(origin.x, cell, w);
                let answers = Along { columns, rows };
                // In two calls, as the tasks of a step take them.
                for part in [0..h / 3, h / 3..h] {
                    let place = (column_x.as_slice(), cell, origin.y);
                    sampled_cells(place, Some(&answers), part, &mut runs, &mut centres);
                }
                let cells: Vec<usize> = runs.iter().flat_map(|run| run.clone()).collect();
                let naive: Vec<(usize, Vec2)> = (0..w * h)
                    .map(|i| (i, cell_centre_at(cell, origin, i % w, i / w)))
                    .filter(|&(_, c)| !finer.shows_alone(c, cell))
                    .collect();
                assert_eq!(cells.len(), w * h - alone);
                assert!(cells
                    .iter()
                    .zip(&centres)
                    .eq(naive.iter().map(|(i, c)| (i, c))));
                // Without a finer grid: every cell, every centre `cell_centre_at`'s.
                let (mut runs, mut centres) = (Vec::new(), Vec::new());
                let place = (column_x.as_slice(), cell, origin.y);
                sampled_cells(place, None, 0..h, &mut runs, &mut centres);
                assert!(runs.iter().flat_map(|run| run.clone()).eq(0..w * h));
                let all = (0..w * h).map(|i| cell_centre_at(cell, origin, i % w, i / w));
                assert!(centres.iter().copied().eq(all));
            }
        }
    }
}
