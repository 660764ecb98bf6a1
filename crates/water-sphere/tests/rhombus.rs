//! The rhombus layout: every vertex in one owned cell, halos that hold each vertex's ring in slot
//! order, and steps that give the gather layout's bits for both steppers, with clicks, edits,
//! corners and threads.

use std::collections::HashSet;

use water_core::{Damping, Parallelism};
use water_sphere::offsets;
use water_sphere::NO_NEIGHBOUR;
use water_sphere::{Icosphere, SphereImpulse, SphereLayout, SphereStepper, SphereWater};
use water_sphere::{DIRECTIONS, RHOMBI};

fn mean_water(level: u32) -> SphereWater {
    let sphere = Icosphere::new(level, 1.0).expect("sphere");
    SphereWater::new(
        sphere,
        SphereStepper::Mean { a: 0.9 },
        Damping::PerStep(0.999),
    )
    .expect("water")
}

fn laplace_beltrami_water(level: u32) -> SphereWater {
    let sphere = Icosphere::new(level, 2.0).expect("sphere");
    let probe = SphereWater::new(
        sphere.clone(),
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt: 1e-6,
        },
        Damping::NONE,
    )
    .expect("probe");
    let dt = 0.9 * probe.max_stable_coefficient().sqrt();
    SphereWater::new(
        sphere,
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt,
        },
        Damping::PerSecond(0.9),
    )
    .expect("water")
}

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn scatter_then_gather_returns_every_vertex_exactly_once() {
    for level in 0..=6 {
        let water = mean_water(level);
        let layout = water.rhombus_layout();
        let vertices = water.heights().len();
        let n = layout.side();
        assert_eq!(n, 1 << level);
        assert_eq!(RHOMBI * n * n + 2, vertices, "level {level}");

        let mut owned: HashSet<usize> = (0..RHOMBI)
            .flat_map(|r| (0..n).flat_map(move |j| (0..n).map(move |i| (r, i, j))))
            .map(|(r, i, j)| layout.cell(r, i as isize, j as isize))
            .collect();
        owned.extend(layout.pole_cells());
        let cells: HashSet<usize> = layout.cells().iter().map(|&c| c as usize).collect();
        assert_eq!(cells.len(), vertices, "level {level}: one cell per vertex");
        assert_eq!(cells, owned, "level {level}: the owned cells and the poles");

        const UNTOUCHED: u32 = u32::MAX;
        let ids: Vec<u32> = (0..vertices as u32).collect();
        let mut padded = vec![UNTOUCHED; layout.len()];
        layout.scatter(&ids, &mut padded);
        assert_eq!(
            padded.iter().filter(|&&c| c != UNTOUCHED).count(),
            vertices,
            "level {level}: scatter writes only owned cells"
        );
        let mut back = vec![UNTOUCHED; vertices];
        layout.gather(&padded, &mut back);
        assert_eq!(back, ids, "level {level}");
    }
}

#[test]
fn the_halo_holds_every_six_neighbour_vertexs_ring_in_slot_order() {
    for level in 1..=6 {
        let water = mean_water(level);
        let (layout, table) = (water.rhombus_layout(), water.slot_table());
        let adjacency = water.adjacency();
        let vertices = water.heights().len();
        let ids: Vec<u32> = (0..vertices as u32).collect();
        let mut padded = vec![u32::MAX; layout.len()];
        layout.scatter(&ids, &mut padded);
        layout.exchange_halo(&mut padded);

        let corners: HashSet<u32> = layout.corners().into_iter().collect();
        let five: HashSet<u32> = (0..vertices as u32)
            .filter(|&v| adjacency.neighbours(v as usize).len() == 5)
            .collect();
        assert_eq!(
            corners, five,
            "level {level}: the corners are the pentagons"
        );

        let offsets = offsets(layout.stride());
        for v in 0..vertices {
            let ring = adjacency.neighbours(v);
            let slots: Vec<u32> = (0..ring.len()).map(|s| table.indices()[s][v]).collect();
            let start = ring.iter().position(|&u| u == slots[0]).expect("in ring");
            let turned: Vec<u32> = (0..ring.len())
                .map(|s| ring[(start + s) % ring.len()])
                .collect();
            assert_eq!(slots, turned, "vertex {v}: slots are the ring, turned");
            if corners.contains(&(v as u32)) {
                assert_eq!(layout.first_neighbours()[v], NO_NEIGHBOUR);
                assert_eq!(table.indices()[5][v], v as u32, "a pentagon's spare slot");
                continue;
            }
            let cell = layout.cells()[v] as usize;
            for (s, offset) in offsets.into_iter().enumerate() {
                assert_eq!(
                    padded[cell.wrapping_add_signed(offset)],
                    slots[s],
                    "level {level}, vertex {v}, direction {:?}",
                    DIRECTIONS[s]
                );
            }
        }
    }
}

