//! `water render`: PNG frames, an animated GIF with the same frames and `render.json`, for grid
//! water (3-D, with bodies), classic water (2-D), sphere water and a grid inside an `[ocean]`
//! (the sea to the horizon under a sky); a grid that follows a `[focus]` carries the camera
//! with it; bad options are refused by name. Skipped with a reason without a GPU adapter, unless WATER_REQUIRE_GPU=1.

use std::path::Path;

mod common;

use common::{failure, scratch, stderr, water_on_gpu, write_scenario};

/// Frames in a GIF, and its size.
fn gif_frames(path: &Path) -> (usize, (u16, u16)) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).expect("gif"))
        .expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let mut count = 0;
    while decoder.read_next_frame().expect("frame").is_some() {
        count += 1;
    }
    (count, size)
}

/// `water render FILE --out OUT --frames FRAMES --size SIZE --quiet`, or `None` where the test
/// skips.
fn render_file(
    test: &str,
    file: &Path,
    out: &Path,
    frames: u32,
    size: &str,
) -> Option<std::process::Output> {
    let frames = frames.to_string();
    water_on_gpu(
        test,
        &[
            "render",
            file.to_str().expect("utf-8 path"),
            "--out",
            out.to_str().expect("utf-8 path"),
            "--frames",
            &frames,
            "--size",
            size,
            "--quiet",
        ],
    )
}

