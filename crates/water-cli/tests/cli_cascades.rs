//! `water run` with `[grid] cascades`: writes `cascade-K.npy` for each coarser cascade, the same
//! heights the library's scene holds, and `cascades` in `summary.json`.

use water_cli::npy;

mod common;

use common::{library_run, read_json, run_ok};

const RIPPLE: &str = include_str!("scenarios/ripple.toml");

#[test]
fn a_run_with_cascades_writes_each_coarser_cascade_and_where_it_is() {
    let (res, out) = run_ok("cascades-run", "ripple.toml", RIPPLE);
    let (_, scene) = library_run("ripple.toml", RIPPLE);
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
        let file = out.join(format!("cascade-{k}.npy"));
        let written = npy::read_f32_grid_file(&file, "cascade", 48, 40).expect("40 x 48 f32");
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
