//! A batch of surface queries on a GPU scene is answered a frame later from patches read back
//! without waiting (100 bytes a point), exactly as the whole field read back answers for the
//! same step (and as the blocking query does), in a y-up scene, with and without an ambient
//! sea around the grid.

use glam::Vec3;
use water_core::ocean::{AmbientSea, SeaWithWater};
use water_core::{
    Boundary, Damping, GridMode, GridSize, HeightSource, LandMask, SurfaceSample, WaveParams,
};
use water_gpu::{wgpu, DeviceTraffic};
use water_scene::{Backend, GridSpec, Scene, SceneSettings, UpAxis};
use water_testkit::gpu_or_return;
use water_testkit::setup::cosine_impulse;

#[test]
fn batched_queries_answer_a_frame_later_as_the_blocking_query_does() {
    let gpu = gpu_or_return!("batched_queries_answer_a_frame_later_as_the_blocking_query_does");
    let size = GridSize::new(96, 64).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.999)).expect("params");
    // y-up: a point (x, y, z) is over the water's (x, -z).
    let points: Vec<Vec3> = (0..40)
        .map(|i| Vec3::new(0.23 * i as f32, 0.3, -0.15 * i as f32))
        .chain([Vec3::new(-1.0, 0.0, -1.0), Vec3::new(4.0, 0.0, -6.39)])
        .collect();
    for backend in [Backend::Gpu, Backend::GpuFragment] {
        for sea in [
            None,
            Some(AmbientSea::regular_wave(0.2, 8.0, 9.81, None, 0.3)),
        ] {
            let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
            let settings = SceneSettings {
                backend,
                up: UpAxis::Y,
                ..SceneSettings::default()
            };
            let mut scene =
                Scene::new(spec, LandMask::empty(size), settings, Some(&gpu)).expect("scene");
            scene.set_ocean(sea.clone().map(|s| s.expect("sea")));
            scene.add_impulse(cosine_impulse(40.0, 30.0, 8.0, 0.4));
            scene.step_many(20).expect("steps");
            // What the whole field read back says (the sea at the same step added).
            let snapshot = scene
                .water()
                .gpu()
                .expect("gpu")
                .height_snapshot()
                .expect("read");
            let view = snapshot.view();
            let sea_frame = scene.sea_frame().cloned();
            let expected: Vec<_> = points
                .iter()
                .map(|&p| {
                    let w = UpAxis::Y.to_water(p);
                    let s = match &sea_frame {
                        Some(frame) => SeaWithWater::new(frame, &view).surface_at(w),
                        None => view.surface_at(w),
                    };
                    s.map(|s| SurfaceSample {
                        point: UpAxis::Y.from_water(s.point),
                        normal: UpAxis::Y.from_water(s.normal),
                        up: UpAxis::Y.from_water(s.up),
                    })
                })
                .collect();
            // The blocking query reads 5 x 5 cells a point, and says the same.
            let blocking: Vec<_> = points
                .iter()
                .map(|&p| scene.surface_at(p).expect("blocking query"))
                .collect();
            assert_eq!(blocking, expected, "{backend}");
            let before = DeviceTraffic::on_this_thread();
            let mut query = scene.query_surfaces(&points).expect("ask");
            // The game goes on: the answers are still of the water the query was asked on.
            scene.step().expect("step");
            let answers = loop {
                if let Some(answers) = scene.surfaces(&mut query).expect("answers") {
                    break answers;
                }
                let _ = gpu.device.poll(wgpu::PollType::Poll);
                std::thread::yield_now();
            };
            let used = DeviceTraffic::on_this_thread().since(before);
            assert_eq!(query.step(), 20);
            assert_eq!(answers, expected, "{backend} sea {}", sea.is_some());
            assert!(answers[..40].iter().all(Option::is_some));
            // Off the grid: nothing without a sea, the sea alone with one.
            assert_eq!(answers[40].is_some(), sea.is_some());
            assert_eq!(used.blocking_waits, 0, "{used:?}");
            // 5 x 5 cells a point, fewer where the rim clips them.
            let bytes = used.bytes_read_back;
            assert!(
                (points.len() as u64 * 36..=points.len() as u64 * 100).contains(&bytes),
                "{used:?}"
            );
        }
    }
}
