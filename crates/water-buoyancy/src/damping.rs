//! Drag as a 6 x 6 damping matrix on a body's velocities `(v, omega)`, so the integrator can
//! take it implicitly: `(M + h D) q1 = M q0 + h F` never lets drag reverse a velocity or grow
//! it, whatever the drag coefficient and the step (see `docs/math.md` section 10).

use glam::{DVec3, Vec3};

/// A symmetric positive semi-definite damping matrix `D`: the drag wrench is `-D (v, omega)`
/// (N, N m; world axes, about the centre of mass).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Damping {
    m: [[f64; 6]; 6],
}

impl Damping {
    /// Adds drag `-c (v + omega x r)` acting at `r` from the centre of mass (`c` in N s/m):
    /// `c J^T J` with `J = [1, -[r]x]`.
    pub fn add_point(&mut self, c: f32, r: Vec3) {
        if c <= 0.0 {
            return;
        }
        let c = f64::from(c);
        let r = r.as_dvec3();
        // Columns of J: the velocity at r per unit of each generalized velocity.
        let cols: [DVec3; 6] = [
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            DVec3::X.cross(r),
            DVec3::Y.cross(r),
            DVec3::Z.cross(r),
        ];
        for (i, a) in cols.iter().enumerate() {
            for (j, b) in cols.iter().enumerate() {
                self.m[i][j] += c * a.dot(*b);
            }
        }
    }

    /// Adds the torque `-k omega` (`k` in N m s).
    pub fn add_angular(&mut self, k: f32) {
        for i in 3..6 {
            self.m[i][i] += f64::from(k.max(0.0));
        }
    }

    /// `D q`.
    pub fn apply(&self, q: [f64; 6]) -> [f64; 6] {
        let mut out = [0.0; 6];
        for (o, row) in out.iter_mut().zip(&self.m) {
            *o = row.iter().zip(&q).map(|(a, b)| a * b).sum();
        }
        out
    }

    /// Solves `(mass + h D) q = rhs + h R` for a symmetric positive definite `mass` (Cholesky;
    /// `D` is positive semi-definite, so the sum is positive definite; `None` when rounding
    /// broke that, which only a non-finite input can do), subject to the linear constraints
    /// `c . q = b` of `constraints` (a tow's, [`crate::Tow`]; independent rows), `R` the reaction
    /// that holds them: `R = C^T mu / h` with one multiplier per constraint (Lagrange's), so it
    /// does no work on any motion the constraints leave free. Returns `(q, R)`, `R` a force and
    /// a torque (N, N m). Drag stays implicit on the free motion, including through its coupling
    /// to the held one (drag below the centre of mass of a body held at speed pitches it).
    pub fn solve_constrained(
        &self,
        mass: [[f64; 6]; 6],
        h: f64,
        rhs: [f64; 6],
        constraints: &[([f64; 6], f64)],
    ) -> Option<([f64; 6], [f64; 6])> {
        let mut a = mass;
        for (row, d) in a.iter_mut().zip(&self.m) {
            for (x, y) in row.iter_mut().zip(d) {
                *x += h * y;
            }
        }
        let factor = cholesky(a)?;
        let free = factor.solve(rhs);
        if constraints.is_empty() {
            return Some((free, [0.0; 6]));
        }
        // q = free + A^-1 C^T mu with (C A^-1 C^T) mu = b - C free: a small SPD system.
        let responses: Vec<[f64; 6]> = constraints.iter().map(|(c, _)| factor.solve(*c)).collect();
        let n = constraints.len();
        let mut schur = vec![vec![0.0; n + 1]; n];
        for (i, (ci, bi)) in constraints.iter().enumerate() {
            for (j, response) in responses.iter().enumerate() {
                schur[i][j] = dot(ci, response);
            }
            schur[i][n] = bi - dot(ci, &free);
        }
        let mu = gauss(schur)?;
        let mut q = free;
        let mut reaction = [0.0; 6];
        for ((response, (c, _)), m) in responses.iter().zip(constraints).zip(&mu) {
            for k in 0..6 {
                q[k] += m * response[k];
                reaction[k] += m * c[k] / h;
            }
        }
        Some((q, reaction))
    }
}

