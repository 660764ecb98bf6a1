//! Contact masks drawn on the GPU from hull meshes (`water_gpu::ContactMaskRenderer`) against
//! the CPU rasteriser `water_buoyancy::rasterise_grid_mask`: the same cells (intersection over
//! union at least 0.98 for boxes, spheres, capsules and a boat at many poses) with the same
//! speeds, the largest speed where hulls overlap, and the same wake when a moving body steps the
//! water on either GPU backend as on the CPU.

use std::f32::consts::FRAC_PI_2;

use glam::{Affine3A, EulerRot, Quat, Vec3};
use water_buoyancy::{rasterise_grid_mask, Hull, Pose, Shape};
use water_core::{Boundary, ContactMasks, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_gpu::MAX_CONTACT_HULLS;
use water_gpu::{
    ContactHull, ContactMaskRenderer, GpuBackend, GpuContext, GpuError, GpuGridWater, GridSpec,
    HullMesh,
};
use water_testkit::setup::{cpu_reference, gpu_grid, GPU_BACKENDS};
use water_testkit::{assert_f32_within, gpu_or_return, F32_TOLERANCE};

/// The least intersection over union of GPU- and CPU-marked cells. The GPU draws the hull's
/// triangle mesh, the CPU tests the exact shape, so cells whose centre lies between a round
/// surface and its chords may differ: a few along the rim of a section hundreds of cells large.
const MIN_IOU: f64 = 0.98;

/// The grid of the cross-checks: 8 m x 6.4 m in 5 cm cells.
const W: usize = 160;
const H: usize = 128;
const CELL: f32 = 0.05;

fn size() -> GridSize {
    GridSize::new(W, H).expect("size")
}

fn affine(pose: &Pose) -> Affine3A {
    Affine3A::from_rotation_translation(pose.orientation, pose.position)
}

fn pose(position: Vec3, yaw: f32, pitch: f32, roll: f32) -> Pose {
    Pose::new(position, Quat::from_euler(EulerRot::ZYX, yaw, pitch, roll)).expect("pose")
}

/// A 2.4 m boat, 0.9 m in the beam at the deck and 0.4 m at the keel, its sides tapering from
/// midships to a raked stem. Each face's triangles are turned to face away from the centre,
/// which is outward for a convex solid; `ConvexMesh` checks the result is closed and convex.
fn boat() -> Shape {
    let (stern, mid, stem_top, stem_foot) = (-1.2, 0.4, 1.2, 0.9);
    let (beam, keel, deck, bottom) = (0.45, 0.2, 0.35, -0.3);
    let vertices = vec![
        Vec3::new(stern, -beam, deck),
        Vec3::new(stern, beam, deck),
        Vec3::new(stern, -keel, bottom),
        Vec3::new(stern, keel, bottom),
        Vec3::new(mid, -beam, deck),
        Vec3::new(mid, beam, deck),
        Vec3::new(mid, -keel, bottom),
        Vec3::new(mid, keel, bottom),
        Vec3::new(stem_top, 0.0, deck),
        Vec3::new(stem_foot, 0.0, bottom),
    ];
    let faces: [[u32; 3]; 16] = [
        [0, 1, 3], // transom
        [0, 3, 2],
        [0, 4, 8], // deck
        [0, 8, 5],
        [0, 5, 1],
        [2, 6, 9], // bottom
        [2, 9, 7],
        [2, 7, 3],
        [0, 4, 6], // sides, stern to midships
        [0, 6, 2],
        [1, 5, 7],
        [1, 7, 3],
        [4, 8, 9], // bow, tapering to the stem
        [4, 9, 6],
        [5, 8, 9],
        [5, 9, 7],
    ];
    let inside = vertices.iter().copied().sum::<Vec3>() / vertices.len() as f32;
    let triangles = faces
        .iter()
        .map(|&[a, b, c]| {
            let [pa, pb, pc] = [a, b, c].map(|i| vertices[i as usize]);
            if (pb - pa).cross(pc - pa).dot(pa - inside) > 0.0 {
                [a, b, c]
            } else {
                [a, c, b]
            }
        })
        .collect();
    Shape::convex_mesh(vertices, triangles).expect("the boat is a closed convex mesh")
}

/// A box of `half_extents` centred on its body's origin.
fn box_hull(half_extents: Vec3) -> Hull {
    Hull::new(Shape::cuboid(half_extents).expect("box"), Pose::IDENTITY).expect("hull")
}

/// The four hulls of the cross-check, with the surface meshes buoyancy integrates over
/// (`Hull::new`'s default resolution): what a caller would upload.
fn hulls() -> Vec<(&'static str, Hull)> {
    let hull = |shape: Result<Shape, _>, local: Pose| {
        Hull::new(shape.expect("shape"), local).expect("hull")
    };
    vec![
        (
            "box",
            hull(Shape::cuboid(Vec3::new(0.9, 0.5, 0.4)), Pose::IDENTITY),
        ),
        ("sphere", hull(Shape::sphere(0.8), Pose::IDENTITY)),
        (
            "capsule",
            // Lying along the body's x axis: a local pose the GPU transform must compose.
            hull(
                Shape::capsule(0.35, 0.9),
                Pose::new(Vec3::new(0.1, 0.0, 0.0), Quat::from_rotation_y(FRAC_PI_2))
                    .expect("pose"),
            ),
        ),
        ("boat", hull(Ok(boat()), Pose::IDENTITY)),
    ]
}

/// Body poses: whether each should cut the water over the grid, and its speed factor.
fn poses() -> Vec<(&'static str, Pose, bool, f32)> {
    vec![
        (
            "level",
            pose(Vec3::new(3.0, 3.1, 0.02), 0.0, 0.0, 0.0),
            true,
            1.5,
        ),
        (
            "tilted",
            pose(Vec3::new(4.1, 3.3, 0.1), 0.7, 0.3, 0.4),
            true,
            2.25,
        ),
        (
            "mostly above",
            pose(Vec3::new(5.2, 2.6, 0.22), -0.5, 0.15, -0.2),
            true,
            0.75,
        ),
        (
            "mostly below",
            pose(Vec3::new(2.7, 4.0, -0.2), 1.9, -0.2, 0.1),
            true,
            3.0,
        ),
        // A body at rest: FloatingBody::speed_factor's smallest value still marks cells.
        (
            "at rest",
            pose(Vec3::new(6.0, 3.5, 0.0), 2.6, 0.0, 0.05),
            true,
            f32::MIN_POSITIVE,
        ),
        (
            "off a corner",
            pose(Vec3::new(0.3, 6.2, 0.0), 0.9, 0.1, 0.2),
            true,
            1.0,
        ),
        (
            "off an edge",
            pose(Vec3::new(7.9, 1.5, -0.05), -1.2, 0.0, -0.3),
            true,
            1.25,
        ),
        (
            "above the water",
            pose(Vec3::new(4.0, 3.2, 1.7), 0.4, 0.1, 0.1),
            false,
            1.0,
        ),
        (
            "under the water",
            pose(Vec3::new(4.0, 3.2, -1.7), 0.4, 0.1, 0.1),
            false,
            1.0,
        ),
    ]
}

/// Intersection over union of the marked cells, and the cells each marked.
fn iou(cpu: &[f32], gpu: &[f32]) -> (f64, usize, usize) {
    let (mut both, mut either) = (0usize, 0usize);
    for (&c, &g) in cpu.iter().zip(gpu) {
        both += usize::from(c > 0.0 && g > 0.0);
        either += usize::from(c > 0.0 || g > 0.0);
    }
    let marked = |m: &[f32]| m.iter().filter(|&&v| v > 0.0).count();
    let ratio = if either == 0 {
        1.0
    } else {
        both as f64 / either as f64
    };
    (ratio, marked(cpu), marked(gpu))
}

fn cpu_mask(bodies: &[(&[Hull], Pose, f32)]) -> Vec<f32> {
    let mut mask = vec![0.0; W * H];
    for (hulls, body, speed) in bodies {
        rasterise_grid_mask(hulls, body, size(), CELL, *speed, &mut mask).expect("cpu mask");
    }
    mask
}

fn renderer(gpu: &GpuContext, backend: GpuBackend) -> ContactMaskRenderer {
    ContactMaskRenderer::new(&gpu.device, &gpu.queue, size(), CELL, backend).expect("renderer")
}

fn upload(gpu: &GpuContext, hull: &Hull) -> HullMesh {
    let surface = hull.surface();
    HullMesh::new(&gpu.device, &surface.vertices, &surface.triangles).expect("mesh")
}

/// Asserts the GPU marked (nearly) the CPU's cells, each with the CPU's value; returns the IoU.
fn check_against_cpu(case: &str, cpu: &[f32], gpu: &[f32], cuts: bool) -> f64 {
    let (ratio, on_cpu, on_gpu) = iou(cpu, gpu);
    eprintln!("{case}: CPU {on_cpu} cells, GPU {on_gpu} cells, IoU {ratio:.4}");
    if cuts {
        assert!(
            on_cpu >= 100,
            "{case}: the pose should cut the water over the grid"
        );
    } else {
        assert_eq!((on_cpu, on_gpu), (0, 0), "{case}: nothing cuts the water");
    }
    assert!(ratio >= MIN_IOU, "{case}: IoU {ratio:.4} < {MIN_IOU}");
    for (i, (&c, &g)) in cpu.iter().zip(gpu).enumerate() {
        if c > 0.0 && g > 0.0 {
            assert_eq!(g, c, "{case}: value at cell ({}, {})", i % W, i / W);
        }
    }
    ratio
}

#[test]
fn gpu_masks_match_the_cpu_rasteriser_for_every_shape_and_pose() {
    let gpu = gpu_or_return!("gpu_masks_match_the_cpu_rasteriser");
    let mut masks = renderer(&gpu, GpuBackend::Fragment);
    let mut worst = f64::INFINITY;
    for (shape, hull) in hulls() {
        let mesh = upload(&gpu, &hull);
        for (placed, body, cuts, speed) in poses() {
            let cpu = cpu_mask(&[(std::slice::from_ref(&hull), body, speed)]);
            masks
                .render(&[ContactHull {
                    mesh: &mesh,
                    transform: affine(&hull.world_pose(&body)),
                    speed,
                }])
                .expect("render");
            let gpu_mask = masks.read_new_mask().expect("read");
            let ratio = check_against_cpu(&format!("{shape}, {placed}"), &cpu, &gpu_mask, cuts);
            worst = worst.min(ratio);
        }
    }
    eprintln!("least IoU over all shapes and poses: {worst:.4}");
}

#[test]
fn a_hull_cutting_the_water_marks_its_section_and_one_above_marks_nothing() {
    // The front/back test in its plainest form, with counts known exactly: a 0.9 m x 0.5 m box
    // whose sides fall a quarter of a cell from the nearest cell centres. Front and back faces
    // swapped (a mirrored projection, or the wrong cull mode) would leave the cut box unmarked
    // and mark the cells under the floating one.
    let gpu = gpu_or_return!("a_hull_cutting_the_water_marks_its_section");
    let mut masks = renderer(&gpu, GpuBackend::Fragment);
    let hull = box_hull(Vec3::new(0.45, 0.25, 0.2));
    let mesh = upload(&gpu, &hull);
    let at = |x: f32, y: f32, z: f32| Affine3A::from_translation(Vec3::new(x, y, z));
    // Sides at x = 1.0125 and 1.9125 m, y = 1.0125 and 1.5125 m: 18 x 10 cell centres inside.
    let cut = at(1.4625, 1.2625, 0.05);
    let floating = at(4.4625, 1.2625, 0.25); // bottom 5 cm above the water
    masks
        .render(&[
            ContactHull {
                mesh: &mesh,
                transform: cut,
                speed: 2.0,
            },
            ContactHull {
                mesh: &mesh,
                transform: floating,
                speed: 3.0,
            },
        ])
        .expect("render");
    let mask = masks.read_new_mask().expect("read");
    let marked: Vec<(usize, usize)> = (0..W * H)
        .filter(|&i| mask[i] > 0.0)
        .map(|i| (i % W, i / W))
        .collect();
    assert_eq!(marked.len(), 18 * 10, "cells under the cut box");
    assert!(marked
        .iter()
        .all(|&(x, y)| (20..38).contains(&x) && (20..30).contains(&y)));
    assert!(marked.iter().all(|&(x, y)| mask[y * W + x] == 2.0));
}

#[test]
fn overlapping_hulls_take_the_largest_speed_as_on_the_cpu() {
    let gpu = gpu_or_return!("overlapping_hulls_take_the_largest_speed");
    let mut masks = renderer(&gpu, GpuBackend::Compute);
    let wide = box_hull(Vec3::new(0.8, 0.6, 0.5));
    let ball = Hull::with_max_edge(Shape::sphere(0.7).expect("sphere"), Pose::IDENTITY, 0.1)
        .expect("hull");
    // A long plank pitched up: it cuts the water beside the wide box and passes over the box's
    // section above the water but under its top, so the plain nearest-face trick would black
    // out the box's cells under it.
    let plank = box_hull(Vec3::new(1.6, 0.25, 0.05));
    let (wide_mesh, ball_mesh, plank_mesh) = (
        upload(&gpu, &wide),
        upload(&gpu, &ball),
        upload(&gpu, &plank),
    );
    let wide_at = pose(Vec3::new(3.01, 3.02, 0.1), 0.3, 0.0, 0.0);
    let ball_at = pose(Vec3::new(3.9, 3.4, 0.0), 0.0, 0.0, 0.0);
    // Down at its far end (x = 4.6 m, under the water), 0.3 m up over the box (x = 3 m).
    let plank_at = pose(Vec3::new(4.6, 2.6, -0.05), 0.0, 0.17, 0.0)
        .then(&Pose::from_position(Vec3::new(-1.5, 0.0, 0.0)).expect("pose"));
    for speeds in [
        [1.0, 2.0, 3.0],
        [3.0, 2.0, 1.0],
        [2.0, 3.0, 1.0],
        [1.0, 1.0, 1.0],
    ] {
        let placed = [(&wide, wide_at), (&ball, ball_at), (&plank, plank_at)];
        let bodies: Vec<(&[Hull], Pose, f32)> = placed
            .iter()
            .zip(speeds)
            .map(|(&(hull, at), speed)| (std::slice::from_ref(hull), at, speed))
            .collect();
        let cpu = cpu_mask(&bodies);
        let meshes = [&wide_mesh, &ball_mesh, &plank_mesh];
        let drawn: Vec<ContactHull<'_>> = placed
            .iter()
            .zip(meshes)
            .zip(speeds)
            .map(|((&(hull, at), mesh), speed)| ContactHull {
                mesh,
                transform: affine(&hull.world_pose(&at)),
                speed,
            })
            .collect();
        masks.render(&drawn).expect("render");
        let gpu_mask = masks.read_new_mask().expect("read");
        let case = format!("overlapping hulls, speeds {speeds:?}");
        check_against_cpu(&case, &cpu, &gpu_mask, true);
        // Every speed shows somewhere: no hull hides another entirely.
        for speed in speeds {
            assert!(gpu_mask.contains(&speed), "{case}: speed {speed} missing");
        }
        // The plank passes over the box's section: the box's speed must survive under it.
        let under_plank = ((3.0 / CELL) as usize, (2.6 / CELL) as usize);
        let cell = under_plank.1 * W + under_plank.0;
        assert!(wide.contains(&wide_at, Vec3::new(3.025, 2.625, 0.0)));
        assert_eq!(gpu_mask[cell], cpu[cell], "{case}: under the plank");
        assert!(gpu_mask[cell] >= speeds[0], "{case}: under the plank");
    }
}

/// Asserts two masks are equal, naming the first differing cell and how many differ.
fn assert_same_mask(case: &str, width: usize, expected: &[f32], actual: &[f32]) {
    let differing: Vec<usize> = (0..expected.len())
        .filter(|&i| expected[i] != actual[i])
        .collect();
    if let Some(&i) = differing.first() {
        panic!(
            "{case}: {} cells differ; first at ({}, {}): expected {}, got {}",
            differing.len(),
            i % width,
            i / width,
            expected[i],
            actual[i]
        );
    }
}

/// Wave speed 2 m/s and a step of a quarter cell per (m/s): Courant number a = 1/4.
fn wave_spec(mode: GridMode, size: GridSize, cell: f32) -> GridSpec {
    let (h, dt) = (f64::from(cell), 0.25 * f64::from(cell));
    let params = WaveParams::new(h, 2.0, dt, Damping::PerStep(0.999)).expect("params");
    GridSpec::new(size, params, Boundary::Reflective, mode)
}

#[test]
fn a_moving_body_makes_the_same_wake_from_gpu_masks_as_from_cpu_masks() {
    let gpu = gpu_or_return!("a_moving_body_makes_the_same_wake");
    // A 0.6 m x 0.4 m box moving half a cell (5 cm) per step for 8 cells. Its sides fall a
    // quarter of a cell from the cell centres at every step, so both rasterisers mark the same
    // cells and the wakes can be compared at the solver's own tolerance.
    const STEPS: usize = 16;
    const AMPLITUDE: f32 = 0.02;
    let (cell, size) = (0.1_f32, GridSize::new(64, 48).expect("size"));
    let hull = box_hull(Vec3::new(0.3, 0.2, 0.25));
    let mesh = upload(&gpu, &hull);
    let dt = wave_spec(GridMode::Signed, size, cell).params.dt() as f32;
    let speed = 0.5 * cell / dt;
    let body_at = |step: usize| {
        let x = (10.25 + 0.5 * step as f32) * cell;
        Pose::from_position(Vec3::new(x, 20.25 * cell, 0.05)).expect("pose")
    };
    for backend in GPU_BACKENDS {
        for mode in [GridMode::Signed, GridMode::Split] {
            let spec = wave_spec(mode, size, cell);
            let mut cpu = cpu_reference(spec, LandMask::empty(size));
            let mut cpu_masks = ContactMasks::new(size, AMPLITUDE).expect("masks");
            let mut water = gpu_grid(&gpu, backend, spec);
            let mut gpu_masks =
                ContactMaskRenderer::new(&gpu.device, &gpu.queue, size, cell, backend)
                    .expect("renderer");
            let mut previous = vec![0.0; size.cells()];
            for step in 0..STEPS {
                let mut mask = vec![0.0; size.cells()];
                let body = body_at(step);
                rasterise_grid_mask(
                    std::slice::from_ref(&hull),
                    &body,
                    size,
                    cell,
                    speed,
                    &mut mask,
                )
                .expect("cpu mask");
                cpu_masks.advance(&mask).expect("advance");
                cpu.step_with_contacts(&cpu_masks).expect("cpu step");

                gpu_masks
                    .render(&[ContactHull {
                        mesh: &mesh,
                        transform: affine(&hull.world_pose(&body)),
                        speed,
                    }])
                    .expect("render");
                let case = format!("{} {mode} step {step}", backend.name());
                let width = size.width();
                let (new, old) = (gpu_masks.read_new_mask(), gpu_masks.read_old_mask());
                assert_same_mask(&format!("{case}: C_new"), width, &mask, &new.expect("read"));
                assert_same_mask(
                    &format!("{case}: C_old"),
                    width,
                    &previous,
                    &old.expect("read"),
                );
                gpu_masks.step(&mut water, AMPLITUDE).expect("gpu step");
                previous = mask;
            }
            let reference = cpu.heights();
            assert!(
                reference.iter().any(|&z| z > 0.0) && reference.iter().any(|&z| z < 0.0),
                "the body made bow and stern waves"
            );
            let name = format!("contact_mask_wake_{}_{mode}", backend.name());
            let c = assert_f32_within(
                &name,
                size.width(),
                &reference,
                &water.heights().expect("heights"),
                F32_TOLERANCE,
            );
            eprintln!(
                "{name}: max |diff| {:.2e} of max |height| {:.2e}",
                c.max_abs, c.scale
            );
        }
    }
}

#[test]
fn bad_hulls_and_mismatched_grids_are_refused_and_change_nothing() {
    let gpu = gpu_or_return!("bad_hulls_are_refused");
    let (device, queue) = (&gpu.device, &gpu.queue);
    let hull = box_hull(Vec3::new(0.3, 0.3, 0.3));
    let mesh = upload(&gpu, &hull);
    let at = Affine3A::from_translation(Vec3::new(2.0, 2.0, 0.0));
    let mut masks = renderer(&gpu, GpuBackend::Fragment);
    let one = |speed: f32, transform: Affine3A| {
        vec![ContactHull {
            mesh: &mesh,
            transform,
            speed,
        }]
    };
    masks.render(&one(1.0, at)).expect("render");
    let before = (
        masks.read_new_mask().expect("read"),
        masks.read_old_mask().expect("read"),
    );

    let mut two = one(1.0, at);
    two.push(ContactHull {
        mesh: &mesh,
        transform: at,
        speed: -0.5,
    });
    let e = masks.render(&two).expect_err("negative speed");
    assert_eq!(
        e,
        GpuError::BadContactHull {
            hull: 1,
            what: "speed",
            value: -0.5,
            requirement: "finite and >= 0"
        }
    );
    assert!(e.to_string().contains("-0.5"), "{e}");
    let nan = masks.render(&one(f32::NAN, at)).expect_err("NaN speed");
    assert!(
        matches!(nan, GpuError::BadContactHull { what: "speed", .. }),
        "{nan}"
    );
    let mut broken = at;
    broken.translation.y = f32::INFINITY;
    let e = masks
        .render(&one(1.0, broken))
        .expect_err("infinite transform");
    assert!(e.to_string().contains("transform = inf"), "{e}");
    let after = (
        masks.read_new_mask().expect("read"),
        masks.read_old_mask().expect("read"),
    );
    assert!(
        before == after,
        "a refused frame must not swap or draw the masks"
    );

    let many = vec![
        ContactHull {
            mesh: &mesh,
            transform: at,
            speed: 1.0,
        };
        MAX_CONTACT_HULLS + 1
    ];
    let e = masks.render(&many).expect_err("too many hulls");
    assert!(
        matches!(
            e,
            GpuError::TooLarge {
                needed: 1025,
                limit: 1024,
                ..
            }
        ),
        "{e}"
    );
    // As many as the limit allows draw, and overlap to one box of speed 1.
    masks
        .render(&many[..MAX_CONTACT_HULLS])
        .expect("the limit draws");
    assert_eq!(masks.read_new_mask().expect("read"), before.0);

    // A second device of the same adapter (wgpu tells devices apart within an instance).
    let (elsewhere, _) = pollster::block_on(gpu.adapter.request_device(&Default::default()))
        .expect("a second device");
    let foreign = HullMesh::new(
        &elsewhere,
        &hull.surface().vertices,
        &hull.surface().triangles,
    )
    .expect("mesh");
    let mut mixed = one(1.0, at);
    mixed.push(ContactHull {
        mesh: &foreign,
        transform: at,
        speed: 1.0,
    });
    let e = masks.render(&mixed).expect_err("a mesh on another device");
    assert!(e.to_string().contains("hull 1's mesh"), "{e}");

    let vertices = [Vec3::ZERO, Vec3::X, Vec3::Y];
    let e = HullMesh::new(device, &vertices, &[[0, 1, 3]]).expect_err("index past the end");
    assert_eq!(
        e,
        GpuError::HullMeshIndex {
            triangle: 0,
            index: 3,
            vertices: 3
        }
    );
    assert!(e.to_string().contains("uses vertex 3"), "{e}");
    let e = HullMesh::new(device, &vertices, &[]).expect_err("no triangle");
    assert!(
        matches!(e, GpuError::EmptyHullMesh { triangles: 0, .. }),
        "{e}"
    );
    let e = HullMesh::new(device, &[Vec3::ZERO, Vec3::NAN, Vec3::Y], &[[0, 1, 2]])
        .expect_err("NaN vertex");
    assert!(
        matches!(e, GpuError::HullMeshVertex { vertex: 1, .. }),
        "{e}"
    );

    for cell in [0.0, -0.1, f32::NAN] {
        let e = ContactMaskRenderer::new(device, queue, size(), cell, GpuBackend::Compute)
            .expect_err("bad cell size");
        assert!(e.to_string().contains("contact mask cell size"), "{e}");
    }

    let other = GridSize::new(W, H + 1).expect("size");
    let mut water = gpu_grid(
        &gpu,
        GpuBackend::Fragment,
        wave_spec(GridMode::Signed, other, CELL),
    );
    let e = masks.step(&mut water, 0.1).expect_err("other size");
    assert!(
        e.to_string().contains("160 x 128") && e.to_string().contains("160 x 129"),
        "{e}"
    );
    let mut water = gpu_grid(
        &gpu,
        GpuBackend::Compute,
        wave_spec(GridMode::Signed, size(), CELL),
    );
    let e = masks.step(&mut water, 0.1).expect_err("no buffers");
    assert!(e.to_string().contains("gpu-fragment"), "{e}");
    let e = masks.step(&mut water, f32::NAN).expect_err("NaN amplitude");
    assert!(e.to_string().contains("contact amplitude"), "{e}");
    assert_eq!(water.steps_taken(), 0);
}
