//! Nothing bad gets through: closed and full stdout, non-finite or absurd numbers, arrays of the
//! wrong length, parameters that would be ignored, impulses and land outside the grid or the
//! run, grids too big for memory, thread counts, reused output folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

use common::{
    assert_success, run_file, run_text, scratch, stderr, water, water_command, write_scenario,
};

/// The write end of a pipe whose read end is already closed: every write fails with EPIPE,
/// whenever the child makes it.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Stdio::from(writer)
}

/// The one line a refused input gives: exit 1, one line on stderr, no panic.
fn refused(out: &Output) -> String {
    let e = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "one line: {e}");
    assert!(!e.contains("panicked"), "{e}");
    e
}

const GRID: &str =
    "steps = 10\n[grid]\nwidth = 20\nheight = 16\ncell_size = 0.1\nwave_speed = 1.0\ndt = 0.02\n";

/// Runs scenario `text`, written as `s.toml`, into a fresh folder.
fn run_grid_text(name: &str, text: &str) -> Output {
    run_text(name, "s.toml", text).0
}

/// The one line scenario `text` is refused with.
fn refusal(name: &str, text: &str) -> String {
    refused(&run_grid_text(name, text))
}

#[test]
fn a_closed_stdout_ends_quietly_and_a_full_one_is_one_line() {
    // Help and the version too: they were written by the parser, which took the full stdout's
    // refusal in silence and exited 0.
    for args in [
        &["stability", "--wave-speed", "2", "--cell-size", "0.1"][..],
        &["bench", "grid", "--size", "32", "--steps", "2"][..],
        &["--help"][..],
        &["bench", "scene", "--help"][..],
        &["--version"][..],
    ] {
        // A reader that has gone away before anything is written.
        let out = water_command()
            .args(args)
            .stdout(closed_pipe())
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));

        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = water_command()
            .args(args)
            .stdout(full)
            .output()
            .expect("run");
        let e = refused(&out);
        assert!(e.contains("No space left"), "{e}");
    }
}

#[test]
fn run_to_a_closed_pipe_writes_its_files_and_exits_141() {
    let dir = scratch("pipe");
    let out = dir.join("out");
    let res = water_command()
        .args(["run", "--builtin", "harbour", "--quiet", "--out"])
        .arg(&out)
        .stdout(closed_pipe())
        .output()
        .expect("run");
    assert_eq!(res.status.code(), Some(141), "{}", stderr(&res));
    assert!(out.join("summary.json").exists());
}

#[test]
fn huge_amplitudes_and_sizes_are_refused_naming_what_was_written() {
    let imp = |amp: &str| {
        format!("{GRID}[[impulse]]\nx = 10.0\ny = 8.0\nradius = 3.0\namplitude = {amp}\n")
    };
    for amp in ["1e38", "1e39", "-1e300"] {
        let e = refusal("amp", &imp(amp));
        assert!(e.contains("impulse amplitude") && e.contains("1e6"), "{e}");
        assert!(!e.contains("inf"), "names the value written, not inf: {e}");
    }
    let e = refusal(
        "cell",
        &GRID.replace("cell_size = 0.1", "cell_size = 1e300"),
    );
    assert!(e.contains("cell_size = 1e300") && e.contains("1e6"), "{e}");
    let res = water(&[
        "stability",
        "--wave-speed",
        "1e-300",
        "--cell-size",
        "1e300",
    ]);
    let e = refused(&res);
    assert!(e.contains("1e-6") || e.contains("1e6"), "{e}");
    let body = format!(
        "{GRID}[[body]]\nshape = \"sphere\"\nradius = 1e30\nmass = 1.0\nposition = [1.0, 0.8, 0.0]\n"
    );
    let e = refusal("radius", &body);
    assert!(e.contains("sphere radius") && e.contains("1e4"), "{e}");
}

#[test]
fn arrays_of_the_wrong_length_are_refused_with_line_and_column() {
    let body = |position: &str| {
        format!(
            "{GRID}[[body]]\nshape = \"box\"\nsize = [0.4, 0.4, 0.2]\nmass = 10.0\nposition = {position}\n"
        )
    };
    for (position, want) in [
        ("[1.0, 0.8, 0.0, 5.0]", "expected 3 numbers, got 4"),
        ("[1.0, 0.8, 0.0, \"x\"]", "expected 3 numbers, got 4"),
        ("[1.0, \"x\", 0.0]", "element 2 is a string"),
    ] {
        let e = refusal("array", &body(position));
        assert!(e.contains(want) && e.contains("s.toml:12:"), "{e}");
    }
}

