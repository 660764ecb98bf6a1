//! A mean-level correction planned for the levels at one step count and added at a later one:
//! what the record-only `encode_*` methods do, since the sums they measure come back only
//! after the caller submits (`docs/math.md`, section 9, "Recorded into the caller's encoder").

/// Amounts of one correction: per level (current, previous) two `vec4<f32>`, one per channel,
/// the plain amount in `x` and the checkerboard's in `y` (`shaders/mean_level.wgsl`).
pub(crate) type Amounts = [[f32; 8]; 2];

use water_core::kernels::mean_level::LevelAmounts;

use crate::readback::PendingReadback;

/// Per-channel amounts `(cur, old)`, each `(plain, checker)`, as [`Amounts`].
pub(crate) fn pack(amounts: &[LevelAmounts]) -> Amounts {
    let level = |pick: fn(&LevelAmounts) -> (f32, f32)| {
        let mut words = [0.0f32; 8];
        for (c, a) in amounts.iter().enumerate() {
            (words[4 * c], words[4 * c + 1]) = pick(a);
        }
        words
    };
    [level(|a| a.0), level(|a| a.1)]
}

/// Whether every amount is zero (nothing to add).
pub(crate) fn all_zero(amounts: &Amounts) -> bool {
    amounts.iter().flatten().all(|&v| v == 0.0)
}

/// A correction's amounts for the levels at step count `m`, carried to the levels `k` steps
/// later, so that adding them there gives what adding the originals at `m` and stepping would
/// (in exact arithmetic). A uniform amount is stepped as the mean is: with `u` on the current
/// level and `v` on the previous one, `u + k (u - v)` and `u + (k - 1)(u - v)`. The
/// checkerboard's `c^(j+1) = -2 c^j - c^(j-1)` makes `e^j = (-1)^j c^j` linear in `j` from
/// `e^0 = c_cur`, `e^(-1) = -c_old`: `c_cur` becomes `(-1)^k (c_cur + k (c_cur + c_old))` and
/// `c_old` becomes `(-1)^(k-1) (c_cur + (k - 1)(c_cur + c_old))`. Worked in f64, stored in
/// f32.
pub(crate) fn carry_forward(amounts: Amounts, k: u64) -> Amounts {
    let [cur, old] = amounts;
    let kf = k as f64;
    let sign = |j: f64| if j.rem_euclid(2.0) == 0.0 { 1.0 } else { -1.0 };
    let mut carried = [[0.0f32; 8]; 2];
    for c in [0, 4] {
        let (u, v) = (f64::from(cur[c]), f64::from(old[c]));
        carried[0][c] = (u + kf * (u - v)) as f32;
        carried[1][c] = (u + (kf - 1.0) * (u - v)) as f32;
        let (cu, co) = (f64::from(cur[c + 1]), f64::from(old[c + 1]));
        let rate = cu + co;
        carried[0][c + 1] = (sign(kf) * (cu + kf * rate)) as f32;
        carried[1][c + 1] = (sign(kf - 1.0) * (cu + (kf - 1.0) * rate)) as f32;
    }
    carried
}

/// A sphere's uniform amounts `(cur, old)` planned `k` steps ago, carried to now ([`carry_forward`]);
/// `None` when both are zero.
pub(crate) fn carried_uniform((cur, old): (f32, f32), k: u64) -> Option<[f32; 2]> {
    if cur == 0.0 && old == 0.0 {
        return None;
    }
    let mut amounts = [[0.0f32; 8]; 2];
    (amounts[0][0], amounts[1][0]) = (cur, old);
    let [cur, old] = carry_forward(amounts, k);
    Some([cur[0], old[0]])
}

/// Levels (or their sums) recorded into a caller's encoder at a step count, on their way back.
pub(crate) type Recorded = Option<(u64, PendingReadback)>;

/// The bytes of `recorded` and the step count they were recorded at, once they have come back
/// (after polling `device` without waiting); `recorded` is then emptied. `None` when nothing
/// is recorded or while it is on its way; a failed map empties `recorded` and gives `None` too (the next are recorded
/// in their place).
pub(crate) fn take_arrived(
    device: &wgpu::Device,
    recorded: &mut Recorded,
) -> Option<(u64, Vec<u8>)> {
    recorded.as_ref()?;
    // A failed poll means a lost device, which the next submitting call reports.
    let _ = device.poll(wgpu::PollType::Poll);
    let arrived = recorded.as_ref().and_then(|(_, r)| r.try_take())?;
    let (at, _) = recorded.take()?;
    arrived.ok().map(|bytes| (at, bytes))
}

/// Records `steps` steps of `water` into `encoder` as the record-only `encode_step_many` of
/// every backend does: `keep(water, encoder, true)` first, then runs of at most `run(water,
/// left)` steps recorded by `record`, each followed by `keep(water, encoder, false)`.
pub(crate) fn record_in_runs<W>(
    water: &mut W,
    encoder: &mut wgpu::CommandEncoder,
    steps: u64,
    run: impl Fn(&W, u64) -> u64,
    keep: impl Fn(&mut W, &mut wgpu::CommandEncoder, bool),
    record: impl Fn(&mut W, &mut wgpu::CommandEncoder, u64),
) {
    keep(water, encoder, true);
    let mut left = steps;
    while left > 0 {
        let stretch = run(water, left);
        record(water, encoder, stretch);
        left -= stretch;
        keep(water, encoder, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps a uniform pair `(cur, old)` `k` times by the mean's recurrence, and a checkerboard
    /// pair by its own.
    fn stepped(amounts: Amounts, k: u64) -> Amounts {
        let mut levels = amounts;
        for _ in 0..k {
            let [cur, old] = levels;
            let mut next = [0.0f32; 8];
            for c in [0, 4] {
                next[c] = 2.0 * cur[c] - old[c];
                next[c + 1] = -2.0 * cur[c + 1] - old[c + 1];
            }
            levels = [next, cur];
        }
        levels
    }

    #[test]
    fn carried_amounts_are_the_amounts_stepped_by_the_modes_own_recurrences() {
        // Small integers: every value below is exact in f32, so the two must agree exactly.
        let amounts = [
            [3.0, 5.0, 0.0, 0.0, -2.0, 1.0, 0.0, 0.0],
            [1.0, -4.0, 0.0, 0.0, -3.0, 2.0, 0.0, 0.0],
        ];
        for k in 0..12 {
            assert_eq!(carry_forward(amounts, k), stepped(amounts, k), "k = {k}");
        }
    }
}
