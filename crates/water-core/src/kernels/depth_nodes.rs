//! The reference depths of the dispersive step over a depth map and each face's weights of
//! them (`docs/math.md`, section 13; the step itself: [`super::spectral_depth`]).
//!
//! A face of depth `d` takes `L(d, k) = 1 - cos(omega(d, k) dt)` as a weighted sum of the
//! nodes' `L_j(k)`, the same weights for every wavenumber (they are applied in space, the
//! `L_j` in the spectrum). The weights of a depth between two nodes are fitted over the grid's
//! wavenumbers: the least-squares fit of `L(d, k)` by the `L_j(k)` of the two nodes around it
//! and of one more on each side, relative to `L(d, k)`, each weight at least
//! [`LOWEST_WEIGHT`]. A straight line in depth between the two nodes around a face (what the
//! weights were first) is exact only where `L` is linear in `d` (shallow water, deep water);
//! the fit follows the curve of `tanh(k d)` in between with fewer nodes: a slope from 0.5 m to
//! 2 m on 5 cm cells (512 cells a side, dt = 0.02 s) took 5 nodes with the line and takes 3.
//! The fit is made at [`SAMPLES`] depths an interval apart in `log d` and interpolated between
//! them, and the error checked is that of the weights as the faces get them.

use crate::airy::AiryDispersion;

/// The largest relative error in omega that the node interpolation may leave, over every
/// mode of wavelength 4 cells or more and every depth of the map: half the 2% the model is
/// held to, so the rest of the error budget stays free.
pub const NODE_TOLERANCE: f64 = 0.01;

/// The most reference depths a map gets (each costs two transforms a step). Between the
/// shallow and the deep limits of a grid's modes they bound the depth range that needs nodes;
/// near the stability limit (`omega dt` near `pi`) even 32 can fall short, and
/// [`crate::WaterError::DepthRangeTooWide`] names the step that does.
pub const MAX_NODES: usize = 32;

/// The lowest weight a face may give a node. A face's flux is the weighted sum of the nodes'
/// fluxes; a weight a little below zero lets the fit bend `L` between nodes (unbounded fits
/// over wide ranges swing to -20 and +20 and amplify rounding as much), while every face's
/// weights still sum to about 1.
pub const LOWEST_WEIGHT: f64 = -0.1;

/// Depths an interval between two nodes is fitted at (ends included, evenly in `log d`); the
/// weights between them are interpolated linearly, so a face's weights change smoothly with
/// its depth.
const SAMPLES: usize = 16;

/// The most nodes one face's fit uses: the two around it and one on each side.
const FIT_NODES: usize = 4;

/// `L(k) = 1 - cos(omega(k) dt) = 2 sin^2(omega dt / 2)` under `airy` at depth `d`.
pub(super) fn one_minus_cos(airy: &AiryDispersion, d: f64, k: f64, dt: f64) -> f64 {
    let half = (0.5 * omega_at(airy, d, k) * dt).sin();
    2.0 * half * half
}

/// Airy's omega at wavenumber `k` over depth `d` (the relation's own depth replaced).
pub(super) fn omega_at(airy: &AiryDispersion, d: f64, k: f64) -> f64 {
    let restoring = airy.gravity() * k + airy.surface_tension() * k.powi(3) / airy.density();
    (restoring * (k * d).tanh()).sqrt()
}

/// The omega whose `1 - cos(omega dt)` is `l` (for `omega dt` in `[0, pi]`): inverted through
/// `l = 2 sin^2(omega dt / 2)`, as [`one_minus_cos`] computes it, so a tiny `l` (a short
/// step: `l` near 1e-18 at dt = 1 ns) keeps its digits; `acos(1 - l)` would round `1 - l` to 1
/// and call every omega 0.
pub(super) fn omega_of(l: f64, dt: f64) -> f64 {
    2.0 * (0.5 * l).max(0.0).sqrt().min(1.0).asin() / dt
}

/// The relative omega error of `l` made for depth `d` at wavenumber `k`: infinite for an `l`
/// outside `[0, 2]`, which no real omega has (a fit that overshoots near the stability
/// limit).
fn relative_error(airy: &AiryDispersion, l: f64, d: f64, k: f64, dt: f64) -> f64 {
    if !(0.0..=2.0).contains(&l) {
        return f64::INFINITY;
    }
    let exact = omega_at(airy, d, k);
    (omega_of(l, dt) - exact).abs() / exact
}

