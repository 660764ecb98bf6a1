//! `water run` with `[grid] cascades`: writes `cascade-K.npy` for each coarser cascade, the same
//! heights the library's scene holds, and `cascades` in `summary.json`.

use water_cli::npy;
use water_scene::scenario::{Scenario, ScenarioRun};
use water_scene::Backend;

mod common;

use common::{assert_success, read_json, run_file, scratch, write_scenario};

const RIPPLE: &str = r#"steps = 50
[grid]
width = 48
height = 40
cell_size = 0.25
wave_speed = 2.0
dt = 0.05
boundary = "absorbing"
cascades = 3
[[impulse]]
x = 30.0
y = 20.0
radius = 9.0
amplitude = 0.1
"#;

#[test]
fn a_run_with_cascades_writes_each_coarser_cascade_and_where_it_is() {
    let dir = scratch("cascades-run");
    let out = dir.join("out");
    let res = run_file(&write_scenario(&dir, "ripple.toml", RIPPLE), &out, &[]);
    assert_success(&res);

    let scenario = Scenario::parse("ripple.toml", RIPPLE).expect("parses");
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, scenario.steps, None, |_| {})
        .expect("run");
    let summary = read_json(&out.join("summary.json"));
    let listed = summary["cascades"].as_array().expect("cascades");
    assert_eq!(listed.len(), 3);
    for (k, entry) in listed.iter().enumerate() {
        let origin = scene.cascade_origin(k).expect("origin");
        assert_eq!(
            entry["cell_size"].as_f64(),
            Some(0.25 * f64::from(1u32 << k))
        );
        assert_eq!(entry["width"].as_u64(), Some(48));
        assert_eq!(entry["height"].as_u64(), Some(40));
        assert_eq!(entry["origin"][0].as_f64(), Some(origin.x), "cascade {k}");
        assert_eq!(entry["origin"][1].as_f64(), Some(origin.y), "cascade {k}");
        if k == 0 {
            assert!(!out.join("cascade-0.npy").exists());
            continue;
        }
        let bytes = std::fs::read(out.join(format!("cascade-{k}.npy"))).expect("written");
        let (descr, shape, payload) = npy::read_raw(&bytes).expect("npy");
        assert_eq!((descr.as_str(), shape), ("<f4", vec![40, 48]));
        let written: Vec<f32> = payload
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let expected = scene.cascade_heights(k).expect("heights");
        assert!(
            expected.iter().any(|&z| z.abs() > 1e-3),
            "cascade {k} holds waves"
        );
        assert_eq!(written, expected, "cascade {k}");
    }
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(
        text.contains("cascades   3 of 48 x 40 cells of 0.250, 0.500, 1.000 m"),
        "{text}"
    );
}
