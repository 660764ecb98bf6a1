//! A grid larger than the memory the process may have is an error that names the bytes, not an
//! abort: the signed and split grids' `try_new` and the classic grid's `new` allocate their
//! heights fallibly, and the dispersive grid's `new` asks for its whole build (levels and
//! spectral tables) first. Checked for real, in a child process under an address-space limit
//! (`ulimit -v`), where the allocator refuses what does not fit.

#[path = "support/address_limit.rs"]
mod address_limit;

use water_core::{
    AiryDispersion, Boundary, ClassicGrid, Damping, DispersiveGrid, GridSize, SignedGrid,
    SplitGrid, WaterError, WaveParams,
};

/// The child's address-space limit, KiB: 1 GiB, room for the test binary and its threads.
const LIMIT_KIB: u64 = 1 << 20;

/// Set in the child process.
const CHILD: &str = "WATER_OUT_OF_MEMORY_CHILD";

/// The bytes a refusal names, or a panic for any other outcome.
fn refused_bytes(result: Result<impl Sized, WaterError>) -> u64 {
    match result {
        Err(WaterError::OutOfMemory { bytes, .. }) => bytes,
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a grid past the limit was allocated"),
    }
}

/// What the child runs: 32768 x 16384 cells (2 GiB per f32 level) under a 1 GiB limit.
fn grids_past_the_limit_are_refused() {
    let size = GridSize::new(32_768, 16_384).expect("within the grid limits");
    let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE).expect("params");
    let level = size.cells() as u64 * 4;
    assert_eq!(
        refused_bytes(SignedGrid::try_new(size, params, Boundary::Reflective)),
        level
    );
    assert_eq!(
        refused_bytes(SplitGrid::try_new(size, params, Boundary::Reflective)),
        level
    );
    // Classic levels hold i16: 1 GiB each, still past the limit with the binary loaded.
    assert_eq!(refused_bytes(ClassicGrid::new(size, 0.1, None)), level / 2);
    let message = SignedGrid::try_new(size, params, Boundary::Reflective)
        .expect_err("refused")
        .to_string();
    assert!(message.contains("2147483648 bytes (2.00 GiB)"), "{message}");
    // A dispersive grid whose levels alone would fit (576 MiB) but not with its spectral
    // tables (a factor and a complex work value, 12 bytes, per value of the half spectrum):
    // the whole build is refused up front, not aborted half-way.
    let wide = GridSize::new(8_192, 9_216).expect("within the grid limits");
    let airy = AiryDispersion::new(9.81, 0.0, 1000.0, Some(10.0)).expect("airy");
    let dispersive = DispersiveGrid::new(wide, 0.1, 0.01, Damping::NONE, airy, Boundary::Periodic);
    let tables = (8_192 / 2 + 1) * 9_216 * 12;
    assert_eq!(refused_bytes(dispersive), wide.cells() as u64 * 10 + tables);
    // What fits is still allocated.
    let small = GridSize::new(512, 512).expect("size");
    SignedGrid::try_new(small, params, Boundary::Reflective).expect("512 x 512 fits");
    DispersiveGrid::new(small, 0.1, 0.01, Damping::NONE, airy, Boundary::Periodic)
        .expect("a 512 x 512 dispersive grid fits");
    println!("refusals checked under the limit");
}

#[test]
fn a_grid_past_the_memory_limit_is_an_error_not_an_abort() {
    if address_limit::in_child(CHILD) {
        grids_past_the_limit_are_refused();
        return;
    }
    address_limit::run_child_under_limit(
        "a_grid_past_the_memory_limit_is_an_error_not_an_abort",
        LIMIT_KIB,
        CHILD,
        "refusals checked under the limit",
    );
}
