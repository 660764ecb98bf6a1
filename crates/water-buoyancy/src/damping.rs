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

    /// Solves `(mass + h D) q = rhs` for a symmetric positive definite `mass` (Cholesky; `D` is
    /// positive semi-definite, so the sum is positive definite). `None` when rounding broke
    /// that, which only a non-finite input can do.
    pub fn solve(&self, mass: [[f64; 6]; 6], h: f64, rhs: [f64; 6]) -> Option<[f64; 6]> {
        let mut a = mass;
        for (row, d) in a.iter_mut().zip(&self.m) {
            for (x, y) in row.iter_mut().zip(d) {
                *x += h * y;
            }
        }
        // In-place Cholesky: the lower triangle becomes L with L L^T = a.
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
        let mut y = rhs;
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
        Some(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_drag_decays_a_velocity_without_reversing_it() {
        // A 2 kg point with 1000 N s/m of drag, h = 1 s: explicit Euler would flip the velocity
        // to 1 - 500 = -499 times itself; the implicit step divides by 1 + 500.
        let mut d = Damping::default();
        d.add_point(1000.0, Vec3::ZERO);
        let mut mass = [[0.0; 6]; 6];
        for (i, row) in mass.iter_mut().enumerate() {
            row[i] = 2.0;
        }
        let q = d
            .solve(mass, 1.0, [2.0 * 3.0, 0.0, 0.0, 0.0, 0.0, 0.0])
            .unwrap();
        assert!((q[0] - 3.0 / 501.0).abs() < 1e-12, "{q:?}");
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
