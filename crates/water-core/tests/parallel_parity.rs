//! Determinism: serial and parallel steps give the same bits, for every mode and boundary.

mod support;

use glam::Vec2;
use water_core::{
    Boundary, ClassicGrid, ContactMasks, Damping, GridSize, GridWater, Impulse, ImpulseShape,
    LandMask, Parallelism, SignedGrid, SplitGrid,
};

fn scenario(water: &mut dyn GridWater, parallelism: Parallelism) -> Vec<u32> {
    let size = water.size();
    water.set_parallelism(parallelism);
    let mut land = LandMask::empty(size);
    land.add_rect(100, 40, 130, 60).expect("land");
    water.set_land(land).expect("land");
    let amp = if water.mode() == water_core::GridMode::Classic {
        900.0
    } else {
        0.3
    };
    let mut contacts = ContactMasks::new(size, amp * 0.1).expect("masks");
    for step in 0..60usize {
        if step % 20 == 0 {
            let c = Vec2::new(40.0 + step as f32, 70.0 + step as f32 * 0.5);
            water.add_impulse(&Impulse::new(c, 7.0, amp, ImpulseShape::Drop).expect("impulse"));
        }
        let mut mask = vec![0.0; size.cells()];
        for x in 0..6 {
            mask[size.index(150 + step + x, 100)] = 1.5;
        }
        contacts.advance(&mask).expect("mask");
        water.step_with_contacts(&contacts).expect("step");
        water.step();
    }
    water.heights().iter().map(|v| v.to_bits()).collect()
}

#[test]
fn serial_and_parallel_runs_agree_bit_for_bit() {
    let size = GridSize::new(301, 203).expect("size");
    let params = support::params_for(0.3, Damping::PerStep(0.998));
    // Four threads give four bands even on a two-core machine, so every band seam is crossed.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("pool");
    for boundary in Boundary::ALL {
        let make: [Box<dyn Fn() -> Box<dyn GridWater> + Sync>; 2] = [
            Box::new(move || Box::new(SignedGrid::new(size, params, boundary))),
            Box::new(move || Box::new(SplitGrid::new(size, params, boundary))),
        ];
        for new in &make {
            let serial = scenario(new().as_mut(), Parallelism::Serial);
            let parallel = pool.install(|| scenario(new().as_mut(), Parallelism::Parallel));
            assert!(serial.iter().any(|&b| b != 0));
            assert_eq!(serial, parallel, "{boundary}");
        }
    }
    let classic = || ClassicGrid::new(size, 1.0, Some(5)).expect("grid");
    let serial = scenario(&mut classic(), Parallelism::Serial);
    let parallel = pool.install(|| scenario(&mut classic(), Parallelism::Parallel));
    assert_eq!(serial, parallel, "classic");
}
