//! CPU vs compute vs fragment for every mode and boundary, with land, impulses and contact
//! sources, over 240 steps, over uniform water and (signed and split) over a varying depth with
//! dry cells, and the dispersive model (periodic and sponge edges) on the compute backend: f32
//! modes within F32_TOLERANCE, classic mode bit for bit; the fragment backend refuses the
//! dispersive model by name.

use water_core::GridMode;
use water_scene::Backend;
use water_scene::{Water as _, WaterGrid as _};
use water_testkit::scenario::{all_cases, CrossCheck};
use water_testkit::{compare_exact_i16, compare_f32, gpu_or_return, F32_TOLERANCE};

#[test]
fn every_backend_agrees_with_the_cpu_reference() {
    let gpu = gpu_or_return!("every_backend_agrees_with_the_cpu_reference");
    let mut failures = Vec::new();
    for case in all_cases() {
        assert!(case.steps >= 200);
        let width = case.spec.size.width();
        let reference = case.run(Backend::Cpu, None).expect("cpu run");
        let ref_heights = reference.heights().expect("cpu heights");
        assert!(
            ref_heights.iter().any(|&v| v != 0.0),
            "{}: the scenario moves water",
            case.name()
        );
        if case.over_depth {
            // The depth changes the water: the same run over uniform water ends elsewhere.
            let uniform = CrossCheck {
                over_depth: false,
                ..case
            };
            let flat = uniform.run(Backend::Cpu, None).expect("cpu run");
            let moved = flat
                .heights()
                .expect("cpu heights")
                .iter()
                .zip(&ref_heights)
                .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
            assert!(
                moved > 0.05,
                "{}: depth changed the heights by {moved}",
                case.name()
            );
        }
        for kind in [Backend::Gpu, Backend::GpuFragment] {
            let name = format!("{}-{}", case.name(), kind.name());
            if case.spec.dispersion.is_some() && kind == Backend::GpuFragment {
                let refused = case.run(kind, Some(&gpu)).expect_err("refused");
                assert!(
                    refused.to_string().contains("fragment backend"),
                    "{name}: {refused}"
                );
                continue;
            }
            let run = case.run(kind, Some(&gpu)).expect("gpu run");
            let outcome = if case.spec.mode == GridMode::Classic {
                compare_exact_i16(
                    &name,
                    width,
                    &reference.classic_heights().expect("cpu classic"),
                    &run.classic_heights().expect("gpu classic"),
                )
            } else {
                compare_f32(
                    &name,
                    width,
                    &ref_heights,
                    &run.heights().expect("gpu heights"),
                    F32_TOLERANCE,
                )
                .map(|c| eprintln!("{name}: max |diff| {:.2e} of {:.2e}", c.max_abs, c.scale))
            };
            if let Err(e) = outcome {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
