//! Sphere water on the GPU (compute) agrees with the CPU for both steppers, with clicks, over
//! 300 steps.

use glam::Vec3;
use water_core::Damping;
use water_gpu::SphereComputeWater;
use water_sphere::{Click, Icosphere, SphereStepper, SphereWater};
use water_testkit::{compare_f32, gpu_or_skip, F32_TOLERANCE};

#[test]
fn gpu_sphere_steps_match_the_cpu() {
    let Some(gpu) = gpu_or_skip("gpu_sphere_steps_match_the_cpu") else {
        return;
    };
    let sphere = Icosphere::new(4, 1.0).expect("sphere");
    for stepper in [
        SphereStepper::Mean { a: 0.6 },
        SphereStepper::LaplaceBeltrami {
            wave_speed: 0.5,
            dt: 0.01,
        },
    ] {
        let mut cpu =
            SphereWater::new(sphere.clone(), stepper, Damping::PerStep(0.998)).expect("cpu");
        let mut gpu_water = SphereComputeWater::new(&gpu.device, &gpu.queue, &cpu).expect("gpu");
        let clicks = [
            Click::new(Vec3::Z, 0.4, 0.05).expect("click"),
            Click::new(Vec3::new(1.0, -0.5, 0.2), 0.3, -0.03).expect("click"),
        ];
        for click in &clicks {
            cpu.click(click);
            gpu_water.click(click).expect("click");
            cpu.step_many(150);
            gpu_water.step_many(150).expect("steps");
        }
        let reference = cpu.heights().to_vec();
        assert!(
            reference.iter().any(|z| z.abs() > 1e-3),
            "the clicks made waves"
        );
        let name = format!("sphere-{stepper:?}").replace([' ', '{', '}', ':', ','], "");
        let c = compare_f32(
            &name,
            reference.len(),
            &reference,
            &gpu_water.heights().expect("heights"),
            F32_TOLERANCE,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        eprintln!("{name}: max |diff| {:.2e} of {:.2e}", c.max_abs, c.scale);
    }
}
