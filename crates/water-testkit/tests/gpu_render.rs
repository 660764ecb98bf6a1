//! The renderers of `water_render` draw what the water holds: per-pixel normals from the x
//! and the y slopes, heights faded at the rim and flat inside hulls, foam white where it lies, the classic look byte for
//! byte as its CPU twin, and sphere vertices with the CPU's area-weighted normals, on both
//! backends.

use glam::{Vec2, Vec3};
use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::{
    GpuBackend, GpuContext, GpuGrid, GpuGridWater, GpuSphere, GpuSphereWater, GridSpec,
};
use water_render::{
    shade_classic, Camera, ClassicRenderer, ClassicShading, FoamTexture, GridSurfaceRenderer,
    GridSurfaceStyle, HullMaskTexture, OffscreenTarget, RgbaImage, SphereSurfaceRenderer,
    SphereSurfaceStyle, SurfaceView,
};
use water_sphere::{SphereImpulse, SphereStepper};
use water_testkit::setup::{cosine_impulse, rippled_gpu_grid, sphere_water, GPU_BACKENDS};
use water_testkit::{gpu_or_return, submit_once};

const W: usize = 48;
const H: usize = 40;
const CELL: f32 = 0.1;
const CELL_M: f64 = 0.1;

/// A signed grid with two ripples crossing, `steps` steps on.
fn rippled_grid(gpu: &GpuContext, backend: GpuBackend, steps: u64) -> GpuGrid {
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(CELL_M, 1.0, 0.05, Damping::NONE).expect("params");
    let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
    let ripples = [
        cosine_impulse(14.0, 12.0, 5.0, 0.3),
        cosine_impulse(32.0, 27.0, 5.0, -0.25),
    ];
    rippled_gpu_grid(gpu, backend, spec, &ripples, steps)
}

/// An offscreen picture of `width` x `height` pixels in `format`.
fn offscreen(
    gpu: &GpuContext,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
) -> OffscreenTarget {
    OffscreenTarget::new(&gpu.device, &gpu.queue, width, height, format).expect("target")
}

/// One pixel per cell, looking straight down on the whole grid.
fn top_down() -> Camera {
    Camera::top_down(Vec2::ZERO, Vec2::new(W as f32, H as f32) * CELL, 2.0)
}

/// Draws `grid`'s current surface in `style`, seen by `camera`, into `target` over `floor` (the
/// renderer's pebbles without one) and reads the picture back.
fn draw_grid_over(
    gpu: &GpuContext,
    grid: &mut GpuGrid,
    target: &OffscreenTarget,
    style: GridSurfaceStyle,
    camera: &Camera,
    mask: Option<&wgpu::TextureView>,
    floor: Option<&RgbaImage>,
) -> RgbaImage {
    let mut renderer = GridSurfaceRenderer::new(
        &gpu.device,
        &gpu.queue,
        target.format(),
        grid.spec().size,
        CELL,
        style,
    )
    .expect("renderer");
    if let Some(floor) = floor {
        renderer.set_floor(floor);
    }
    let surface = grid.update_normal_height().expect("surface").clone();
    submit_once(gpu, |encoder| {
        renderer
            .encode(
                encoder,
                target.frame(Vec3::ZERO),
                camera,
                &surface,
                mask,
                &[],
            )
            .expect("encode");
    });
    target.read().expect("readback")
}

/// Renders `grid` top-down, one pixel per cell, into an `Rgba8Unorm` picture.
fn render_top_down(
    gpu: &GpuContext,
    grid: &mut GpuGrid,
    style: GridSurfaceStyle,
    mask: Option<&wgpu::TextureView>,
) -> RgbaImage {
    let target = offscreen(gpu, W as u32, H as u32, wgpu::TextureFormat::Rgba8Unorm);
    draw_grid_over(gpu, grid, &target, style, &top_down(), mask, None)
}