/// The depths (m) between which Airy's relation changes for some resolved mode (wavenumbers
/// `k_lo` to `k_hi`, rad/m): below `0.1 / k_hi` every mode is in shallow water (`tanh(k d)`
/// within 0.4% of `k d`, so `L` is proportional to `d` and interpolating toward `L = 0` at
/// `d = 0` is exact to that), past `4 / k_lo` every mode is in deep water (`tanh(k d)` within
/// 0.07% of 1, so `L` no longer depends on `d`).
pub(super) fn regime_limits(k_lo: f64, k_hi: f64) -> (f64, f64) {
    (0.1 / k_hi, 4.0 / k_lo)
}

/// The nodes of a map and the weights each depth gets of them.
#[derive(Debug, Clone)]
pub(super) struct NodeWeights {
    /// The reference depths, m, ascending.
    nodes: Vec<f64>,
    /// Per interval between nodes `i` and `i + 1`: the first node its fits use and, at
    /// [`SAMPLES`] depths, the weights of the nodes from that one on.
    intervals: Vec<(usize, Vec<[f64; FIT_NODES]>)>,
    /// Each node's `L` at the wavenumbers the weights were fitted over, so checking the
    /// weights' error computes each once rather than once per depth checked.
    l_nodes: Vec<Vec<f64>>,
}

impl NodeWeights {
    /// The fits for `nodes` (m, ascending) at wavenumbers `ks` (rad/m) and step `dt` (s).
    pub(super) fn new(airy: &AiryDispersion, nodes: Vec<f64>, ks: &[f64], dt: f64) -> Self {
        let l_nodes: Vec<Vec<f64>> = nodes
            .iter()
            .map(|&n| ks.iter().map(|&k| one_minus_cos(airy, n, k, dt)).collect())
            .collect();
        let intervals = nodes
            .windows(2)
            .enumerate()
            .map(|(i, pair)| {
                let first = i.saturating_sub(1);
                let last = (i + 2).min(nodes.len() - 1);
                let columns = &l_nodes[first..=last];
                let samples = (0..SAMPLES)
                    .map(|s| {
                        let mut weights = [0.0; FIT_NODES];
                        if s == 0 || s == SAMPLES - 1 {
                            // A node's own depth: that node alone, exactly.
                            weights[i - first + usize::from(s > 0)] = 1.0;
                            return weights;
                        }
                        let t = s as f64 / (SAMPLES - 1) as f64;
                        let d = pair[0] * (pair[1] / pair[0]).powf(t);
                        let target: Vec<f64> =
                            ks.iter().map(|&k| one_minus_cos(airy, d, k, dt)).collect();
                        let fit = bounded_fit(columns, &target, LOWEST_WEIGHT);
                        weights[..fit.len()].copy_from_slice(&fit);
                        weights
                    })
                    .collect();
                (first, samples)
            })
            .collect();
        Self {
            nodes,
            intervals,
            l_nodes,
        }
    }

    /// The reference depths, m, ascending.
    pub(super) fn nodes(&self) -> &[f64] {
        &self.nodes
    }

    /// The weights (node, weight) of a face of depth `d` (m): toward `L = 0` at `d = 0` below
    /// the first node, the last's alone past it, the fit between.
    pub(super) fn of(&self, d: f64) -> Vec<(usize, f64)> {
        let nodes = &self.nodes;
        let last = nodes.len() - 1;
        if d <= nodes[0] {
            return vec![(0, d / nodes[0])];
        }
        if d >= nodes[last] {
            return vec![(last, 1.0)];
        }
        let i = nodes.partition_point(|&n| n < d) - 1;
        let (first, samples) = &self.intervals[i];
        let t = (d / nodes[i]).ln() / (nodes[i + 1] / nodes[i]).ln();
        let at = (t * (SAMPLES - 1) as f64).clamp(0.0, (SAMPLES - 1) as f64);
        let s = (at as usize).min(SAMPLES - 2);
        let f = at - s as f64;
        let count = (last + 1 - first).min(FIT_NODES);
        (0..count)
            .map(|j| {
                let w = (1.0 - f) * samples[s][j] + f * samples[s + 1][j];
                (first + j, w)
            })
            .filter(|&(_, w)| w != 0.0)
            .collect()
    }

