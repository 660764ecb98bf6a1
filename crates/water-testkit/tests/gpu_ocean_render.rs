//! The sea drawn to the horizon (`OceanSurfaceRenderer`, shaders/render_ocean_surface.wgsl):
//! sky above the camera's horizon and sea up to it, a later frame unlike the first, and the
//! interactive grid's waves added inside it with nothing where its water is still, and foam
//! drawn white: the grid's coverage where it lies, the sea's crests where its Jacobian breaks;
//! the coarser water around the grid drawn where the grid is not.

use glam::{Vec2, Vec3};
use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};
use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec, OceanSynthesis};
use water_render::picture_check::{horizon_reason, mean_change, unchanged_reason};
use water_render::{
    Camera, CpuSurfaceTexture, FoamTexture, InteractiveGrid, OceanSurfaceRenderer,
    OceanSurfaceStyle, OffscreenTarget, RgbaImage, SurroundingWater,
};
use water_testkit::setup::{cosine_impulse, rippled_gpu_grid};
use water_testkit::{gpu_or_return, submit_once};

const WIDTH: u32 = 480;
const HEIGHT: u32 = 270;
/// Rows of haze and mesh between the sky and the sea that the horizon check allows.
const MARGIN: usize = 6;

fn sea(gpu: &GpuContext) -> OceanSynthesis {
    let spec = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 11.0,
        fetch: 4e4,
        peak_enhancement: 3.3,
    })
    .with_seed(5)
    .with_direction(80.0)
    .with_choppiness(0.8);
    let sea = AmbientSea::new(&spec, 0.5).expect("sea");
    OceanSynthesis::new(&gpu.device, &gpu.queue, &sea).expect("synthesis")
}

/// 12 m above the sea, looking along +y 300 m ahead (2.3 degrees down), the sun behind.
fn camera() -> Camera {
    Camera::look_at(
        Vec3::new(0.0, 0.0, 12.0),
        Vec3::new(0.0, 300.0, 0.0),
        Vec3::Z,
        0.8,
        WIDTH as f32 / HEIGHT as f32,
        0.5,
        2e6,
    )
}

/// The picture row (from the top) the camera's horizontal rays land on.
fn horizon_row(camera: &Camera) -> f32 {
    let ahead = Vec3::new(camera.forward.x, camera.forward.y, 0.0).normalize();
    let ndc = camera.view_proj.project_point3(camera.eye + ahead * 1e5);
    (1.0 - ndc.y) * 0.5 * HEIGHT as f32
}

fn style() -> OceanSurfaceStyle {
    OceanSurfaceStyle {
        sun_direction: Vec3::new(0.2, -0.7, 0.5),
        ..OceanSurfaceStyle::default()
    }
}

/// The sea at `t` seconds (and the grid, if any) drawn in `style` and read back.
fn draw(
    gpu: &GpuContext,
    sea: &OceanSynthesis,
    t: f64,
    style: OceanSurfaceStyle,
    grid: Option<InteractiveGrid<'_>>,
) -> RgbaImage {
    draw_from(gpu, sea, t, style, grid, &camera())
}

/// [`draw`] from `camera`.
fn draw_from(
    gpu: &GpuContext,
    sea: &OceanSynthesis,
    t: f64,
    style: OceanSurfaceStyle,
    grid: Option<InteractiveGrid<'_>>,
    camera: &Camera,
) -> RgbaImage {
    let target = OffscreenTarget::new(
        &gpu.device,
        &gpu.queue,
        WIDTH,
        HEIGHT,
        wgpu::TextureFormat::Rgba8UnormSrgb,
    )
    .expect("target");
    let mut renderer = OceanSurfaceRenderer::new(&gpu.device, &gpu.queue, target.format(), style)
        .expect("renderer");
    submit_once(gpu, |encoder| {
        sea.encode(&gpu.device, encoder, t);
        renderer
            .encode(encoder, target.frame(Vec3::ZERO), camera, sea, grid, &[])
            .expect("encode");
    });
    target.read().expect("readback")
}