/// The cell a pixel of the top-down picture shows: rows run down the picture, y runs up.
fn cell_of(px: usize, row: usize) -> (usize, usize) {
    (px, H - 1 - row)
}

/// Calls `f` with each cell `(x, y)` of two top-down pictures and its pixel in `a` and in `b`.
fn for_each_cell(a: &RgbaImage, b: &RgbaImage, mut f: impl FnMut(usize, usize, [u8; 4], [u8; 4])) {
    for row in 0..H {
        for px in 0..W {
            let (x, y) = cell_of(px, row);
            f(
                x,
                y,
                a.pixel(px as u32, row as u32),
                b.pixel(px as u32, row as u32),
            );
        }
    }
}

fn unorm(v: f32) -> i32 {
    (v.clamp(0.0, 1.0) * 255.0).round() as i32
}

#[test]
fn per_pixel_normals_follow_both_the_x_and_the_y_slopes() {
    let gpu = gpu_or_return!("per_pixel_normals_follow_both_the_x_and_the_y_slopes");
    for backend in GPU_BACKENDS {
        let mut grid = rippled_grid(&gpu, backend, 12);
        let heights = grid.heights().expect("heights");
        let style = GridSurfaceStyle {
            mesh_quads: W as u32,
            view: SurfaceView::Normals,
            ..GridSurfaceStyle::default()
        };
        let picture = render_top_down(&gpu, &mut grid, style, None);
        let z = |x: usize, y: usize| heights[y * W + x];
        let (mut worst, mut steepest_y) = (0, 0.0_f32);
        for row in 1..H - 1 {
            for px in 1..W - 1 {
                let (x, y) = cell_of(px, row);
                // Central differences over two cells, as water_core's cell_normal.
                let slope = Vec2::new(
                    (z(x + 1, y) - z(x - 1, y)) / (2.0 * CELL),
                    (z(x, y + 1) - z(x, y - 1)) / (2.0 * CELL),
                );
                let n = Vec3::new(-slope.x, -slope.y, 1.0).normalize();
                steepest_y = steepest_y.max(n.y.abs());
                let expected = (n * 0.5 + Vec3::splat(0.5)).to_array().map(unorm);
                let got = picture.pixel(px as u32, row as u32);
                for c in 0..3 {
                    worst = worst.max((i32::from(got[c]) - expected[c]).abs());
                }
            }
        }
        assert!(
            steepest_y > 0.2,
            "the waves tilt the normals along y ({steepest_y})"
        );
        assert!(
            worst <= 1,
            "{backend:?}: a normal is {worst} levels off the CPU's"
        );
    }
}

/// The colour of still water in the heights view (`diverging(0)` of the shader).
const STILL: [i32; 3] = [13, 51, 89];

fn is_still(pixel: [u8; 4]) -> bool {
    (0..3).all(|c| (i32::from(pixel[c]) - STILL[c]).abs() <= 1)
}

/// The heights view of `grid`, one quad per cell, its largest |height| at the ends of the
/// colour map.
fn heights_view(grid: &GpuGrid) -> GridSurfaceStyle {
    let heights = grid.heights().expect("heights");
    let scale = heights.iter().fold(0.0_f32, |m, h| m.max(h.abs()));
    GridSurfaceStyle {
        mesh_quads: W as u32,
        view: SurfaceView::Heights,
        height_scale: 1.0 / scale,
        ..GridSurfaceStyle::default()
    }
}

