//! The interactive demo's check mode, run as a user would run it: `water-demo --frames N
//! --screenshot PATH --headless` plays scripted clicks and crates in each scene and must write a
//! picture that is not blank (the demo's own check, which exits 1 otherwise). CI also runs it
//! with a window under Xvfb (`.ci/run`); here it draws offscreen, so `cargo test` needs no
//! display.

use std::path::PathBuf;
use std::process::Command;

use water_testkit::gpu_or_skip;

fn demo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_water-demo"))
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("water-demo");
    std::fs::create_dir_all(&dir).expect("test output folder");
    dir
}

#[test]
fn both_scenes_draw_pictures_that_are_not_blank() {
    if gpu_or_skip("water_demo_check_mode").is_none() {
        return;
    }
    for scene in ["grid", "sphere"] {
        let path = out_dir().join(format!("{scene}.png"));
        let _ = std::fs::remove_file(&path);
        let output = demo()
            .args([
                "--headless",
                "--frames",
                "12",
                "--size",
                "480x270",
                "--scene",
                scene,
            ])
            .arg("--screenshot")
            .arg(&path)
            .output()
            .expect("the demo runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "{scene}: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            output.status
        );
        assert!(stdout.contains("not blank"), "{scene}: {stdout}");
        let png = std::fs::read(&path).expect("the screenshot was written");
        assert!(png.starts_with(b"\x89PNG"), "{scene}: not a PNG");
    }
}

#[test]
fn bad_arguments_fail_with_one_line_and_status_2() {
    let output = demo()
        .args(["--quality", "300"])
        .output()
        .expect("the demo runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--quality takes 128, 256, 512 or 1024"),
        "{stderr}"
    );
    let help = demo().arg("--help").output().expect("the demo runs");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--screenshot"));
}
