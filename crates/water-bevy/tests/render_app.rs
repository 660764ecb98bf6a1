//! The plugin inside Bevy's own renderer with no window: `RenderPlugin` makes the device (no
//! device is inserted by hand), the GPU water steps on it, the render world copies the water's
//! normal-and-height texture into the surface's texture, and a camera's picture of the lit
//! surface is not blank. Both textures are read back from the render world on its own device.
//! Foam: the render world's foam texture holds the scene's coverage, and the sea with foam, and
//! a wake on the grid's own surface, draw brighter than without.

use std::time::Duration;

use bevy::app::PluginsState;
use bevy::camera::RenderTarget;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy::render::renderer::{RenderDevice, RenderQueue};
use bevy::render::settings::{Backends, WgpuSettings};
use bevy::render::texture::GpuImage;
use bevy::render::{RenderApp, RenderPlugin};
use bevy::time::TimeUpdateStrategy;
use bevy::window::ExitCondition;
use water_bevy::prelude::*;
use water_bevy::water_scene::water_gpu::read_texture;
use water_bevy::{Backend, FoamSettings, WaterSimulation, WaterSurface};
use water_render::picture_check;
use water_testkit::gpu::REQUIRE_GPU_VAR;

/// Cells along each side of the water.
const CELLS: usize = 96;

/// The camera's picture, pixels (a row of 4-byte texels is a multiple of 256 bytes, so the
/// readback has no row padding).
const PICTURE: (u32, u32) = (640, 384);

/// Frames with the clock running (60 per second): the click at the 20th fixed step, waves
/// spreading after.
const STEPPED_FRAMES: u32 = 60;

/// The fixed step of the click: after the still picture.
const CLICK_TICK: u32 = 20;

/// The frame of the still picture, before the click.
const STILL_FRAME: u32 = 10;

/// Most tries (10 ms apart) to wait for the renderer to start.
const PATIENCE: u32 = 600;

/// The render world's texture of `image`, read back through Bevy's own render device and queue
/// (the textures the frame just drew or copied into: the render world has no pipelined frame in
/// flight here).
fn read_render_image(app: &mut App, image: &Handle<Image>, bytes_per_texel: u32) -> Vec<u8> {
    let world = app.sub_app_mut(RenderApp).world_mut();
    let texture = world
        .resource::<RenderAssets<GpuImage>>()
        .get(image.id())
        .expect("the image is on the GPU")
        .texture
        .clone();
    let device = world.resource::<RenderDevice>();
    let queue = world.resource::<RenderQueue>();
    read_texture(device.wgpu_device(), queue, &texture, bytes_per_texel).expect("a readback")
}

fn click(mut tick: Local<u32>, mut impulses: MessageWriter<WaterImpulse>) {
    *tick += 1;
    if *tick == CLICK_TICK {
        impulses.write(WaterImpulse::new(Vec3::new(-0.8, 0.0, 0.6), 0.5, 0.15));
    }
}

/// Bevy's default plugins as a game has them, without the window system: the renderer finds
/// its own adapter on `backends` and makes its own device.
fn windowless_app(backends: Backends) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .build()
            .disable::<bevy::winit::WinitPlugin>()
            .disable::<bevy::log::LogPlugin>()
            .disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>()
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .set(RenderPlugin {
                // The backend `GpuContext::headless` chose (Vulkan first). Left to choose
                // among all, Bevy took llvmpipe's GL over lavapipe's Vulkan here, and GL lacks
                // what Bevy's own view textures need.
                render_creation: WgpuSettings {
                    backends: Some(backends),
                    ..default()
                }
                .into(),
                synchronous_pipeline_compilation: true,
                ..default()
            }),
    )
    .add_plugins(WaterPlugin::default())
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .add_systems(FixedUpdate, click.before(WaterSystems::Prepare));
    for _ in 0..PATIENCE {
        if app.plugins_state() != PluginsState::Adding {
            break;
        }
        bevy::tasks::tick_global_task_pools_on_main_thread();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_ne!(
        app.plugins_state(),
        PluginsState::Adding,
        "Bevy's renderer did not start"
    );
    app.finish();
    app.cleanup();
    app
}