#[test]
fn heights_fade_to_still_water_at_the_rim() {
    let gpu = gpu_or_return!("heights_fade_to_still_water_at_the_rim");
    let mut grid = rippled_grid(&gpu, GpuBackend::Compute, 40);
    let heights_style = heights_view(&grid);
    let style = |rim_fade| GridSurfaceStyle {
        rim_fade,
        ..heights_style.clone()
    };
    let faded = render_top_down(&gpu, &mut grid, style(6.0 * CELL), None);
    let plain = render_top_down(&gpu, &mut grid, style(0.0), None);
    let rim = |px: usize, row: usize| px == 0 || row == 0 || px == W - 1 || row == H - 1;
    let mut moving_rim = 0;
    for row in 0..H {
        for px in 0..W {
            if rim(px, row) {
                assert!(
                    is_still(faded.pixel(px as u32, row as u32)),
                    "rim pixel ({px}, {row})"
                );
                moving_rim += usize::from(!is_still(plain.pixel(px as u32, row as u32)));
            }
        }
    }
    assert!(
        moving_rim > 10,
        "without the fade the waves reach the rim ({moving_rim} pixels)"
    );
    // Away from the rim the fade leaves the picture alone.
    for row in 8..H - 8 {
        for px in 8..W - 8 {
            assert_eq!(
                faded.pixel(px as u32, row as u32),
                plain.pixel(px as u32, row as u32)
            );
        }
    }
}

#[test]
fn waves_are_hidden_inside_hulls() {
    let gpu = gpu_or_return!("waves_are_hidden_inside_hulls");
    let mut grid = rippled_grid(&gpu, GpuBackend::Compute, 30);
    // A hull cuts cells x 10..22, y 8..20 (any non-zero value; the contact renderer writes
    // speed factors).
    let inside = |x: usize, y: usize| (10..22).contains(&x) && (8..20).contains(&y);
    let mask: Vec<f32> = (0..W * H)
        .map(|i| if inside(i % W, i / W) { 0.7 } else { 0.0 })
        .collect();
    let hull_mask = HullMaskTexture::new(&gpu.device, grid.spec().size);
    hull_mask.write(&gpu.queue, &mask).expect("mask");
    let style = heights_view(&grid);
    let masked = render_top_down(&gpu, &mut grid, style.clone(), Some(hull_mask.view()));
    let open = render_top_down(&gpu, &mut grid, style, None);
    let (mut waves_under_hull, mut outside_changed) = (0, 0);
    for_each_cell(&masked, &open, |x, y, m, o| {
        if inside(x, y) {
            assert!(
                is_still(m),
                "cell ({x}, {y}) inside the hull shows a wave: {m:?}"
            );
            waves_under_hull += usize::from(!is_still(o));
        } else if m != o {
            outside_changed += 1;
        }
    });
    assert!(
        waves_under_hull > 20,
        "there are waves under the hull to hide ({waves_under_hull})"
    );
    assert_eq!(outside_changed, 0, "the mask leaves open water alone");
}