/// The interactive grid of these pictures: 96 x 96 cells of 0.5 m with absorbing edges, its
/// corner at (-24, 20) m (x in [-24, 24] m, y in [20, 68] m), after `ripples` and `steps`
/// steps on the compute backend.
fn grid_water(gpu: &GpuContext, ripples: &[water_core::Impulse], steps: u64) -> GpuGrid {
    let size = GridSize::new(96, 96).expect("size");
    let params = WaveParams::new(0.5, 1.0, 0.1, Damping::NONE).expect("params");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    rippled_gpu_grid(gpu, GpuBackend::Compute, spec, ripples, steps)
}

/// [`grid_water`]'s surface placed in the world, with `foam` and the water `around` it (128 x
/// 128 cells of 1 m, its corner at (-64, -20) m), where given.
fn placed<'a>(
    surface: &'a wgpu::TextureView,
    foam: Option<&'a FoamTexture>,
    around: Option<&'a CpuSurfaceTexture>,
) -> InteractiveGrid<'a> {
    InteractiveGrid {
        surface,
        size: GridSize::new(96, 96).expect("size"),
        cell_size: 0.5,
        origin: Vec2::new(-24.0, 20.0),
        foam: foam.map(FoamTexture::view),
        surrounding: around.map(|t| SurroundingWater {
            surface: t.view(),
            size: t.size(),
            cell_size: 1.0,
            origin: Vec2::new(-64.0, -20.0),
        }),
    }
}

/// Sky above the horizon's row, waves up to within `MARGIN` rows of it. A sea that ends 128 m
/// away (two rings, no skirt) fails the same check: the sky's smooth horizon colour shows
/// between its edge, 30 rows down, and the horizon.
#[test]
fn the_sea_reaches_the_horizon_under_a_sky() {
    let gpu = gpu_or_return!("the_sea_reaches_the_horizon_under_a_sky");
    let sea = sea(&gpu);
    let horizon = horizon_row(&camera());
    let picture = draw(&gpu, &sea, 10.0, style(), None).rgb();
    let reason = horizon_reason(&picture, WIDTH as usize, horizon, MARGIN);
    assert!(reason.is_none(), "{}", reason.unwrap_or_default());

    let mut short = style();
    short.layout.rings = 2;
    short.layout.skirt = 1.0;
    let picture = draw(&gpu, &sea, 10.0, short, None).rgb();
    let reason = horizon_reason(&picture, WIDTH as usize, horizon, MARGIN);
    assert!(
        reason.is_some(),
        "a sea reaching 128 m passed the horizon check"
    );
    eprintln!("a sea reaching 128 m: {}", reason.unwrap_or_default());
}

/// The sea moves: three seconds on, the picture is another one.
#[test]
fn a_later_frame_differs_from_the_first() {
    let gpu = gpu_or_return!("a_later_frame_differs_from_the_first");
    let sea = sea(&gpu);
    let first = draw(&gpu, &sea, 0.0, style(), None).rgb();
    let later = draw(&gpu, &sea, 3.0, style(), None).rgb();
    let reason = unchanged_reason(&first, &later);
    assert!(reason.is_none(), "{}", reason.unwrap_or_default());
}

/// The interactive grid inside the sea: still water on it draws the open sea byte for byte
/// (the grid adds nothing but its own waves: no flat patch where it lies), and ripples on it
/// change the picture.
#[test]
fn the_grid_adds_its_waves_and_nothing_where_it_is_still() {
    let gpu = gpu_or_return!("the_grid_adds_its_waves_and_nothing_where_it_is_still");
    let sea = sea(&gpu);
    let mut still = grid_water(&gpu, &[], 40);
    let mut rippled = grid_water(&gpu, &[cosine_impulse(48.0, 48.0, 8.0, 0.6)], 40);
    let open = draw(&gpu, &sea, 4.0, style(), None).rgb();
    let still_surface = still.update_normal_height().expect("surface").clone();
    let with_still = draw(
        &gpu,
        &sea,
        4.0,
        style(),
        Some(placed(&still_surface, None, None)),
    )
    .rgb();
    assert!(
        open == with_still,
        "still grid water changed the picture by {:.3} levels on average",
        mean_change(&open, &with_still)
    );
    let rippled_surface = rippled.update_normal_height().expect("surface").clone();
    let with_ripples = draw(
        &gpu,
        &sea,
        4.0,
        style(),
        Some(placed(&rippled_surface, None, None)),
    )
    .rgb();
    let reason = unchanged_reason(&open, &with_ripples);
    assert!(
        reason.is_none(),
        "the grid's ripples: {}",
        reason.unwrap_or_default()
    );
}