#[test]
fn toml_syntax_errors_are_one_line_with_file_line_and_column() {
    let e = refusal("syntax", "steps = 10\n[grid\nwidth = 3\n");
    assert!(e.contains("s.toml:2:"), "{e}");
}

#[test]
fn classic_mode_needs_no_units_and_refuses_what_it_would_ignore() {
    let classic =
        "steps = 10\n[grid]\nwidth = 20\nheight = 16\nboundary = \"fixed\"\nmode = \"classic\"\n";
    let res = run_grid_text("classic-bare", classic);
    assert_success(&res);
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(text.contains("(10.000 s simulated)"), "{text}");

    let e = refusal("classic-damping", &format!("{classic}damping = 0.99\n"));
    assert!(e.contains("classic_shift") && e.contains(":7:"), "{e}");

    let e = refusal(
        "classic-dt",
        &format!("{classic}cell_size = 0.1\nwave_speed = 1.0\ndt = 0.02\n"),
    );
    assert!(e.contains("a = 1/2") && e.contains("0.0707106"), "{e}");

    // dt alone: the speed follows, and the simulated time is the steps times dt.
    let res = run_grid_text("classic-dt-alone", &format!("{classic}dt = 0.5\n"));
    assert_success(&res);
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(text.contains("(5.000 s simulated)"), "{text}");

    // Other modes still need all three.
    let e = refusal("signed-no-dt", &GRID.replace("dt = 0.02\n", ""));
    assert!(e.contains("needs `dt`"), "{e}");
}

#[test]
fn impulses_and_land_outside_the_grid_or_the_run_are_refused() {
    let imp = |x: &str, step: &str| {
        format!(
            "{GRID}[[impulse]]\nx = {x}\ny = 8.0\nradius = 3.0\namplitude = 0.1\nstep = {step}\n"
        )
    };
    let e = refusal("imp-outside", &imp("40.0", "0"));
    assert!(
        e.contains("reaches no cell") && e.contains("20 x 16"),
        "{e}"
    );
    // Partly inside is clipped, as documented.
    let res = run_grid_text("imp-edge", &imp("21.0", "0"));
    assert_success(&res);
    let e = refusal("imp-late", &imp("10.0", "10"));
    assert!(e.contains("step 10") && e.contains("10 steps"), "{e}");
    let land = format!("{GRID}[[land]]\nx0 = 0\ny0 = 0\nx1 = 30\ny1 = 4\n");
    let e = refusal("land", &land);
    assert!(e.contains("beyond the 20 x 16 grid"), "{e}");
}

/// Writes `text` as `file_name` into the fresh folder `dir_name` and runs `water run FILE
/// --quiet --out OUT` on it under a 2 GB address-space limit (`ulimit -v`), OUT being that
/// folder's `out`; returns the run and `out`.
fn run_under_2_gb(dir_name: &str, file_name: &str, text: &str) -> (Output, PathBuf) {
    let dir = scratch(dir_name);
    let scenario = write_scenario(&dir, file_name, text);
    let out = dir.join("out");
    let script = format!(
        "ulimit -v 2000000 && exec {} run {} --quiet --out {}",
        env!("CARGO_BIN_EXE_water"),
        scenario.display(),
        out.display()
    );
    let res = Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash");
    (res, out)
}

#[test]
fn a_grid_too_big_for_the_memory_allowed_is_one_line_not_an_abort() {
    let big = GRID
        .replace("width = 20", "width = 30000")
        .replace("height = 16", "height = 30000");
    let (res, out) = run_under_2_gb("ulimit", "big.toml", &big);
    let e = refused(&res);
    assert!(e.contains("30000 x 30000") && e.contains("GiB"), "{e}");
    assert!(!out.join("height.npy").exists());
}

/// A sphere scenario whose icosphere does not fit in the memory allowed (level 11: 41.9
/// million vertices) is refused in one line naming the bytes, not an abort, under a 2 GB
/// address-space limit; nothing is written.
#[test]
fn a_sphere_too_big_for_the_memory_allowed_is_one_line_not_an_abort() {
    let big = "steps = 1\n[sphere]\nlevel = 11\nradius = 1.0\nwave_speed = 0.5\ndt = 0.0001\n\
               damping = 0.999\nstepper = \"mean\"\n";
    let (res, out) = run_under_2_gb("ulimit-sphere", "big-sphere.toml", big);
    let e = refused(&res);
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    assert!(e.contains("41943042 vertices") && e.contains("GiB"), "{e}");
    assert!(!out.join("height.npy").exists());
}

