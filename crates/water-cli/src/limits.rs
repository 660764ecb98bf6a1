//! Limits checked before any work starts: worker threads, and the memory a run will need.
//!
//! A grid, a sphere or a render that does not fit must be refused with the figure, not abort
//! half-way (the allocator's abort prints no cause and leaves partial files). Each command
//! estimates its bytes up front ([`grid_bytes`], [`render_bytes`]; sphere scenarios are checked
//! when parsed, which builds the sphere) and [`check_memory`] compares the estimate with the
//! memory the process can have (see [`water_scene::scenario::memory`]).

use water_core::{GridMode, GridSize};

pub use water_scene::scenario::memory::{
    available_memory, check_memory, check_memory_within, MemoryError, FALLBACK_MEMORY_CAP,
};

/// Most worker threads per available core. More only adds switching (100,000 threads ran for
/// minutes at a load average of 900); a few per core still lets a benchmark show
/// oversubscription.
pub const THREADS_PER_CORE: usize = 4;

/// The largest `--threads` this machine accepts: [`THREADS_PER_CORE`] times its available
/// parallelism.
#[must_use]
pub fn max_threads() -> usize {
    THREADS_PER_CORE * std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// `--threads`, or all cores without one.
///
/// # Errors
/// 0 threads, or more than [`max_threads`], named with the limit.
pub fn threads(requested: Option<usize>) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let Some(n) = requested else {
        return Ok(cores);
    };
    let max = max_threads();
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "--threads is {n}, but it must be 1 to {max} ({THREADS_PER_CORE} per core on \
             {cores} cores)"
        ))
    }
}

/// Bytes a grid run holds at once: both time levels of every channel, the land and contact
/// masks and their scratch, and the outputs (a copy of the heights per channel, the `.npy`
/// encoding, the picture and the sort behind its colour scale).
#[must_use]
pub fn grid_bytes(size: GridSize, mode: GridMode) -> u64 {
    let state = match mode {
        GridMode::Classic => 2 * 2 + 4, // i16 levels, and the f32 delta of an impulse
        GridMode::Split => 2 * 2 * 4,
        _ => 2 * 4,
    };
    let channels: u64 = if mode == GridMode::Split { 3 } else { 1 };
    // Land (1), contact masks new/old and their scratch (3 x 4).
    let masks = 1 + 3 * 4;
    // Heights copied out (4 per channel), encoded (4 per channel), RGB picture (3), the colour
    // scale's copy of |z| (4).
    let outputs = channels * 8 + 3 + 4;
    size.cells() as u64 * (state + masks + outputs)
}

/// Bytes a scenario's grid holds while it runs: [`grid_bytes`], and for the dispersive model
/// its spectral tables and sponge too ([`water_core::DispersiveGrid::bytes`]).
#[must_use]
pub fn scenario_grid_bytes(scenario: &water_scene::scenario::Scenario) -> u64 {
    let size = scenario.size;
    let spectral = if scenario.dispersion.is_some() {
        // Its levels are in `grid_bytes` already.
        water_core::DispersiveGrid::bytes(size, scenario.boundary)
            .saturating_sub(size.cells() as u64 * 8)
    } else {
        0
    };
    grid_bytes(size, scenario.mode).saturating_add(spectral)
}

/// Bytes a render holds at once: one RGBA frame read back, its PNG encoding and the GIF
/// encoder's indexed copy (4 + 4 + 1 per pixel, twice for the encoders' working copies).
#[must_use]
pub fn render_bytes(width: u32, height: u32) -> u64 {
    u64::from(width) * u64::from(height) * 18
}

/// Room a software adapter's shader compiler needs beside a render, bytes: lavapipe compiles
/// each pipeline on first use with LLVM, which aborts the process (no error to catch) when it
/// cannot map its code. Measured: the harbour's 640 x 400 render aborts with about 50 MiB of
/// address space left after the device is made, and finishes with about 150 MiB.
pub const SOFTWARE_COMPILER_BYTES: u64 = 128 << 20;

/// Bytes a render's device side holds on a software adapter, whose textures are host memory:
/// the colour target, its depth buffer and the readback buffer (4 bytes a pixel each), the
/// driver's copy of the frame as it resolves and maps it (4 more), and
/// [`SOFTWARE_COMPILER_BYTES`].
#[must_use]
pub fn render_device_bytes(width: u32, height: u32) -> u64 {
    u64::from(width) * u64::from(height) * 16 + SOFTWARE_COMPILER_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_outside_one_to_the_limit_are_refused_naming_it() {
        let max = max_threads();
        assert_eq!(threads(Some(max)), Ok(max));
        for bad in [0, max + 1, 100_000] {
            let e = threads(Some(bad)).unwrap_err();
            assert!(
                e.contains(&format!("--threads is {bad}")) && e.contains(&max.to_string()),
                "{e}"
            );
        }
    }

    /// A dispersive grid counts its spectral tables and sponge besides what a wave-model grid
    /// of its size holds.
    #[test]
    fn a_dispersive_scenario_counts_its_spectral_tables() {
        let text = |model: &str| {
            format!(
                "steps = 1\n[grid]\nwidth = 128\nheight = 64\ncell_size = 0.25\n\
                 dt = 0.05\nboundary = \"absorbing\"\n{model}"
            )
        };
        let parse = |t: &str| water_scene::scenario::Scenario::parse("m.toml", t).expect("parses");
        let wave = parse(&text("wave_speed = 1.0\n"));
        let dispersive = parse(&text("model = \"dispersive\"\n"));
        let size = dispersive.size;
        assert_eq!(
            scenario_grid_bytes(&wave),
            grid_bytes(size, GridMode::Signed)
        );
        assert_eq!(
            scenario_grid_bytes(&dispersive),
            grid_bytes(size, GridMode::Signed)
                + water_core::DispersiveGrid::bytes(size, water_core::Boundary::Absorbing)
                - size.cells() as u64 * 8
        );
        assert!(
            scenario_grid_bytes(&dispersive) > scenario_grid_bytes(&wave) + size.cells() as u64 * 6
        );
    }

    /// The grid estimate against a budget the test sets (32 GiB, whatever the host has): a
    /// 32,768² split grid (over 40 GiB) is refused with both figures and the budget's source,
    /// and 64 x 64 fits the host's real memory.
    #[test]
    fn a_grid_past_the_memory_available_is_refused_with_both_figures() {
        let size = GridSize::new(32_768, 32_768).expect("size");
        let needed = grid_bytes(size, GridMode::Split);
        assert!(needed > 40 << 30, "{needed}");
        let e = check_memory_within("grid", needed, 32 << 30, "a test's 32 GiB")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("GiB") && e.contains("32.0") && e.contains("a test's 32 GiB"),
            "{e}"
        );
        check_memory(
            "small grid",
            grid_bytes(GridSize::new(64, 64).expect("size"), GridMode::Signed),
        )
        .expect("64 x 64 fits");
    }
}