#[test]
fn render_writes_frames_and_an_animation_for_every_kind_of_water() {
    let dir = std::env::temp_dir().join(format!("water-render-{}", std::process::id()));
    for builtin in ["boat-wake", "rock-pool", "sky-aquarium", "swell"] {
        let out = dir.join(builtin);
        let out_s = out.to_str().expect("utf-8 path");
        let Some(result) = water_on_gpu(
            "render",
            &[
                "render",
                "--builtin",
                builtin,
                "--out",
                out_s,
                "--frames",
                "3",
                "--size",
                "96x64",
                "--quiet",
            ],
        ) else {
            return;
        };
        assert!(result.status.success(), "{builtin}: {}", stderr(&result));
        let mut previous: Option<water_render::RgbaImage> = None;
        for k in 0..3 {
            let frame = water_render::read_rgba_png(&out.join(format!("frame-{k:04}.png")))
                .expect("a PNG frame");
            assert_eq!((frame.width(), frame.height()), (96, 64), "{builtin}");
            let colours: std::collections::HashSet<&[u8]> = frame.pixels().chunks(4).collect();
            assert!(colours.len() > 30, "{builtin} frame {k} is nearly blank");
            if builtin == "swell" {
                // The sea to the horizon: a smooth sky along the top row, waves along the
                // bottom one.
                let spread = |row: u32| {
                    let px: Vec<[u8; 4]> = (0..96).map(|x| frame.pixel(x, row)).collect();
                    (0..3)
                        .map(|c| {
                            let v = px.iter().map(|p| p[c]);
                            v.clone().max().unwrap_or(0) - v.min().unwrap_or(0)
                        })
                        .max()
                        .unwrap_or(0)
                };
                assert!(
                    spread(0) <= 3,
                    "swell frame {k}: the top row is not sky ({})",
                    spread(0)
                );
                assert!(
                    spread(63) > 10,
                    "swell frame {k}: no waves along the bottom row"
                );
            }
            if let Some(p) = &previous {
                assert_ne!(p, &frame, "{builtin}: the water moves between frames");
            }
            previous = Some(frame);
        }
        assert!(!out.join("frame-0003.png").exists());
        assert_eq!(
            gif_frames(&out.join("water.gif")),
            (3, (96, 64)),
            "{builtin}"
        );
        let json = std::fs::read_to_string(out.join("render.json")).expect("render.json");
        assert!(json.contains("\"frame_steps\""), "{json}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_refuses_bad_options_by_name() {
    let err = failure(&["render", "--builtin", "rock-pool", "--size", "96by64"]);
    assert!(err.contains("WIDTHxHEIGHT"));
    let err = failure(&[
        "render",
        "--builtin",
        "rock-pool",
        "--frames",
        "0",
        "--out",
        "/tmp/x",
    ]);
    assert!(err.contains("--frames is 0"), "{err}");
    // Past what the option's type holds, the range its help states (not the type's).
    for frames in ["-1", "4294967296", "99999999999999999999"] {
        let err = failure(&["render", "--builtin", "rock-pool", "--frames", frames]);
        assert!(
            err.contains("--frames takes a whole number from 1 to 1000"),
            "{err}"
        );
    }
    let err = failure(&[
        "render",
        "--builtin",
        "rock-pool",
        "--size",
        "99999999999x1",
    ]);
    assert!(err.contains("each is 1 to 4096"), "{err}");
    // More frames than the run has steps would repeat frames.
    let scenario = std::env::temp_dir().join(format!("water-frames-{}.toml", std::process::id()));
    std::fs::write(
        &scenario,
        "steps = 20\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.1\nwave_speed = 2.0\n\
         dt = 0.02\n[[impulse]]\nx = 16.0\ny = 16.0\nradius = 4.0\namplitude = 0.1\n",
    )
    .expect("scenario");
    let err = failure(&[
        "render",
        scenario.to_str().expect("UTF-8 path"),
        "--frames",
        "50",
        "--out",
        "/tmp/x",
    ]);
    assert!(
        err.contains("--frames is 50, but a run of 20 steps has 20 to draw"),
        "{err}"
    );
    // Without --frames, the 48 a render draws by default are one a step for this shorter run.
    let out = scratch("render-default-frames");
    if let Some(done) = water_on_gpu(
        "render_refuses_bad_options_by_name",
        &[
            "render",
            scenario.to_str().expect("UTF-8 path"),
            "--out",
            out.to_str().expect("UTF-8 path"),
            "--size",
            "48x32",
            "--quiet",
        ],
    ) {
        assert!(done.status.success(), "{}", stderr(&done));
        assert_eq!(gif_frames(&out.join("water.gif")).0, 20);
    }
    // The fragment backend runs no cascades: refused by name as `run` refuses it, before any
    // device is looked for (render took it and stepped the water on the CPU, saying nothing).
    let cascaded = scenario.with_extension("cascaded.toml");
    let text = std::fs::read_to_string(&scenario).expect("scenario");
    std::fs::write(
        &cascaded,
        text.replace(
            "dt = 0.02\n",
            "dt = 0.02\nboundary = \"absorbing\"\ncascades = 2\n",
        ),
    )
    .expect("scenario");
    let path = cascaded.to_str().expect("UTF-8 path");
    let err = failure(&["render", path, "--backend", "gpu-fragment"]);
    assert!(
        err.contains("cascades = 2") && err.contains("not gpu-fragment"),
        "{err}"
    );
    let _ = std::fs::remove_file(&cascaded);
    let _ = std::fs::remove_file(&scenario);
    std::fs::remove_dir_all(&out).ok();
}

/// A boat towed 12 m along a 24 m grid, with and without a `[focus]` following it.
const TOWED: &str = include_str!("scenarios/towed.toml");

/// Where the boat is drawn in each frame: the mean column of its orange pixels (red well
/// above green and blue, unlike the water and the sky), and how many there are.
fn boat_columns(out: &Path, frames: usize) -> Vec<(f64, usize)> {
    (0..frames)
        .map(|k| {
            let frame = water_render::read_rgba_png(&out.join(format!("frame-{k:04}.png")))
                .expect("a PNG frame");
            let columns: Vec<u32> = (0..frame.height())
                .flat_map(|y| (0..frame.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let [r, g, b, _] = frame.pixel(x, y).map(i32::from);
                    r - b > 30 && r - g > 10
                })
                .map(|(x, _)| x)
                .collect();
            let mean =
                columns.iter().map(|&x| f64::from(x)).sum::<f64>() / columns.len().max(1) as f64;
            (mean, columns.len())
        })
        .collect()
}

/// The render of a followed boat keeps the boat in the middle of the picture while the grid
/// sails on (the camera travels with the grid, the bodies drawn where they are in it), in a
/// tank and at sea; the same scenarios without the focus show the boat crossing the picture.
#[test]
fn a_followed_boat_stays_in_the_middle_of_its_render() {
    let dir = scratch("render-focus");
    let mut spread = Vec::new();
    let sea = "[ocean]\nspectrum = \"pierson-moskowitz\"\nwind_speed = 4.0\n";
    let focus = "[focus]\nfollow = \"boat\"\n";
    for (name, text) in [
        ("followed", format!("{TOWED}{focus}")),
        ("still", TOWED.to_owned()),
        ("followed at sea", format!("{TOWED}{sea}{focus}")),
        ("still at sea", format!("{TOWED}{sea}")),
    ] {
        let file = write_scenario(&dir, &format!("{}.toml", name.replace(' ', "-")), &text);
        let out = dir.join(name.replace(' ', "-"));
        let Some(result) = render_file("render-focus", &file, &out, 4, "192x128") else {
            return;
        };
        assert!(result.status.success(), "{name}: {}", stderr(&result));
        let columns = boat_columns(&out, 4);
        assert!(
            columns.iter().all(|&(_, n)| n >= 8),
            "{name}: the boat is drawn in every frame: {columns:?}"
        );
        let xs = columns.iter().map(|&(x, _)| x);
        spread.push(xs.clone().fold(f64::MIN, f64::max) - xs.fold(f64::MAX, f64::min));
        eprintln!("{name}: boat columns {columns:?}");
    }
    // Measured: 0.4 and 0.5 px followed, 39 and 21 px still (the sea's camera looks across
    // the water, so the same trip crosses fewer columns).
    assert!(
        spread[0] < 8.0 && spread[2] < 8.0,
        "followed: the boat stays put: {spread:?}"
    );
    assert!(
        spread[1] > 30.0 && spread[3] > 15.0,
        "still: the boat crosses: {spread:?}"
    );
}

/// Renders one frame (160 x 100) of a calm cascaded scenario, on a seeded sea where `ocean`,
/// and of the same with `drop`, each checked to have run its water on the CPU; the two frames
/// and how many of their pixels differ, or `None` where the test skips for want of a GPU.
fn calm_and_dropped(
    test: &str,
    cascades: u32,
    ocean: bool,
    drop: &str,
) -> Option<(water_render::RgbaImage, water_render::RgbaImage, usize)> {
    let dir = scratch(test);
    let scenario = format!(
        "steps = 40\n[grid]\nwidth = 64\nheight = 64\ncell_size = 0.25\n\
         model = \"dispersive\"\ndt = 0.05\nboundary = \"absorbing\"\ncascades = {cascades}\n{}",
        if ocean {
            "[ocean]\nspectrum = \"pierson-moskowitz\"\nwind_speed = 6.0\nseed = 3\n"
        } else {
            ""
        }
    );
    let mut frames = Vec::new();
    for (name, text) in [
        ("calm", scenario.clone()),
        ("drop", format!("{scenario}{drop}")),
    ] {
        let file = write_scenario(&dir, &format!("{name}.toml"), &text);
        let out = dir.join(name);
        let result = render_file(test, &file, &out, 1, "160x100")?;
        assert!(result.status.success(), "{name}: {}", stderr(&result));
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("render.json")).expect("render.json"),
        )
        .expect("json");
        assert_eq!(summary["backend"], "cpu", "{name}: {summary}");
        frames.push(water_render::read_rgba_png(&out.join("frame-0000.png")).expect("a PNG frame"));
    }
    let changed = frames[0]
        .pixels()
        .chunks(4)
        .zip(frames[1].pixels().chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    let later = frames.pop().expect("two frames");
    Some((frames.pop().expect("two frames"), later, changed))
}

/// A cosine `[[impulse]]` of 0.3 m at step 0, centred at `(x, y)` m, of `radius` m.
fn drop_at(x: f64, y: f64, radius: f64) -> String {
    format!(
        "[[impulse]]\nx = {x:?}\ny = {y:?}\nradius = {radius:?}\namplitude = 0.3\n\
         shape = \"cosine\"\nstep = 0\n"
    )
}

/// The coarser cascades are drawn around the finest grid at sea: a drop that only they resolve,
/// beyond the finest grid (it reaches none of its cells), changes the frame (with the
/// surroundings left undrawn, tried by hand, it changed no pixel).
#[test]
fn a_drop_beyond_the_finest_grid_shows_in_the_cascades_around_it() {
    // 19 m along x, 3 m in radius: beyond the finest grid's 16 m, inside cascades 1 and 2.
    let drop = drop_at(76.0, 32.0, 12.0);
    let Some((_, _, changed)) = calm_and_dropped("render-cascades-around", 3, true, &drop) else {
        return;
    };
    eprintln!("the drop beyond the finest grid changed {changed} pixels");
    assert!(
        changed > 100,
        "the drop beyond the finest grid changed {changed} pixels"
    );
}

/// Cascades are open water with or without an `[ocean]`: without one, `water render` draws them
/// on a still sea to the horizon, the coarser cascades around the finest grid, so a drop that
/// only they resolve changes the frame (drawn as a tank of the finest grid alone, as before,
/// it changed no pixel), under the same sky.
#[test]
fn cascades_without_an_ocean_are_drawn_around_the_grid_on_a_still_sea() {
    // As above: beyond the finest grid's 16 m, inside cascades 1 and 2.
    let drop = drop_at(76.0, 32.0, 12.0);
    let Some((calm, dropped, changed)) =
        calm_and_dropped("render-cascades-still-sea", 3, false, &drop)
    else {
        return;
    };
    eprintln!("the drop beyond the finest grid changed {changed} pixels on a still sea");
    assert!(
        changed > 100,
        "the drop beyond the finest grid changed {changed} pixels"
    );
    // The sky along the top row, the same in both frames.
    assert!((0..160).all(|x| calm.pixel(x, 0) == dropped.pixel(x, 0)));
}

/// `water render` steps the water of a scenario with cascades on the CPU and uploads
/// the finest grid's surface each frame, so its waves are drawn on the sea. A drop in the grid
/// changes the frame where the grid lies (the same seeded sea without it draws otherwise the
/// same), and `render.json` says the water ran on the CPU.
#[test]
fn cascades_render_with_their_water_on_the_cpu() {
    let drop = drop_at(32.0, 32.0, 6.0);
    let Some((calm, dropped, changed)) = calm_and_dropped("render-cascades", 2, true, &drop) else {
        return;
    };
    let frames = [calm, dropped];
    // The grid (16 m across) seen from its near corner covers a good part of the frame's lower
    // half; the sky and the far sea stay the same.
    assert!(changed > 400, "the drop changed {changed} pixels");
    assert!(
        frames[0].pixel(80, 0) == frames[1].pixel(80, 0),
        "the sky is the same"
    );
}
