//! An icosphere or sphere water larger than the memory the process may have is an error that
//! names the bytes, not an abort: both constructors ask the allocator for their whole build
//! first. Checked for real, in a child process under an address-space limit (`ulimit -v`).

#[path = "../../water-core/tests/support/address_limit.rs"]
mod address_limit;

use water_core::{Damping, WaterError};
use water_sphere::{Icosphere, SphereError, SphereStepper, SphereWater};

/// The child's address-space limit, KiB: 768 MiB, below each refused build alone (839 MB and
/// 1.3 GB) and well above each accepted one with the test binary (at most 335 MB).
const LIMIT_KIB: u64 = 768 << 10;

/// Set in the child process.
const CHILD: &str = "WATER_SPHERE_OUT_OF_MEMORY_CHILD";

fn refused_bytes(result: Result<impl Sized, SphereError>) -> u64 {
    match result {
        Err(SphereError::Invalid(WaterError::OutOfMemory { bytes, .. })) => bytes,
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("built past the limit"),
    }
}

/// What the child runs under the limit.
fn spheres_past_the_limit_are_refused() {
    // Level 10: 10,485,762 vertices, a build of about 1.3 GB.
    let bytes = refused_bytes(Icosphere::new(10, 1.0));
    assert_eq!(bytes, 10_485_762 * 128);
    // Level 8 (655,362 vertices, 84 MB to build) fits; its water, at 320 B a vertex (210 MB),
    // does too; level 9's water (2,621,442 vertices: 839 MB) on top of its sphere does not.
    let small = Icosphere::new(8, 1.0).expect("level 8 fits");
    SphereWater::new(small, SphereStepper::Mean { a: 0.5 }, Damping::NONE).expect("its water fits");
    let sphere = Icosphere::new(9, 1.0).expect("level 9's sphere fits");
    let bytes = refused_bytes(SphereWater::new(
        sphere,
        SphereStepper::Mean { a: 0.5 },
        Damping::NONE,
    ));
    assert_eq!(bytes, 2_621_442 * 320);
    println!("sphere refusals checked under the limit");
}

#[test]
fn a_sphere_past_the_memory_limit_is_an_error_not_an_abort() {
    if address_limit::in_child(CHILD) {
        spheres_past_the_limit_are_refused();
        return;
    }
    address_limit::run_child_under_limit(
        "a_sphere_past_the_memory_limit_is_an_error_not_an_abort",
        LIMIT_KIB,
        CHILD,
        "sphere refusals checked under the limit",
    );
}