/// Bad styles and cameras are refused naming the setting and its value: an odd `half_quads`,
/// a skirt inside the last ring, no haze distance, an orthographic camera, and a camera past
/// the mesh's f32-exact lattice (1e7 m from the origin at 0.5 m spacing).
#[test]
fn bad_styles_and_cameras_are_refused_by_name() {
    let gpu = gpu_or_return!("bad_styles_and_cameras_are_refused_by_name");
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let refused = |style: OceanSurfaceStyle| {
        OceanSurfaceRenderer::new(&gpu.device, &gpu.queue, format, style)
            .unwrap_err()
            .to_string()
    };
    let mut odd = style();
    odd.layout.half_quads = 63;
    assert!(refused(odd).contains("layout.half_quads"));
    let mut inside = style();
    inside.layout.skirt = 0.5;
    assert!(refused(inside).contains("layout.skirt"));
    let hazeless = OceanSurfaceStyle {
        haze_distance: 0.0,
        ..style()
    };
    assert!(refused(hazeless).contains("haze_distance"));

    let sea = sea(&gpu);
    let mut renderer =
        OceanSurfaceRenderer::new(&gpu.device, &gpu.queue, format, style()).expect("renderer");
    let flat = Camera::top_down(Vec2::ZERO, Vec2::splat(10.0), 5.0);
    let e = renderer
        .prepare(&flat, (WIDTH, HEIGHT), &sea, None, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("camera") && e.contains("orthographic"), "{e}");
    let far = Camera::look_at(
        Vec3::new(1e7, 0.0, 12.0),
        Vec3::new(1e7, 300.0, 0.0),
        Vec3::Z,
        0.8,
        1.0,
        0.5,
        2e6,
    );
    let e = renderer
        .prepare(&far, (WIDTH, HEIGHT), &sea, None, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("camera position") && e.contains("8e6"), "{e}");
}

/// Pixels that differ between `a` and `b`, and how many of them are brighter (sum of RGB) in
/// `b`.
fn brighter_where_changed(a: &[u8], b: &[u8]) -> (usize, usize) {
    let (mut changed, mut brighter) = (0, 0);
    for (pa, pb) in a.chunks_exact(3).zip(b.chunks_exact(3)) {
        if pa != pb {
            changed += 1;
            let sum = |p: &[u8]| p.iter().map(|&c| u32::from(c)).sum::<u32>();
            if sum(pb) > sum(pa) {
                brighter += 1;
            }
        }
    }
    (changed, brighter)
}