/// Foam draws white over the cells it covers: a patch of full coverage brightens 95% or more of
/// its cells' pixels (top-down, one pixel a cell; over the sun's glint foam may be darker), and
/// leaves every pixel a cell or more away from it as it was; no coverage draws the same bytes
/// as no foam; a foam texture of another size is refused by name.
#[test]
fn foam_draws_white_over_the_cells_it_covers() {
    let gpu = gpu_or_return!("foam_draws_white_over_the_cells_it_covers");
    let mut grid = rippled_grid(&gpu, GpuBackend::Compute, 30);
    let size = grid.spec().size;
    let patch = |x: usize, y: usize| (10..22).contains(&x) && (8..20).contains(&y);
    let near_patch = |x: usize, y: usize| (9..23).contains(&x) && (7..21).contains(&y);
    let target = offscreen(&gpu, W as u32, H as u32, wgpu::TextureFormat::Rgba8Unorm);
    let mut renderer = GridSurfaceRenderer::new(
        &gpu.device,
        &gpu.queue,
        target.format(),
        size,
        CELL,
        GridSurfaceStyle::default(),
    )
    .expect("renderer");
    let surface = grid.update_normal_height().expect("surface").clone();
    let draw = |renderer: &mut GridSurfaceRenderer| {
        submit_once(&gpu, |encoder| {
            renderer
                .encode(
                    encoder,
                    target.frame(Vec3::ZERO),
                    &top_down(),
                    &surface,
                    None,
                    &[],
                )
                .expect("encode");
        });
        target.read().expect("readback")
    };
    let plain = draw(&mut renderer);
    let mut foam = FoamTexture::new(&gpu.device, size);
    foam.write(&gpu.queue, &vec![0.0; size.cells()])
        .expect("write");
    renderer.set_foam(Some(foam.view())).expect("foam");
    assert!(
        draw(&mut renderer) == plain,
        "no coverage changed the picture"
    );
    let coverage: Vec<f32> = (0..size.cells())
        .map(|i| if patch(i % W, i / W) { 1.0 } else { 0.0 })
        .collect();
    foam.write(&gpu.queue, &coverage).expect("write");
    let white = draw(&mut renderer);
    let (mut inside, mut brighter) = (0, 0);
    let sum = |c: [u8; 4]| c[..3].iter().map(|&v| u32::from(v)).sum::<u32>();
    for_each_cell(&white, &plain, |x, y, f, p| {
        if patch(x, y) {
            inside += 1;
            brighter += usize::from(sum(f) > sum(p));
        } else if !near_patch(x, y) {
            assert_eq!(f, p, "cell ({x}, {y}) away from the foam changed");
        }
    });
    assert!(
        brighter * 100 >= inside * 95,
        "{brighter} of the patch's {inside} pixels are brighter"
    );
    let small = FoamTexture::new(&gpu.device, GridSize::new(8, 8).expect("size"));
    let e = renderer
        .set_foam(Some(small.view()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("foam texture size") && e.contains("8x8"), "{e}");
}

/// Lit water has many shades, changes as its waves move, and shows its floor: a red floor in
/// place of the pebbles reddens the picture (mean red over green and blue from -3.1 to 56.6
/// levels measured; the test asks for 10 more).
#[test]
fn lit_water_shows_its_waves_and_the_floor() {
    let gpu = gpu_or_return!("lit_water_shows_its_waves_and_the_floor");
    let render_over = |steps, floor: Option<&RgbaImage>| {
        let mut grid = rippled_grid(&gpu, GpuBackend::Compute, steps);
        let target = offscreen(&gpu, 160, 120, wgpu::TextureFormat::Rgba8UnormSrgb);
        let style = GridSurfaceStyle {
            floor_depth: 0.5,
            ..GridSurfaceStyle::default()
        };
        let centre = Vec3::new(W as f32, H as f32, 0.0) * CELL * 0.5;
        let camera = Camera::orbit(centre, 6.0, 0.3, 0.7, 160.0 / 120.0);
        draw_grid_over(&gpu, &mut grid, &target, style, &camera, None, floor)
    };
    let render = |steps| render_over(steps, None);
    // Two moments of the same crossing ripples.
    let waves = render(20);
    let distinct: std::collections::HashSet<[u8; 4]> = waves
        .pixels()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    assert!(
        distinct.len() > 200,
        "lit water has many shades ({})",
        distinct.len()
    );
    let later = render(35);
    let changed = waves
        .pixels()
        .chunks_exact(4)
        .zip(later.pixels().chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 500,
        "moving waves change the picture ({changed} pixels)"
    );
    // The floor is seen through the water: a red floor in place of the pebbles reddens it.
    let red = RgbaImage::new(2, 2, [255, 0, 0, 255].repeat(4)).expect("image");
    let over_red = render_over(20, Some(&red));
    let redness = |image: &RgbaImage| {
        image
            .pixels()
            .chunks_exact(4)
            .map(|p| f64::from(p[0]) - f64::from(p[1].max(p[2])))
            .sum::<f64>()
            / (160.0 * 120.0)
    };
    let (pebbles, reddened) = (redness(&waves), redness(&over_red));
    eprintln!("redness over pebbles {pebbles:.1}, over a red floor {reddened:.1}");
    assert!(
        reddened > pebbles + 10.0,
        "a red floor did not show through the water: redness {pebbles:.1} -> {reddened:.1}"
    );
}

#[test]
fn classic_look_equals_its_cpu_twin_byte_for_byte() {
    let gpu = gpu_or_return!("classic_look_equals_its_cpu_twin_byte_for_byte");
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::NONE).expect("params");
    let spec = GridSpec::new(size, params, Boundary::Fixed, GridMode::Classic);
    let drop = cosine_impulse(20.0, 17.0, 4.0, 600.0);
    let background = RgbaImage::pebbles(40, 36, 9, 5);
    let shading = ClassicShading {
        offset_shift: 4,
        shading_shift: 2,
    };
    for backend in GPU_BACKENDS {
        let mut grid = rippled_gpu_grid(&gpu, backend, spec, &[drop], 9);
        let heights = grid.classic_heights().expect("heights");
        let expected = shade_classic(&heights, size, &background, shading).expect("cpu");
        let target = offscreen(&gpu, W as u32, H as u32, wgpu::TextureFormat::Rgba8Unorm);
        let mut renderer = ClassicRenderer::new(
            &gpu.device,
            &gpu.queue,
            target.format(),
            size,
            shading,
            &background,
        )
        .expect("renderer");
        let surface = grid.update_normal_height().expect("surface").clone();
        submit_once(&gpu, |encoder| {
            renderer
                .encode(encoder, target.colour_view(), &surface)
                .expect("encode");
        });
        let got = target.read().expect("readback");
        let bent = (0..H as u32)
            .flat_map(|y| (0..W as u32).map(move |x| (x, y)))
            .filter(|&(x, y)| expected.pixel(x, y) != background.pixel(x % 40, y % 36))
            .count();
        assert!(
            bent > 100,
            "the ripple bends the background ({bent} pixels)"
        );
        assert_eq!(got, expected, "{backend:?}");
    }
}