/// The backend Bevy's renderer may use here: the one `GpuContext::headless` chose, or `None`
/// (a skip, with the reason; a failure under `WATER_REQUIRE_GPU=1`) where that is GL only.
fn renderer_backend(name: &str) -> Option<Backends> {
    let gpu = water_testkit::gpu_or_skip(name)?;
    let backend = Backends::from(gpu.adapter.get_info().backend);
    drop(gpu);
    if backend == Backends::GL {
        // Bevy's view textures need what GL lacks (VIEW_FORMATS): no adapter for this test.
        let why = "only a GL adapter, and Bevy's renderer needs Vulkan, Metal or DX12 \
                   (scripts/setup.sh installs Mesa's Vulkan driver)";
        assert!(
            std::env::var(REQUIRE_GPU_VAR).as_deref() != Ok("1"),
            "{name}: {REQUIRE_GPU_VAR}=1 but {why}"
        );
        eprintln!("{name}: skipped, {why}");
        return None;
    }
    Some(backend)
}

/// A camera drawing into an image (returned), a sun and some sky light.
fn camera_and_light(app: &mut App, eye: Vec3) -> Handle<Image> {
    let mut target =
        Image::new_target_texture(PICTURE.0, PICTURE.1, TextureFormat::Rgba8UnormSrgb, None);
    target.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    let picture = app.world_mut().resource_mut::<Assets<Image>>().add(target);
    app.world_mut().spawn((
        Camera3d::default(),
        // No tonemapping: its lookup tables are a Bevy feature the plugin leaves out.
        Tonemapping::None,
        RenderTarget::Image(picture.clone().into()),
        Transform::from_translation(eye).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    app.world_mut().spawn((
        DirectionalLight {
            illuminance: 12_000.0,
            ..default()
        },
        // From behind the water: the sun's highlight on the rings faces the camera.
        Transform::from_xyz(-4.0, 6.0, -8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    app.insert_resource(GlobalAmbientLight {
        brightness: 300.0,
        ..default()
    });
    picture
}

#[test]
fn the_plugin_in_bevys_own_renderer_draws_the_gpu_waters_heights() {
    // The same adapter check as every GPU test: a failure under WATER_REQUIRE_GPU=1, a skip
    // with the reason elsewhere. Bevy's renderer then finds its own adapter on that backend.
    const NAME: &str = "the_plugin_in_bevys_own_renderer_draws_the_gpu_waters_heights";
    let Some(backend) = renderer_backend(NAME) else {
        return;
    };
    let mut app = windowless_app(backend);
    assert!(
        app.world().get_resource::<RenderDevice>().is_some(),
        "RenderPlugin made no render device"
    );
    let picture = camera_and_light(&mut app, Vec3::new(0.0, 5.0, 6.0));
    app.world_mut()
        .spawn(Water::new(CELLS, CELLS).with_backend(Backend::Gpu));

    let mut still = Vec::new();
    for frame in 1..=STEPPED_FRAMES {
        app.update();
        if frame == STILL_FRAME {
            still = read_render_image(&mut app, &picture, 4);
        }
    }
    // Stop the clock: no more water steps, so the surface's texture and the water's heights
    // must agree once the render world has copied the last step.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    for _ in 0..3 {
        app.update();
    }
    let (heights, steps) = {
        let simulation = app
            .world_mut()
            .query::<&WaterSimulation>()
            .single(app.world())
            .expect("one simulated water");
        assert!(
            simulation.scene().water().gpu().is_some(),
            "the water is not on the GPU backend"
        );
        (
            simulation
                .heights_into(<[f32]>::to_vec)
                .expect("the GPU water's heights"),
            simulation.scene().steps_taken(),
        )
    };
    assert_eq!(
        app.should_exit(),
        None,
        "Bevy's renderer stopped on an error (its handler asks the app to exit)"
    );
    assert!(steps > 0, "the water never stepped");
    assert_eq!(heights.len(), CELLS * CELLS, "one height a cell");
    let largest = heights.iter().fold(0.0_f32, |m, h| m.max(h.abs()));
    assert!(
        largest > 1e-3,
        "the click made no waves: largest height {largest} m"
    );

    let surface = app
        .world_mut()
        .query::<&WaterSurface>()
        .single(app.world())
        .expect("one water surface")
        .heights
        .clone();
    let surface_bytes = read_render_image(&mut app, &surface, 16);
    let picture_bytes = read_render_image(&mut app, &picture, 4);

    // The surface's Rgba32Float texels hold the height in w: the water's heights, copied on the
    // GPU by the plugin's render-world system.
    let texels: Vec<f32> = bytemuck::pod_collect_to_vec(&surface_bytes);
    assert_eq!(texels.len(), CELLS * CELLS * 4, "surface texture size");
    let worst = texels
        .chunks_exact(4)
        .zip(&heights)
        .map(|(texel, h)| (texel[3] - h).abs())
        .fold(0.0_f32, f32::max);
    assert!(
        worst <= 1e-6 * largest,
        "the surface texture's heights differ from the water's by {worst} m (largest {largest} m)"
    );

    // The lit surface in the camera's picture: many colours and a spread of brightness (a frame
    // that drew nothing has one colour), and the rings visibly changed it from the still water
    // before the click (the check the examples' check modes make).
    let rgb = |rgba: &[u8]| -> Vec<u8> {
        rgba.chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    };
    assert_eq!(picture_bytes.len(), (PICTURE.0 * PICTURE.1 * 4) as usize);
    let (still, waves) = (rgb(&still), rgb(&picture_bytes));
    for (picture, when) in [(&still, "before the click"), (&waves, "at the end")] {
        let stats = picture_check::picture_stats(picture);
        assert_eq!(
            picture_check::blank_reason(&stats),
            None,
            "the camera's picture of the water {when} is blank ({stats:?})"
        );
    }
    assert_eq!(
        picture_check::unchanged_reason(&still, &waves),
        None,
        "the surface does not show the water's waves"
    );
}

/// The water `water` makes (given foam settings or none) drawn after 30 frames and 3 more with
/// the clock stopped, with `extra` spawned beside it, seen from `eye`: the scene's foam
/// coverage, the render world's foam texture, and the camera's picture.
fn drawn_with_foam(
    backend: Backends,
    eye: Vec3,
    foam: Option<FoamSettings>,
    water: impl Fn(Option<FoamSettings>) -> Water,
    extra: impl Fn(&mut App),
) -> (Option<Vec<f32>>, Vec<f32>, Vec<u8>) {
    let mut app = windowless_app(backend);
    let picture = camera_and_light(&mut app, eye);
    app.world_mut().spawn(water(foam));
    extra(&mut app);
    for _ in 0..30 {
        app.update();
    }
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        app.should_exit(),
        None,
        "Bevy's renderer stopped on an error"
    );
    let coverage = app
        .world_mut()
        .query::<&WaterSimulation>()
        .single(app.world())
        .expect("one simulated water")
        .scene()
        .foam_coverage();
    let foam_image = app
        .world_mut()
        .query::<&WaterSurface>()
        .single(app.world())
        .expect("one water surface")
        .foam
        .clone();
    let texels: Vec<f32> =
        bytemuck::pod_collect_to_vec(&read_render_image(&mut app, &foam_image, 4));
    let pixels = read_render_image(&mut app, &picture, 4);
    (coverage, texels, pixels)
}

/// The same water drawn with `settings` and without foam: the render world's foam texture
/// holds the scene's coverage to the bit, more than `min_cells` cells of it white, and the
/// picture with foam is brighter than the one without in 95% or more of the pixels that differ
/// (over the sun's glint foam may be darker), at least `min_pixels` of them.
fn assert_foam_drawn_white(
    backend: Backends,
    eye: Vec3,
    settings: FoamSettings,
    water: impl Fn(Option<FoamSettings>) -> Water,
    extra: impl Fn(&mut App),
    (min_cells, min_pixels): (usize, usize),
) {
    let (coverage, texels, white) = drawn_with_foam(backend, eye, Some(settings), &water, &extra);
    let coverage = coverage.expect("the scene has foam");
    assert_eq!(texels, coverage, "the render world's foam texture");
    let covered = coverage.iter().filter(|&&c| c > 0.0).count();
    assert!(covered > min_cells, "{covered} cells of foam");
    let (none, _, plain) = drawn_with_foam(backend, eye, None, &water, &extra);
    assert_eq!(none, None);
    let (mut changed, mut brighter) = (0, 0);
    for (f, p) in white.chunks_exact(4).zip(plain.chunks_exact(4)) {
        if f[..3] != p[..3] {
            changed += 1;
            let sum = |c: &[u8]| c[..3].iter().map(|&v| u32::from(v)).sum::<u32>();
            brighter += usize::from(sum(f) > sum(p));
        }
    }
    eprintln!("{covered} cells of foam; {brighter} of {changed} changed pixels brighter");
    assert!(changed >= min_pixels, "foam changed {changed} pixels");
    assert!(
        brighter * 100 >= changed * 95,
        "{brighter} of the {changed} pixels foam changed are brighter"
    );
}

/// A choppy sea's crests break where its Jacobian falls below the threshold, drawn by the sea's
/// surface (`ocean_surface.wgsl`): [`assert_foam_drawn_white`], more than 50 cells and at least
/// 1,000 pixels.
#[test]
fn foam_is_drawn_white_in_bevys_own_renderer() {
    const NAME: &str = "foam_is_drawn_white_in_bevys_own_renderer";
    let Some(backend) = renderer_backend(NAME) else {
        return;
    };
    use water_bevy::ocean::{OceanSpec, WaveSpectrum};
    let sea = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 12.0,
        fetch: 40_000.0,
        peak_enhancement: 3.3,
    })
    .with_choppiness(1.2)
    .with_seed(3);
    let water = |foam: Option<FoamSettings>| {
        let water = Water::new(CELLS, CELLS)
            .with_cell_size(0.25)
            .with_ocean(sea);
        match foam {
            Some(foam) => water.with_foam(foam),
            None => water,
        }
    };
    let settings = FoamSettings {
        half_life: 2.0,
        wake: 0.5,
        jacobian_threshold: Some(0.7),
        shore_depth: None,
    };
    let eye = Vec3::new(0.0, 8.0, 14.0);
    assert_foam_drawn_white(backend, eye, settings, water, |_| {}, (50, 1000));
}

/// A boat's wake on water without a sea, drawn by the grid's own surface
/// (`water_surface.wgsl`): a box pushed across the grid at 3 m/s leaves foam where its bow and
/// stern events fall, and [`assert_foam_drawn_white`] holds with more than 20
/// cells and at least 200 pixels.
#[test]
fn a_wake_is_drawn_white_on_the_grids_own_surface() {
    const NAME: &str = "a_wake_is_drawn_white_on_the_grids_own_surface";
    let Some(backend) = renderer_backend(NAME) else {
        return;
    };
    let water = |foam: Option<FoamSettings>| {
        let water = Water::new(CELLS, CELLS).with_cell_size(0.1);
        match foam {
            Some(foam) => water.with_foam(foam),
            None => water,
        }
    };
    let boat = |app: &mut App| {
        let half = Vec3::new(0.3, 0.2, 0.6);
        app.world_mut().spawn((
            Floating::cuboid(half, 70.0),
            FloatingForce {
                force: Vec3::new(0.0, 0.0, -150.0),
                torque: Vec3::ZERO,
            },
            FloatingMotion {
                velocity: Vec3::new(0.0, 0.0, -3.0),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, 2.5),
        ));
    };
    let settings = FoamSettings {
        half_life: 4.0,
        wake: 1.0,
        jacobian_threshold: None,
        shore_depth: None,
    };
    let eye = Vec3::new(0.0, 9.0, 6.0);
    assert_foam_drawn_white(backend, eye, settings, water, boat, (20, 200));
}
