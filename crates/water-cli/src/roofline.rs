//! `water bench roofline`: the memory bandwidth a read-2/write-1 stream reaches on this machine,
//! and the stencil throughput it allows.
//!
//! A plain step reads `z` and `z_old` and writes `z_new` (12 bytes per f32 cell), so no single
//! step can update cells faster than bandwidth / 12 B. Multi-step (temporally blocked) runs
//! beat that bound by moving fewer bytes per step; the ratio says by how much.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

/// Bytes a plain step moves per cell: two f32 reads and one f32 write.
pub const BYTES_PER_CELL: f64 = 12.0;

/// What the copy kernel measured.
#[derive(Debug, Clone, Serialize)]
pub struct Roofline {
    /// `"roofline"`.
    pub bench: String,
    /// Cells per array (the grid's `size^2`).
    pub cells: usize,
    /// Threads in the pool.
    pub threads: usize,
    /// Passes timed.
    pub passes: usize,
    /// Wall time of the timed passes, seconds.
    pub seconds: f64,
    /// Bytes read and written per second, billions.
    pub gbytes_per_s: f64,
    /// Cell updates per second a plain step could reach at this bandwidth, billions.
    pub roofline_gcells_per_s: f64,
}

/// The largest `--size`: the largest grid edge ([`water_core::MAX_GRID_DIM`]; arrays of other
/// shapes than the grids' squares stream alike), three arrays of 16 GiB each.
pub const MAX_SIZE: usize = water_core::MAX_GRID_DIM;

/// Runs `c[i] = a[i] + b[i]` over three `size x size` f32 arrays `passes` times on `threads`
/// threads (one contiguous band per thread, as the stepper splits rows).
///
/// # Errors
/// A message naming the option when `size` is outside 1 to [`MAX_SIZE`], `passes` or `threads`
/// is 0, the three arrays need more memory than the machine has, or the pool cannot start.
pub fn measure(size: usize, passes: usize, threads: usize) -> Result<Roofline, String> {
    if !(1..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "--size {size} is out of range: expected 1 to {MAX_SIZE}"
        ));
    }
    if passes == 0 || threads == 0 {
        return Err("--passes and --threads must be at least 1".into());
    }
    let cells = size.checked_mul(size).ok_or_else(|| {
        format!("--size {size}: {size} x {size} cells overflow this machine's addresses")
    })?;
    crate::limits::check_memory(
        &format!("three arrays of {size} x {size} f32"),
        (cells as u64).saturating_mul(BYTES_PER_CELL as u64),
    )
    .map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let a: Vec<f32> = (0..cells).map(|i| (i % 97) as f32).collect();
    let b: Vec<f32> = (0..cells).map(|i| (i % 89) as f32).collect();
    let mut c = vec![0.0f32; cells];
    let band = cells.div_ceil(threads);
    let pass = |c: &mut [f32]| {
        c.par_chunks_mut(band).enumerate().for_each(|(k, chunk)| {
            let start = k * band;
            let (a, b) = (
                &a[start..start + chunk.len()],
                &b[start..start + chunk.len()],
            );
            for ((c, a), b) in chunk.iter_mut().zip(a).zip(b) {
                *c = a + b;
            }
        });
    };
    let seconds = pool.install(|| {
        pass(&mut c); // first touch of `c`, untimed
        let start = Instant::now();
        for _ in 0..passes {
            pass(std::hint::black_box(&mut c));
        }
        start.elapsed().as_secs_f64()
    });
    let bytes = BYTES_PER_CELL * cells as f64 * passes as f64;
    let gbytes_per_s = bytes / seconds / 1e9;
    Ok(Roofline {
        bench: "roofline".into(),
        cells,
        threads,
        passes,
        seconds,
        gbytes_per_s,
        roofline_gcells_per_s: gbytes_per_s / BYTES_PER_CELL,
    })
}
