//! The end of a check run (`--frames N`), and the whole run where there is no window
//! (`--headless`).

use std::time::Instant;

use crate::demo::Demo;
use crate::error::DemoError;
use crate::gpu::Gpu;
use crate::options::{CheckRun, Options};
use crate::screenshot::save_and_check;
use crate::script::Script;
use crate::timing::{wait_for_gpu, TimingSummary, TimingWindow};
use water_render::RgbaImage;

/// Simulated time of one check frame, seconds: a fixed step, so a check plays the same water
/// however fast the machine draws.
pub const CHECK_FRAME_SECONDS: f64 = 1.0 / 30.0;

/// The scene drawn once before any input: still water, for the check that the last frame's
/// water moved.
///
/// # Errors
/// A failed draw or readback.
pub fn still_picture(demo: &mut Demo, gpu: &Gpu) -> Result<RgbaImage, DemoError> {
    submit_frame(demo, gpu, "water-demo still frame")?;
    Ok(demo.target().read()?)
}

/// Records the scene's picture in an encoder labelled `label` and submits it.
///
/// # Errors
/// A failed draw.
fn submit_frame(demo: &mut Demo, gpu: &Gpu, label: &str) -> Result<(), DemoError> {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    demo.render(&mut encoder)?;
    gpu.queue.submit([encoder.finish()]);
    Ok(())
}

/// Reports the run's timing and writes and judges the screenshot, if one was asked for.
///
/// # Errors
/// A failed readback; [`DemoError::Screenshot`]; [`DemoError::Blank`].
pub fn finish(
    demo: &Demo,
    gpu: &Gpu,
    check: &CheckRun,
    still: &RgbaImage,
    timing: Option<TimingSummary>,
    presented: Option<u32>,
) -> Result<(), DemoError> {
    let shown = presented.map_or_else(
        || "offscreen only".to_owned(),
        |n| format!("{n} presented to the window"),
    );
    println!(
        "water-demo: {} frames of the {} ({}; {shown}) on {}",
        check.frames,
        demo.active().name(),
        demo.describe(),
        gpu.describe()
    );
    if let Some(timing) = timing {
        println!("water-demo: mean {}", timing.describe());
    }
    // A windowed check is also a check of the window: pictures that never reach it fail it.
    if presented == Some(0) {
        return Err(DemoError::NothingPresented {
            frames: check.frames,
        });
    }
    let Some(path) = &check.screenshot else {
        return Ok(());
    };
    // Reading waits for every frame submitted, the last one included.
    let image = demo.target().read()?;
    let (stats, change) = save_and_check(&image, still, path)?;
    println!(
        "water-demo: wrote {} ({}x{}, {} colours, brightness standard deviation {:.1}): not blank; \
         {change:.2} levels of change from the still first frame",
        path.display(),
        image.width(),
        image.height(),
        stats.distinct_colours,
        stats.luma_std_dev
    );
    Ok(())
}

/// Plays `check` without a window: a headless device, the same scenes, script and checks.
///
/// # Errors
/// As the windowed run, without the window's.
pub fn run_headless(options: &Options, check: &CheckRun) -> Result<(), DemoError> {
    let gpu = Gpu::headless()?;
    let mut demo = Demo::new(
        gpu.context(),
        options.scene,
        options.quality,
        options.width,
        options.height,
    )?;
    let still = still_picture(&mut demo, &gpu)?;
    let script = Script::for_frames(check.frames);
    let mut timing = TimingWindow::default();
    let mut last = Instant::now();
    for frame in 0..check.frames {
        script.play(frame, &mut demo)?;
        let steps = demo.advance(CHECK_FRAME_SECONDS)?;
        submit_frame(&mut demo, &gpu, "water-demo frame")?;
        // Wait for the picture, as a window's swapchain would, so the frame time is the frame's.
        wait_for_gpu(&gpu.device)?;
        let now = Instant::now();
        timing.record(now - last, &steps);
        last = now;
    }
    finish(&demo, &gpu, check, &still, timing.take(), None)
}