/// Foam draws white: a grid whose coverage is 0 draws the same bytes as one with no foam, a
/// fully covered grid turns its pixels brighter (95% of those that change, at least 2,000);
/// the sea's own foam at a threshold of 1 (every crest where the surface is compressed)
/// brightens the sea alike, and at -1
/// (where nothing folds) draws the same bytes as none. A foam texture of another size and a
/// threshold past 1 are refused by name.
#[test]
fn foam_draws_white_where_the_grid_and_the_sea_have_it() {
    let gpu = gpu_or_return!("foam_draws_white_where_the_grid_and_the_sea_have_it");
    let sea = sea(&gpu);
    let size = GridSize::new(96, 96).expect("size");
    let mut still = grid_water(&gpu, &[], 1);
    let surface = still.update_normal_height().expect("surface").clone();
    let mut foam = FoamTexture::new(&gpu.device, size);
    let no_foam = draw(&gpu, &sea, 4.0, style(), Some(placed(&surface, None, None))).rgb();
    foam.write(&gpu.queue, &vec![0.0; size.cells()])
        .expect("write");
    let clear = draw(
        &gpu,
        &sea,
        4.0,
        style(),
        Some(placed(&surface, Some(&foam), None)),
    )
    .rgb();
    assert!(
        clear == no_foam,
        "no coverage changed the picture by {:.3} levels on average",
        mean_change(&no_foam, &clear)
    );
    // A NaN and a value past 1 among the cells are written as none and as full cover (no NaN
    // reaches the shader).
    let mut coverage = vec![1.0; size.cells()];
    coverage[0] = f32::NAN;
    coverage[1] = 7.0;
    foam.write(&gpu.queue, &coverage).expect("write");
    let white = draw(
        &gpu,
        &sea,
        4.0,
        style(),
        Some(placed(&surface, Some(&foam), None)),
    )
    .rgb();
    let (changed, brighter) = brighter_where_changed(&no_foam, &white);
    assert!(changed > 2000, "the covered grid changed {changed} pixels");
    assert!(
        brighter * 100 >= changed * 95,
        "{brighter} of the {changed} pixels the grid's foam changed are brighter"
    );

    let breaking = |threshold| OceanSurfaceStyle {
        foam_jacobian: threshold,
        ..style()
    };
    let open = draw(&gpu, &sea, 4.0, breaking(None), None).rgb();
    let none_fold = draw(&gpu, &sea, 4.0, breaking(Some(-1.0)), None).rgb();
    assert!(
        none_fold == open,
        "foam at -1 changed the picture by {:.3} levels on average",
        mean_change(&open, &none_fold)
    );
    let crests = draw(&gpu, &sea, 4.0, breaking(Some(1.0)), None).rgb();
    let (changed, brighter) = brighter_where_changed(&open, &crests);
    assert!(changed > 2000, "the sea's foam changed {changed} pixels");
    // Foam over the sun's glint may be darker than the glint.
    assert!(
        brighter * 100 >= changed * 95,
        "{brighter} of the {changed} pixels the sea's foam changed are brighter"
    );

    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let e = OceanSurfaceRenderer::new(&gpu.device, &gpu.queue, format, breaking(Some(1.5)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("foam_jacobian") && e.contains("1.5"), "{e}");
    let small = FoamTexture::new(&gpu.device, GridSize::new(8, 8).expect("size"));
    let mut renderer =
        OceanSurfaceRenderer::new(&gpu.device, &gpu.queue, format, style()).expect("renderer");
    let e = renderer
        .prepare(
            &camera(),
            (WIDTH, HEIGHT),
            &sea,
            Some(placed(&surface, Some(&small), None)),
            &[],
        )
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("grid foam texture size") && e.contains("8x8"),
        "{e}"
    );
    let e = foam.write(&gpu.queue, &[0.5; 10]).unwrap_err().to_string();
    assert!(e.contains("foam coverage cells"), "{e}");
}

/// The water around the grid (a scene's coarser cascades) is drawn where the grid is not: still,
/// it draws the same bytes as none; a bump in it beside the grid (0.5 m high, 12 m across)
/// changes the picture (more than 300 pixels; 693 seen); the same
/// bump deep inside the grid, whose own water is still there, is the grid's to draw and changes
/// nothing.
#[test]
fn the_water_around_the_grid_is_drawn_where_the_grid_is_not() {
    let gpu = gpu_or_return!("the_water_around_the_grid_is_drawn_where_the_grid_is_not");
    let sea = sea(&gpu);
    let mut still = grid_water(&gpu, &[], 1);
    let surface = still.update_normal_height().expect("surface").clone();
    // 128 cells of 1 m around the grid (which spans x in [-24, 24] m, y in [20, 68] m).
    let around_size = GridSize::new(128, 128).expect("size");
    let around_origin = Vec2::new(-64.0, -20.0);
    let around = |bump: Option<Vec2>| {
        let heights: Vec<f32> = (0..around_size.cells())
            .map(|i| {
                let c = around_origin + Vec2::new((i % 128) as f32, (i / 128) as f32) + 0.5;
                bump.map_or(0.0, |b| {
                    let r = c.distance(b) / 6.0;
                    if r < 1.0 {
                        0.5 * (0.5 + 0.5 * (std::f32::consts::PI * r).cos())
                    } else {
                        0.0
                    }
                })
            })
            .collect();
        let mut texture = CpuSurfaceTexture::new(&gpu.device, around_size);
        let view = water_core::HeightView::new(around_size, 1.0, &heights).expect("view");
        texture.write(&gpu.queue, &view).expect("write");
        texture
    };
    let frame = |around: Option<&CpuSurfaceTexture>| {
        draw(
            &gpu,
            &sea,
            4.0,
            style(),
            Some(placed(&surface, None, around)),
        )
        .rgb()
    };
    let alone = frame(None);
    let flat = around(None);
    let with_flat = frame(Some(&flat));
    assert!(
        alone == with_flat,
        "still water around the grid changed the picture by {:.3} levels on average",
        mean_change(&alone, &with_flat)
    );
    let beside = around(Some(Vec2::new(30.0, 60.0)));
    let with_beside = frame(Some(&beside));
    let (changed, _) = brighter_where_changed(&alone, &with_beside);
    eprintln!("a bump beside the grid changes {changed} pixels");
    assert!(
        changed > 300,
        "a bump beside the grid changes {changed} pixels"
    );
    let inside = around(Some(Vec2::new(0.0, 44.0)));
    let with_inside = frame(Some(&inside));
    assert!(
        alone == with_inside,
        "a bump under the grid's interior changed the picture by {:.3} levels on average",
        mean_change(&alone, &with_inside)
    );
}