    /// The largest relative omega error a face of depth `d` (m) is left with over the
    /// wavenumbers `ks` (rad/m) the weights were fitted over, with `L` as the face gets it
    /// (the weights found once, each node's `L` taken from the fit).
    fn error_at(&self, airy: &AiryDispersion, d: f64, ks: &[f64], dt: f64) -> f64 {
        let weights = self.of(d);
        ks.iter()
            .enumerate()
            .map(|(q, &k)| {
                let l = weights.iter().map(|&(j, w)| w * self.l_nodes[j][q]).sum();
                relative_error(airy, l, d, k, dt)
            })
            .fold(0.0, f64::max)
    }
}

/// The weights `w` (one per column, each at least `lowest`) that minimise
/// `sum_q ((sum_j w_j columns[j][q] - target[q]) / target[q])^2`: the least-squares fit
/// relative to the target. The unbounded fit when it keeps the bound; otherwise the best of
/// the fits with some weights held at the bound (a convex problem with box bounds: its
/// optimum is one of them, and each is feasible, so the best feasible one is it).
fn bounded_fit(columns: &[Vec<f64>], target: &[f64], lowest: f64) -> Vec<f64> {
    let n = columns.len();
    let mut best: Option<(f64, Vec<f64>)> = None;
    for held in 0..(1u32 << n) - 1 {
        let free: Vec<usize> = (0..n).filter(|j| held & (1 << j) == 0).collect();
        // What the held weights leave for the free ones to fit, relative to the target.
        let rest: Vec<f64> = target
            .iter()
            .enumerate()
            .map(|(q, &y)| {
                let held_part: f64 = (0..n)
                    .filter(|j| held & (1 << j) != 0)
                    .map(|j| lowest * columns[j][q])
                    .sum();
                (y - held_part) / y
            })
            .collect();
        let scaled: Vec<Vec<f64>> = free
            .iter()
            .map(|&j| columns[j].iter().zip(target).map(|(c, y)| c / y).collect())
            .collect();
        let Some(fit) = least_squares(&scaled, &rest) else {
            continue;
        };
        if fit.iter().any(|&w| w < lowest) {
            continue;
        }
        let mut weights = vec![lowest; n];
        for (&j, &w) in free.iter().zip(&fit) {
            weights[j] = w;
        }
        let residual: f64 = target
            .iter()
            .enumerate()
            .map(|(q, &y)| {
                let made: f64 = (0..n).map(|j| weights[j] * columns[j][q]).sum();
                ((made - y) / y).powi(2)
            })
            .sum();
        if best.as_ref().is_none_or(|(r, _)| residual < *r) {
            best = Some((residual, weights));
        }
        if held == 0 && best.is_some() {
            // The unbounded fit keeps the bound: it is the optimum.
            break;
        }
    }
    best.map_or_else(
        // Only degenerate columns (equal nodes) fail every fit: share the weight evenly.
        || vec![1.0 / n as f64; n],
        |(_, weights)| weights,
    )
}

/// The least-squares solution of `sum_j x_j columns[j] = rhs` by modified Gram-Schmidt
/// (the columns of neighbouring nodes are nearly parallel; normal equations would square
/// their condition), or `None` for dependent columns.
fn least_squares(columns: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
    let n = columns.len();
    let mut q: Vec<Vec<f64>> = columns.to_vec();
    let mut r = vec![vec![0.0; n]; n];
    for j in 0..n {
        for i in 0..j {
            let dot: f64 = q[i].iter().zip(&q[j]).map(|(a, b)| a * b).sum();
            r[i][j] = dot;
            let (done, rest) = q.split_at_mut(j);
            for (v, u) in rest[0].iter_mut().zip(&done[i]) {
                *v -= dot * u;
            }
        }
        let norm = q[j].iter().map(|v| v * v).sum::<f64>().sqrt();
        let scale = columns[j].iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm <= 1e-13 * scale {
            return None;
        }
        r[j][j] = norm;
        for v in &mut q[j] {
            *v /= norm;
        }
    }
    let mut x: Vec<f64> = q
        .iter()
        .map(|u| u.iter().zip(rhs).map(|(a, b)| a * b).sum())
        .collect();
    for j in (0..n).rev() {
        for i in j + 1..n {
            x[j] -= r[j][i] * x[i];
        }
        x[j] /= r[j][j];
    }
    Some(x)
}