#[test]
fn thread_counts_are_capped_and_negative_numbers_reach_their_range_checks() {
    let e = refused(&water(&[
        "bench",
        "grid",
        "--size",
        "32",
        "--steps",
        "1",
        "--threads",
        "100000",
    ]));
    assert!(
        e.contains("--threads is 100000") && e.contains("per core"),
        "{e}"
    );
    let e = refused(&water(&[
        "stability",
        "--wave-speed",
        "-1",
        "--cell-size",
        "0.1",
    ]));
    assert!(
        e.contains("error: --wave-speed must be greater than 0, got -1"),
        "{e}"
    );
}

#[test]
fn stability_calls_its_own_largest_stable_dt_stable() {
    // What `water stability` prints for wave speed `c` (m/s) and cell size `h` (m).
    let report = |c: &str, h: &str| {
        let res = water(&["stability", "--wave-speed", c, "--cell-size", h]);
        assert_success(&res);
        String::from_utf8_lossy(&res.stdout).into_owned()
    };
    let text = report("5", "0.01");
    assert!(text.contains("stable         = yes"), "{text}");
    assert!(text.contains("substeps       = 1 "), "{text}");
    assert!(!text.contains("no grid steps"), "{text}");
    // A stable step shorter than any a grid takes is said to be of no use (`water run` of the
    // same grid refuses every dt).
    let text = report("1e6", "1e-6");
    assert!(
        text.contains("max stable dt  = 7.071e-13 s")
            && text.contains("no grid steps these h and c")
            && text.contains("1e-9 s"),
        "{text}"
    );
    assert!(!text.contains("above the longest"), "{text}");
    // One longer than any a grid takes is said to hold for every dt a grid takes.
    let text = report("1e-6", "1e6");
    assert!(
        text.contains("max stable dt  = 7.071e11 s")
            && text.contains("above the longest a grid takes, 1e6 s")
            && !text.contains("no grid steps"),
        "{text}"
    );
}

fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

#[test]
fn a_reused_out_folder_holds_only_this_runs_files() {
    let split = GRID.to_owned()
        + "mode = \"split\"\n[[impulse]]\nx = 10.0\ny = 8.0\nradius = 3.0\namplitude = 0.1\n";
    let (res, out) = run_text("reuse", "s.toml", &split);
    assert_success(&res);
    assert!(names(&out).contains(&"positive.npy".to_owned()));
    std::fs::write(out.join("notes.txt"), "mine").expect("write");
    let file = out.parent().expect("parent").join("s.toml");
    std::fs::write(&file, split.replace("mode = \"split\"\n", "")).expect("write");
    let res = run_file(&file, &out, &["--quiet"]);
    assert_success(&res);
    assert_eq!(
        names(&out),
        ["height.npy", "height.png", "notes.txt", "summary.json"]
    );
    let printed = String::from_utf8_lossy(&res.stdout);
    assert_eq!(printed.matches("wrote ").count(), 3, "{printed}");

    // A failed run (here: an output folder name that is not UTF-8) changes nothing.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = out
            .parent()
            .expect("parent")
            .join(std::ffi::OsStr::from_bytes(b"out-\xff"));
        let res = water_command()
            .arg("run")
            .arg(&file)
            .arg("--out")
            .arg(&bad)
            .arg("--quiet")
            .output()
            .expect("run");
        let e = refused(&res);
        assert!(e.contains("not valid UTF-8"), "{e}");
        assert!(!bad.exists());
    }
}

/// A render past the memory allowed is refused in one line naming the bytes, not wgpu's
/// out-of-memory panic or the software driver's abort: under a 800 MB address-space limit the
/// device's own share (on a software adapter, its textures and its shader compiler's room) is
/// counted after the device is made. Nothing is written.
#[test]
fn a_render_too_big_for_the_memory_allowed_is_one_line_not_a_panic() {
    let dir = scratch("ulimit-render");
    let out = dir.join("out");
    let script = format!(
        "ulimit -v 800000 && exec {} render --builtin harbour --size 4096x4096 --frames 2 \
         --out {}",
        env!("CARGO_BIN_EXE_water"),
        out.display()
    );
    let result = Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash");
    let e = stderr(&result);
    // The windowing libraries' complaint about a missing XDG_RUNTIME_DIR is theirs, not ours.
    let ours: Vec<&str> = e
        .lines()
        .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
        .collect();
    if e.contains("no GPU adapter") {
        assert!(
            std::env::var("WATER_REQUIRE_GPU").map_or(true, |v| v != "1"),
            "WATER_REQUIRE_GPU=1 but {e}"
        );
        return;
    }
    assert_eq!(result.status.code(), Some(1), "{e}");
    assert_eq!(ours.len(), 1, "one line: {e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(
        ours[0].contains("GiB") || ours[0].contains("memory"),
        "names the memory: {e}"
    );
    assert!(!out.join("render.json").exists());
    assert!(!out.join("frame-0000.png").exists());
}

