//! Each example scene, rendered small, against its committed reference picture in
//! `examples/reference/`: the mean difference per channel must stay within
//! [`MEAN_DIFFERENCE_LIMIT`] levels of 255. A missing reference fails the test; to (re)make the
//! references after a deliberate change to how the water looks, run
//! `WATER_BLESS=1 cargo test -p water-examples --test reference_images` and look at the pictures
//! before committing them.

use std::path::PathBuf;

use water_examples::{boat_wake, rock_pool, sky_aquarium, ExampleError, SceneOptions};
use water_gpu::GpuContext;
use water_render::RgbaImage;
use water_render::{read_rgba_png, write_rgba_png};
use water_testkit::gpu_or_skip;

/// Largest mean absolute difference per channel, in 8-bit levels. Renders on the same driver
/// are identical; this leaves room for another rasteriser's rounding and nothing more: a
/// change of a few per cent in the water's colour or a wave moved by a cell fails it.
const MEAN_DIFFERENCE_LIMIT: f64 = 1.5;

/// Small and short, so the test stays quick on a software rasteriser.
const GRID_SCENE: SceneOptions = SceneOptions {
    width: 160,
    height: 100,
    frames: 3,
    steps_per_frame: 20,
    quality: 96,
};

fn reference(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("reference")
        .join(format!("{name}.png"))
}

/// Mean absolute difference per channel of two pictures of one size, in 8-bit levels.
fn mean_difference(a: &RgbaImage, b: &RgbaImage) -> f64 {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()), "sizes");
    let total: u64 = a
        .pixels()
        .iter()
        .zip(b.pixels())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.pixels().len() as f64
}

/// Compares the last frame of a scene with its reference (or writes the reference when
/// blessing).
fn check(name: &str, frames: &[RgbaImage]) {
    let last = frames.last().expect("frames");
    let path = reference(name);
    if std::env::var("WATER_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("folder")).expect("reference folder");
        write_rgba_png(&path, last).expect("write reference");
        eprintln!("{name}: wrote {}", path.display());
        return;
    }
    let expected = read_rgba_png(&path).unwrap_or_else(|e| {
        panic!(
            "{name}: no reference picture ({e}); make it with WATER_BLESS=1 and look at it \
             before committing"
        )
    });
    let difference = mean_difference(last, &expected);
    if difference > MEAN_DIFFERENCE_LIMIT {
        let actual = std::env::temp_dir().join(format!("{name}-actual.png"));
        write_rgba_png(&actual, last).ok();
        panic!(
            "{name}: mean difference {difference:.2} levels over the limit {MEAN_DIFFERENCE_LIMIT}; \
             this render is at {}",
            actual.display()
        );
    }
}

/// A scene of the examples: its frames on a GPU.
type SceneFn = fn(&GpuContext, &SceneOptions) -> Result<Vec<RgbaImage>, ExampleError>;

/// The test `test`: `scene` rendered with `options` and [`check`]ed against the reference
/// `name` (skipped without a GPU).
fn matches_reference(test: &str, name: &str, scene: SceneFn, options: &SceneOptions) {
    let Some(gpu) = gpu_or_skip(test) else {
        return;
    };
    check(name, &scene(&gpu, options).expect("scene"));
}

#[test]
fn rock_pool_matches_its_reference() {
    matches_reference(
        "rock_pool_matches_its_reference",
        "rock_pool",
        rock_pool::raindrops,
        &GRID_SCENE,
    );
}

#[test]
fn boat_wake_matches_its_reference() {
    matches_reference(
        "boat_wake_matches_its_reference",
        "boat_wake",
        boat_wake::boat_and_crates,
        &GRID_SCENE,
    );
}

#[test]
fn sky_aquarium_matches_its_reference() {
    let options = SceneOptions {
        quality: 3,
        steps_per_frame: 30,
        ..GRID_SCENE
    };
    matches_reference(
        "sky_aquarium_matches_its_reference",
        "sky_aquarium",
        sky_aquarium::clicked_planet,
        &options,
    );
}

#[test]
fn the_limit_tells_scenes_and_moments_apart() {
    let Some(gpu) = gpu_or_skip("the_limit_tells_scenes_and_moments_apart") else {
        return;
    };
    // Two moments of the same scene a few frames apart differ by more than the limit, so the
    // comparison notices a wave that moved.
    let six_frames = SceneOptions {
        frames: 6,
        ..GRID_SCENE
    };
    let frames = boat_wake::boat_and_crates(&gpu, &six_frames).expect("scene");
    let moved = mean_difference(&frames[2], &frames[5]);
    assert!(
        moved > MEAN_DIFFERENCE_LIMIT,
        "frames 2 and 5 differ by only {moved:.2}"
    );
    // And the same scene rendered again is the same picture, so a reference can be matched.
    let again = boat_wake::boat_and_crates(&gpu, &six_frames).expect("scene");
    let repeat = mean_difference(&frames[5], &again[5]);
    assert!(
        repeat < 0.1 * MEAN_DIFFERENCE_LIMIT,
        "the same scene differs from itself by {repeat:.2} when rendered again"
    );
}