/// Reference depths for faces from `shallowest` to `deepest` (m): evenly spaced in the depth's
/// logarithm (the relation changes with `k d`) between the shallow and deep limits
/// (`limits`, [`regime_limits`]), as few as keep the weights' `L` within [`NODE_TOLERANCE`]
/// (faces shallower than the first node interpolate toward `L = 0` at `d = 0`, deeper than the
/// last take its `L`), at most [`MAX_NODES`]; with the largest error left.
pub(super) fn place_nodes(
    airy: &AiryDispersion,
    (shallowest, deepest): (f64, f64),
    limits: (f64, f64),
    ks: &[f64],
    dt: f64,
) -> (NodeWeights, f64) {
    if shallowest == deepest {
        // One depth everywhere: its own node, so the map steps exactly as that depth does.
        return (NodeWeights::new(airy, vec![deepest], ks, dt), 0.0);
    }
    let hi = deepest.min(limits.1);
    let shallow_limit = shallowest.max(limits.0).min(hi);
    let (nodes, worst) = place_nodes_from(airy, (shallowest, deepest), (shallow_limit, hi), ks, dt);
    if worst <= NODE_TOLERANCE || shallowest >= shallow_limit {
        return (nodes, worst);
    }
    // Below the shallow limit `L` grows as `d` only while `omega dt` is small: a long step
    // bends it, so the nodes go down to the shallowest face instead.
    let deeper = place_nodes_from(airy, (shallowest, deepest), (shallowest, hi), ks, dt);
    if deeper.1 < worst {
        deeper
    } else {
        (nodes, worst)
    }
}

/// [`place_nodes`] with the nodes spread from `lo` to `hi` (m): as few as keep the error
/// within [`NODE_TOLERANCE`], at most [`MAX_NODES`].
fn place_nodes_from(
    airy: &AiryDispersion,
    (shallowest, deepest): (f64, f64),
    (lo, hi): (f64, f64),
    ks: &[f64],
    dt: f64,
) -> (NodeWeights, f64) {
    let mut count = if hi <= lo * (1.0 + 1e-9) { 1 } else { 2 };
    loop {
        let ratio = (hi / lo).powf(1.0 / (count.max(2) - 1) as f64);
        let mut nodes: Vec<f64> = (0..count).map(|i| lo * ratio.powi(i as i32)).collect();
        nodes[count - 1] = hi;
        let weights = NodeWeights::new(airy, nodes, ks, dt);
        let worst = weights_error(airy, &weights, (shallowest, deepest), ks, dt);
        if worst <= NODE_TOLERANCE || count >= MAX_NODES || count == 1 && hi <= lo {
            return (weights, worst);
        }
        count += 1;
    }
}

