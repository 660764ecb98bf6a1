//! `water render`: PNG frames, an animated GIF with the same frames and `render.json`, for grid
//! water (3-D, with bodies), classic water (2-D), sphere water and a grid inside an `[ocean]`
//! (the sea to the horizon under a sky); bad options are refused by
//! name. Skipped with a reason without a GPU adapter, unless WATER_REQUIRE_GPU=1.

use std::path::Path;

mod common;

use common::{failure, stderr, water_on_gpu};

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
        let mut previous: Option<water_gpu::render::RgbaImage> = None;
        for k in 0..3 {
            let frame = water_gpu::render::read_rgba_png(&out.join(format!("frame-{k:04}.png")))
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
}