/// A number option past f64's range is refused as it was typed: `--speed 1e400` was read as
/// infinity and refused as "--speed inf".
#[test]
fn a_number_option_past_f64_is_refused_as_written() {
    for (args, want) in [
        (
            &["bench", "ocean", "--size", "64", "--speed", "1e400"][..],
            "invalid value '1e400' for '--speed <SPEED>': expected a finite number",
        ),
        (
            &["stability", "--wave-speed", "-1e400", "--cell-size", "1"][..],
            "invalid value '-1e400' for '--wave-speed <WAVE_SPEED>': expected a finite number",
        ),
        (
            &["stability", "--wave-speed", "2", "--cell-size", "NaN"][..],
            "invalid value 'NaN' for '--cell-size <CELL_SIZE>': expected a finite number",
        ),
        // Too small for f64, where it is not 0: it was read as 0 ("--speed 1e-400" ran with
        // the grid standing still, "--wave-speed 1e-400" was "not greater than 0, got 0.0").
        (
            &["bench", "ocean", "--size", "64", "--speed", "1e-400"][..],
            "invalid value '1e-400' for '--speed <SPEED>': expected 0 or a number at least \
             5e-324 in size",
        ),
    ] {
        let out = water(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = stderr(&out);
        assert!(e.starts_with(&format!("error: {want}")), "{args:?}: {e}");
    }
    // A negative number with an exponent is a value, not a flag ("unexpected argument '-1'"):
    // it reaches the range check.
    let e = refused(&water(&[
        "stability",
        "--wave-speed",
        "-1e-5",
        "--cell-size",
        "0.1",
    ]));
    assert!(
        e.contains("error: --wave-speed must be greater than 0, got -1e-5"),
        "{e}"
    );
    // Cell updates past what a point runs in minutes are refused by their range (1e308 was
    // "--steps must be at least 1"; 1e18 ran for hours).
    let dir = scratch("updates");
    let suite = |updates: &str| {
        refused(
            &water_command()
                .args(["bench", "suite", "--no-gpu", "--sizes", "128"])
                .args(["--cell-updates", updates, "--out"])
                .arg(dir.join("out"))
                .output()
                .expect("bench suite"),
        )
    };
    let e = suite("1e13");
    assert!(
        e.contains("--cell-updates must be from 1 to 1e12, not 1e13"),
        "{e}"
    );
    // Just past the limit, every digit (four read as the limit: "from 1 to 1e12, not 1e12").
    let e = suite("1000000000001");
    assert!(e.contains("1e12, not 1000000000001"), "{e}");
}

/// A whole-number option given a negative number, a fraction, a word or a number past its type
/// is one line naming the option, the value and the range its help states, or its type's
/// where the help states none (the parser said `invalid digit found in string` over three
/// lines).
#[test]
fn a_whole_number_option_names_its_range() {
    for (args, want) in [
        (
            &["bench", "scene", "--size", "32", "--bodies", "-1"][..],
            "--bodies takes a whole number from 0 to 10000, got '-1'",
        ),
        (
            &["bench", "scene", "--size", "1.5", "--bodies", "1"][..],
            "--size takes a whole number from 16 to 8192, got '1.5'",
        ),
        (
            &[
                "bench",
                "grid",
                "--size",
                "99999999999999999999",
                "--steps",
                "1",
            ][..],
            "--size takes a whole number from 3 to 32768, got '99999999999999999999'",
        ),
        (
            &["bench", "grid", "--size", "32", "--steps", "ten"][..],
            "--steps takes a whole number, got 'ten'",
        ),
        // Past u64: a whole number, said to be too large (it was "takes a whole number").
        (
            &[
                "bench",
                "grid",
                "--size",
                "32",
                "--steps=18446744073709551616",
            ][..],
            "--steps takes a whole number, got '18446744073709551616', too large for it",
        ),
        // A 32-bit option is refused by the parser's range check, not by `str::parse`.
        (
            &["bench", "sphere", "--level", "-1", "--steps", "1"][..],
            "--level takes a whole number from 0 to 4294967295, got '-1'",
        ),
    ] {
        let out = water(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = stderr(&out);
        assert_eq!(e, format!("error: {want}\n"), "{args:?}");
    }
    // 0 steps is a whole number, refused by the bench (exit 1), with the value given back.
    let out = water(&["bench", "grid", "--size", "32", "--steps", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "error: --steps must be at least 1, got 0\n");
    // A word on the line that is not UTF-8 is passed over when looking for the range (reading
    // the line as UTF-8 panicked).
    let out = water_command()
        .args(["bench", "suite", "--out"])
        .arg(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"\xff"))
        .args(["--threads", "x"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: --threads takes a whole number, got 'x'\n"
    );
}