/// Runs `steps` steps in segments, clicking and editing between them, on `water` in both
/// layouts; returns both runs' levels after each segment.
fn run(mut water: SphereWater, layout: SphereLayout, threads: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
    water.set_layout(layout);
    water.set_parallelism(Parallelism::Parallel);
    let clicks = [
        SphereImpulse::new(glam::Vec3::new(0.3, 1.0, -0.2), 0.5, 0.02).expect("click"),
        // On a pole (corner 0 of the icosahedron lies in the x-y plane) and an edge region.
        SphereImpulse::new(glam::Vec3::new(-1.0, 1.618, 0.0), 0.3, -0.015).expect("click"),
        SphereImpulse::new(glam::Vec3::new(0.0, -0.2, -1.0), 1.2, 0.01).expect("click"),
    ];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| {
        let mut out = Vec::new();
        for (segment, click) in clicks.iter().cycle().take(6).enumerate() {
            water.add_impulse(click);
            // Edits through the vertex-order levels reach the next step.
            if segment == 3 {
                let (cur, old) = water.levels_mut();
                cur[7] += 0.01;
                old[11] -= 0.02;
            }
            if segment == 4 {
                water.heights_mut()[3] -= 0.005;
            }
            water.step_many(50);
            out.push((bits(water.heights()), bits(water.previous())));
        }
        out
    })
}

#[test]
fn both_layouts_give_the_same_bits_for_both_steppers_with_clicks() {
    for level in 0..=6 {
        for (name, make) in [
            ("mean", mean_water as fn(u32) -> SphereWater),
            ("laplace-beltrami", laplace_beltrami_water),
        ] {
            let water = make(level);
            let gather = run(water.clone(), SphereLayout::Gather, 1);
            let moved = gather
                .last()
                .map(|(cur, _)| cur.iter().filter(|&&b| f32::from_bits(b) != 0.0).count());
            assert!(
                moved > Some(water.heights().len() / 2),
                "{name} level {level}: the waves reached most vertices"
            );
            for threads in [1, 2, 3] {
                let rhombus = run(water.clone(), SphereLayout::Rhombus, threads);
                for (segment, (g, r)) in gather.iter().zip(&rhombus).enumerate() {
                    assert!(
                        g == r,
                        "{name} level {level}, {threads} threads: segment {segment} differs"
                    );
                }
            }
        }
    }
}

#[test]
fn corners_step_with_their_five_neighbours() {
    let mut water = mean_water(3);
    let layout = water.rhombus_layout().clone();
    let n = water.heights().len();
    // A spike on every corner and nowhere else: after one step each corner has lost
    // a * (1 - 0) of it to its five neighbours' mean, and each neighbour gained a / 6.
    let mut spikes = vec![0.0f32; n];
    for c in layout.corners() {
        spikes[c as usize] = 1.0;
    }
    water.set_at_rest(&spikes).expect("shape");
    let mut gather = water.clone();
    gather.set_layout(SphereLayout::Gather);
    water.step();
    gather.step();
    assert_eq!(bits(water.heights()), bits(gather.heights()));
    let (a, d) = (0.9f64, 0.999f64);
    for c in layout.corners() {
        let z = f64::from(water.heights()[c as usize]);
        assert!((z - d * (1.0 - a)).abs() < 1e-6, "corner {c}: {z}");
        for &u in water.adjacency().neighbours(c as usize) {
            let z = f64::from(water.heights()[u as usize]);
            assert!(
                (z - d * a / 6.0).abs() < 1e-6,
                "neighbour {u} of corner {c}: {z}"
            );
        }
    }
}

#[test]
fn switching_layouts_mid_run_keeps_the_water() {
    let mut one = laplace_beltrami_water(4);
    let click = SphereImpulse::new(glam::Vec3::X, 0.6, 0.03).expect("click");
    one.add_impulse(&click);
    let mut other = one.clone();
    other.set_layout(SphereLayout::Gather);
    assert_eq!(one.layout(), SphereLayout::Rhombus);
    assert_eq!(other.layout(), SphereLayout::Gather);
    for round in 0..4 {
        one.step_many(25);
        other.step_many(25);
        // Swap layouts each round: the water must carry over exactly.
        let next = |l| match l {
            SphereLayout::Rhombus => SphereLayout::Gather,
            SphereLayout::Gather => SphereLayout::Rhombus,
        };
        one.set_layout(next(one.layout()));
        other.set_layout(next(other.layout()));
        assert_eq!(bits(one.heights()), bits(other.heights()), "round {round}");
        assert_eq!(
            bits(one.previous()),
            bits(other.previous()),
            "round {round}"
        );
        assert_eq!(one.volume(), other.volume());
    }
    assert!(one.heights().iter().any(|&z| z.abs() > 1e-4));
}
