//! A hull asks for all its vertices' levels at once, and probes for all theirs
//! (`HeightSource::levels_at`); the ambient sea answers such a batch eight points a vector. The
//! displaced volume, its centre and the probes' wrench are the same, to the bit, as through a
//! source that answers one point at a time, on a choppy sea (where the sea's batch and single
//! reads take different code) with and without grid water on part of the hull.

use glam::{Quat, Vec3};
use water_buoyancy::{
    BodyState, Gravity, Hull, Pose, ProbeVelocity, Probes, Shape, StillWaterOutside,
};
use water_core::ocean::{AmbientSea, OceanSpec, SeaFrame, SeaWithWater, WaveSpectrum};
use water_core::{HeightSource, SurfaceLevel, SurfaceSample};

/// A source that only answers one point at a time (the trait's own `levels_at`).
struct OneAtATime<'a, S: ?Sized>(&'a S);

impl<S: HeightSource + ?Sized> HeightSource for OneAtATime<'_, S> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        self.0.surface_at(position)
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.0.level_at(position)
    }
}

/// Water 0.3 m above the still level for x < 0, none beyond (as a grid's edge).
struct HalfPond;

impl HeightSource for HalfPond {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        (position.x < 0.0).then_some(SurfaceSample {
            point: Vec3::new(position.x, position.y, 0.3),
            normal: Vec3::Z,
            up: Vec3::Z,
        })
    }
}

fn choppy_sea() -> SeaFrame {
    let spec = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 9.0 })
        .with_choppiness(0.8)
        .with_seed(5);
    AmbientSea::new(&spec, 0.2).expect("the sea").frame(3.25)
}

fn check(water: &dyn HeightSource) {
    let one = OneAtATime(water);
    // A box across the pond's edge, tilted, with enough vertices for several groups of eight.
    let hull = Hull::with_max_edge(
        Shape::cuboid(Vec3::new(1.5, 0.6, 0.4)).expect("a box"),
        Pose::IDENTITY,
        0.25,
    )
    .expect("a hull");
    assert!(
        hull.surface().vertices.len() > 40,
        "several groups of eight"
    );
    let mut wet = 0;
    for k in 0..12 {
        let k = k as f32;
        let pose = Pose::new(
            Vec3::new(-1.0 + 0.17 * k, 4.0 - 0.6 * k, 0.2 - 0.05 * k),
            Quat::from_euler(glam::EulerRot::XYZ, 0.2 * k, -0.1, 0.35 * k),
        )
        .expect("a pose");
        let batched = hull.submerged(&pose, Vec3::Z, water);
        let single = hull.submerged(&pose, Vec3::Z, &one);
        assert_eq!(batched.volume.to_bits(), single.volume.to_bits(), "{k}");
        assert_eq!(
            batched.centre.to_array().map(f32::to_bits),
            single.centre.to_array().map(f32::to_bits),
            "{k}"
        );
        wet += usize::from(batched.volume > 0.0);
        let offsets: Vec<Vec3> = (0..21)
            .map(|i| Vec3::new(0.3 * i as f32 - 3.0, 0.1 * (i % 5) as f32, -0.3))
            .collect();
        let state = BodyState {
            pose,
            linear_velocity: Vec3::new(0.5, 0.0, -0.2),
            angular_velocity: Vec3::new(0.0, 0.1, 0.0),
        };
        let wrench = |source: &dyn HeightSource| {
            let mut probes = Probes::new(offsets.clone(), 500.0, 0.3).expect("probes");
            let w = probes
                .wrench(&state, source, &Gravity::EARTH, ProbeVelocity::Body)
                .expect("a wrench");
            [w.force, w.torque].map(|v| v.to_array().map(f32::to_bits))
        };
        assert_eq!(wrench(water), wrench(&one), "{k}");
    }
    assert!(wet >= 6, "most poses wet: {wet} of 12");
}

#[test]
fn a_hull_and_probes_on_a_choppy_sea_batched_as_one_at_a_time() {
    let sea = choppy_sea();
    check(&sea);
    check(&SeaWithWater::new(&sea, &HalfPond));
}

#[test]
fn still_water_outside_answers_a_batch_as_one_point_at_a_time() {
    // Beyond the pond (x >= 0) the still level stands in, in a batch as alone, and the flag
    // that says a query fell outside is raised by the batch only where one point would be.
    let positions: Vec<Vec3> = (0..40)
        .map(|i| Vec3::new(i as f32 * 0.5 - 10.0, 1.0, -0.2))
        .collect();
    for range in [0..20, 0..40] {
        let batch_water = StillWaterOutside::new(&HalfPond, &Gravity::EARTH);
        let mut batch = vec![None; range.len()];
        batch_water.levels_at(&positions[range.clone()], &mut batch);
        let one_water = StillWaterOutside::new(&HalfPond, &Gravity::EARTH);
        let one: Vec<_> = positions[range.clone()]
            .iter()
            .map(|p| one_water.level_at(*p))
            .collect();
        assert_eq!(batch, one, "{range:?}");
        assert_eq!(batch_water.off_water(), one_water.off_water(), "{range:?}");
        assert_eq!(batch_water.off_water(), range.end > 20, "{range:?}");
    }
}