/// The grid's waves fade into the sea across its rim, with no step: a grid standing 0.4 m high
/// everywhere, seen from straight above its edge in the heights view over a sea without waves
/// to speak of (0.8 m/s of wind over 500 m: Hs 12 mm), changes colour along a row from 16 m inside the rim to 18 m
/// outside it by no more than a tenth of the whole change from one pixel to the next with the
/// default 8 m fade (about 40 pixels here); with no fade (`rim_fade` 0) a quarter or more of
/// the change comes at once.
#[test]
fn the_grid_fades_into_the_sea_across_its_rim() {
    let gpu = gpu_or_return!("the_grid_fades_into_the_sea_across_its_rim");
    let calm = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 0.8,
        fetch: 500.0,
        peak_enhancement: 3.3,
    })
    .with_seed(5);
    // Its peak wave is 0.33 m long: tiles of 0.1 m cells hold it.
    let calm = AmbientSea::new(&calm, 0.1).expect("sea");
    let calm = OceanSynthesis::new(&gpu.device, &gpu.queue, &calm).expect("synthesis");
    let size = GridSize::new(96, 96).expect("size");
    let mut surface = CpuSurfaceTexture::new(&gpu.device, size);
    let raised = vec![0.4; size.cells()];
    let view = water_core::HeightView::new(size, 0.5, &raised).expect("view");
    surface.write(&gpu.queue, &view).expect("write");
    // The grid spans x in [-24, 24] m: 60 m straight above its right edge at y = 44 m.
    let camera = Camera::look_at(
        Vec3::new(24.0, 44.0, 60.0),
        Vec3::new(24.0, 44.0, 0.0),
        Vec3::Y,
        0.8,
        WIDTH as f32 / HEIGHT as f32,
        0.5,
        2e6,
    );
    let row = |rim_fade: f32| -> Vec<i32> {
        let style = OceanSurfaceStyle {
            view: water_render::SurfaceView::Heights,
            heights_range: 1.0,
            rim_fade,
            ..style()
        };
        let grid = InteractiveGrid {
            surface: surface.view(),
            size,
            cell_size: 0.5,
            origin: Vec2::new(-24.0, 20.0),
            foam: None,
            surrounding: None,
        };
        let image = draw_from(&gpu, &calm, 0.0, style, Some(grid), &camera);
        // From 16 m inside the rim to 18 m outside it (5.3 pixels a metre).
        (WIDTH / 2 - 85..WIDTH / 2 + 95)
            .map(|x| {
                let p = image.pixel(x, HEIGHT / 2);
                i32::from(p[0]) + i32::from(p[1]) + i32::from(p[2])
            })
            .collect()
    };
    let largest_step = |row: &[i32]| {
        let whole = (row[0] - row[row.len() - 1]).abs();
        let step = row
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .max()
            .unwrap_or(0);
        (step, whole)
    };
    let (step, whole) = largest_step(&row(8.0));
    eprintln!("faded: largest step {step} of {whole}");
    assert!(whole > 60, "the grid's height shows: a change of {whole}");
    assert!(
        step * 10 <= whole,
        "a step of {step} in a change of {whole}"
    );
    let (step, whole) = largest_step(&row(0.0));
    eprintln!("no fade: largest step {step} of {whole}");
    assert!(
        step * 4 >= whole,
        "without the fade, a step of {step} in a change of {whole}"
    );
}