fn dot(a: &[f64; 6], b: &[f64; 6]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The lower triangle `L` with `L L^T = a`, for a symmetric positive definite `a`.
struct Cholesky([[f64; 6]; 6]);

fn cholesky(mut a: [[f64; 6]; 6]) -> Option<Cholesky> {
    for j in 0..6 {
        let row_j = a[j];
        let diag = row_j[j] - row_j[..j].iter().map(|x| x * x).sum::<f64>();
        if diag.is_nan() || diag <= 0.0 {
            return None;
        }
        let l = diag.sqrt();
        a[j][j] = l;
        for row_i in a.iter_mut().skip(j + 1) {
            let dot: f64 = row_i[..j].iter().zip(&row_j[..j]).map(|(x, y)| x * y).sum();
            row_i[j] = (row_i[j] - dot) / l;
        }
    }
    Some(Cholesky(a))
}

impl Cholesky {
    /// `a^-1 b`.
    fn solve(&self, b: [f64; 6]) -> [f64; 6] {
        let a = &self.0;
        let mut y = b;
        for i in 0..6 {
            for k in 0..i {
                y[i] -= a[i][k] * y[k];
            }
            y[i] /= a[i][i];
        }
        for i in (0..6).rev() {
            for k in i + 1..6 {
                y[i] -= a[k][i] * y[k];
            }
            y[i] /= a[i][i];
        }
        y
    }
}

/// Solves the `n x (n + 1)` augmented system by elimination with partial pivoting; `None` for a
/// singular one (dependent constraints).
fn gauss(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = m.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        // Zero or NaN: the constraints are dependent (or not finite).
        if m[pivot][col].abs().partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        m.swap(col, pivot);
        let (done, rest) = m.split_at_mut(col + 1);
        let pivot_row = &done[col];
        for row in rest.iter_mut() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][n] - tail) / m[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 kg point at the centre of mass with 1000 N s/m of drag: its damping and its mass
    /// matrix (2 kg on the diagonal, as its inertia too).
    fn dragged_point() -> (Damping, [[f64; 6]; 6]) {
        let mut d = Damping::default();
        d.add_point(1000.0, Vec3::ZERO);
        let mut mass = [[0.0; 6]; 6];
        for (i, row) in mass.iter_mut().enumerate() {
            row[i] = 2.0;
        }
        (d, mass)
    }

    #[test]
    fn implicit_drag_decays_a_velocity_without_reversing_it() {
        // A 2 kg point with 1000 N s/m of drag, h = 1 s: explicit Euler would flip the velocity
        // to 1 - 500 = -499 times itself; the implicit step divides by 1 + 500.
        let (d, mass) = dragged_point();
        let (q, reaction) = d
            .solve_constrained(mass, 1.0, [2.0 * 3.0, 0.0, 0.0, 0.0, 0.0, 0.0], &[])
            .unwrap();
        assert_eq!(reaction, [0.0; 6]);
        assert!((q[0] - 3.0 / 501.0).abs() < 1e-12, "{q:?}");
    }

    #[test]
    fn a_held_velocity_stays_held_and_its_reaction_is_the_force_that_holds_it() {
        // A 2 kg point held at 3 m/s along x against 1000 N s/m of drag: the held velocity is
        // exactly 3 and the reaction is the drag it overcomes, c v = 3000 N; the free velocity
        // along y decays as without the hold.
        let (d, mass) = dragged_point();
        let held = [([1.0, 0.0, 0.0, 0.0, 0.0, 0.0], 3.0)];
        let (q, reaction) = d
            .solve_constrained(mass, 1.0, [2.0 * 3.0, 2.0 * 3.0, 0.0, 0.0, 0.0, 0.0], &held)
            .unwrap();
        assert!((q[0] - 3.0).abs() < 1e-12, "{q:?}");
        assert!((q[1] - 3.0 / 501.0).abs() < 1e-12, "{q:?}");
        assert!((reaction[0] - 3000.0).abs() < 1e-9, "{reaction:?}");
        assert_eq!(&reaction[1..], &[0.0; 5]);
        // Held along a diagonal instead: that component is held, the one across it is free.
        let diagonal = std::f64::consts::FRAC_1_SQRT_2;
        let held = [([diagonal, diagonal, 0.0, 0.0, 0.0, 0.0], 3.0)];
        let (q, _) = d.solve_constrained(mass, 1.0, [0.0; 6], &held).unwrap();
        assert!(((q[0] + q[1]) * diagonal - 3.0).abs() < 1e-12, "{q:?}");
        assert!((q[0] - q[1]).abs() < 1e-12, "{q:?}");
    }

    #[test]
    fn drag_off_the_centre_of_mass_also_resists_rotation() {
        // Drag at r = x: spinning about z moves that point along y, so D couples omega_z to v_y
        // and damps omega_z with c |r|^2.
        let mut d = Damping::default();
        d.add_point(3.0, Vec3::X);
        let f = d.apply([0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert!(
            (f[1] - 3.0).abs() < 1e-12 && (f[5] - 3.0).abs() < 1e-12,
            "{f:?}"
        );
        assert!(f[0].abs() < 1e-12 && f[2].abs() < 1e-12 && f[3].abs() < 1e-12);
    }
}