/// The largest relative omega error of the faces' `L` from `shallowest` to `deepest` (m):
/// below the first node, past the last, and between each two, at depths between the fits'
/// samples (a straight line in depth from the node below, half a step off the samples).
fn weights_error(
    airy: &AiryDispersion,
    weights: &NodeWeights,
    (shallowest, deepest): (f64, f64),
    ks: &[f64],
    dt: f64,
) -> f64 {
    let nodes = weights.nodes();
    let (first, last) = (nodes[0], nodes[nodes.len() - 1]);
    let worst_of = |depths: &mut dyn Iterator<Item = f64>| {
        depths
            .map(|d| weights.error_at(airy, d, ks, dt))
            .fold(0.0, f64::max)
    };
    // `steps` depths from `a` (excluded) to `b` (included).
    let toward = |a: f64, b: f64, steps: u32| {
        (1..=steps).map(move |i| a + f64::from(i) / f64::from(steps) * (b - a))
    };
    let mut worst = 0.0f64;
    for pair in nodes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let n = 2 * SAMPLES;
        worst = worst.max(worst_of(
            &mut (0..n).map(|i| a + (i as f64 + 0.5) / n as f64 * (b - a)),
        ));
    }
    if shallowest < first {
        worst = worst.max(worst_of(&mut toward(shallowest, first, 8)));
    }
    if deepest > last {
        worst = worst.max(worst_of(&mut toward(last, deepest, 8)));
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `omega_of` inverts `one_minus_cos` to f64 precision from a nanosecond step to one near
    /// the stability limit (`omega dt` up to 3).
    #[test]
    fn omega_of_inverts_one_minus_cos_at_any_step() {
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        for dt in [1e-9, 1e-6, 1e-3, 0.05] {
            for k in [0.1, 1.0, 10.0, 60.0] {
                let omega = omega_at(&airy, 2.0, k);
                if omega * dt > 3.0 {
                    continue;
                }
                let back = omega_of(one_minus_cos(&airy, 2.0, k, dt), dt);
                assert!(
                    (back - omega).abs() <= 1e-9 * omega,
                    "dt {dt}, k {k}: {back} vs {omega}"
                );
            }
        }
    }

    /// The bounded fit finds the exact weights of a target in the columns' span, and holds a
    /// weight at the bound where the unbounded fit would go below it.
    #[test]
    fn the_fit_recovers_exact_weights_and_keeps_the_bound() {
        let a: Vec<f64> = (1..=12).map(|q| 1.0 + f64::from(q)).collect();
        let b: Vec<f64> = (1..=12).map(|q| f64::from(q).sqrt()).collect();
        let columns = [a.clone(), b.clone()];
        let target: Vec<f64> = a.iter().zip(&b).map(|(x, y)| 0.3 * x + 0.7 * y).collect();
        let fit = bounded_fit(&columns, &target, -0.1);
        assert!(
            (fit[0] - 0.3).abs() < 1e-12 && (fit[1] - 0.7).abs() < 1e-12,
            "{fit:?}"
        );
        let below: Vec<f64> = a.iter().zip(&b).map(|(x, y)| -0.5 * x + 1.5 * y).collect();
        let held = bounded_fit(&columns, &below, -0.1);
        assert_eq!(held[0], -0.1, "{held:?}");
        // With `a` held at -0.1, `b`'s weight is the one-column fit of what is left.
        let rest: Vec<f64> = below.iter().zip(&a).map(|(t, x)| t + 0.1 * x).collect();
        let scaled_b: Vec<f64> = b.iter().zip(&below).map(|(x, t)| x / t).collect();
        let scaled_rest: Vec<f64> = rest.iter().zip(&below).map(|(r, t)| r / t).collect();
        let alone = least_squares(&[scaled_b], &scaled_rest).expect("one column");
        assert!((held[1] - alone[0]).abs() < 1e-12, "{held:?} vs {alone:?}");
    }

    /// A face at a node's own depth takes that node alone, and the weights of every depth
    /// between the first and the last node sum to within 5% of 1 and keep the bound (on the
    /// slope of the grid-models bench: 0.5 m to 2 m on 5 cm cells, 512 a side, dt = 0.02 s,
    /// placed with 3 nodes where the straight line between two took 5).
    #[test]
    fn the_slope_of_the_bench_takes_three_nodes_with_bounded_weights() {
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        let cell = 0.05;
        let (k_lo, k_hi) = (
            std::f64::consts::TAU / (512.0 * cell),
            std::f64::consts::TAU / (4.0 * cell),
        );
        let ks: Vec<f64> = (0..48)
            .map(|i| k_lo * (k_hi / k_lo).powf(f64::from(i) / 47.0))
            .collect();
        let (weights, error) = place_nodes(&airy, (0.5, 2.0), regime_limits(k_lo, k_hi), &ks, 0.02);
        assert_eq!(weights.nodes().len(), 3, "{:?}", weights.nodes());
        assert!(error <= NODE_TOLERANCE, "{error}");
        for (j, &n) in weights.nodes().iter().enumerate() {
            assert_eq!(weights.of(n), vec![(j, 1.0)]);
        }
        for i in 0..=300 {
            let d = 0.5 + 1.5 * f64::from(i) / 300.0;
            let of = weights.of(d);
            let sum: f64 = of.iter().map(|&(_, w)| w).sum();
            assert!((sum - 1.0).abs() < 0.05, "{d}: {of:?}");
            assert!(of.iter().all(|&(_, w)| w >= LOWEST_WEIGHT), "{d}: {of:?}");
        }
    }
}