#[test]
fn sphere_vertices_carry_the_cpu_normals_on_both_backends() {
    let gpu = gpu_or_return!("sphere_vertices_carry_the_cpu_normals_on_both_backends");
    let mut water = sphere_water(3, 2.0, SphereStepper::Mean { a: 0.5 }, Damping::NONE);
    water.add_impulse(&SphereImpulse::new(Vec3::new(0.3, -1.0, 0.5), 0.5, 0.08).expect("click"));
    water.step_many(6);
    let sphere = water.sphere();
    for backend in GPU_BACKENDS {
        let mut gpu_water =
            GpuSphere::new(backend, &gpu.device, &gpu.queue, &water).expect("gpu water");
        gpu_water.step_many(5).expect("steps");
        let heights = gpu_water.heights().expect("heights");
        let mut renderer = SphereSurfaceRenderer::new(
            &gpu.device,
            &gpu.queue,
            wgpu::TextureFormat::Rgba8UnormSrgb,
            sphere,
            SphereSurfaceStyle::default(),
        )
        .expect("renderer");
        let camera = Camera::orbit(Vec3::ZERO, 7.0, 0.0, 0.3, 1.0);
        submit_once(&gpu, |encoder| {
            renderer
                .prepare(encoder, &camera, &gpu_water)
                .expect("prepare");
        });
        let vertices = renderer.read_vertices().expect("vertices");
        let positions = water_sphere::displaced_positions(sphere, &heights);
        let normals = water_sphere::vertex_normals(sphere, &heights);
        let mut tilted = 0;
        for (v, vertex) in vertices.iter().enumerate() {
            let p = Vec3::from_slice(&vertex.position[..3]);
            let n = Vec3::from_slice(&vertex.normal[..3]);
            assert!(
                p.distance(positions[v]) < 1e-5,
                "{backend:?} vertex {v}: {p} vs {}",
                positions[v]
            );
            assert!(
                n.distance(normals[v]) < 1e-4,
                "{backend:?} normal {v}: {n} vs {}",
                normals[v]
            );
            tilted += usize::from(normals[v].angle_between(positions[v]) > 0.01);
        }
        assert!(
            tilted > 50,
            "the waves tilt the normals ({tilted} vertices)"
        );
    }
}
