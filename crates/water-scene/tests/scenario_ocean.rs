//! `[ocean]`: the ambient sea's keys build the sea DESIGN.md describes, and every mistake is
//! refused at its own line with the limit it broke.

use water_core::ocean::WaveSpectrum;
use water_scene::scenario::Scenario;
use water_scene::Backend;

const GRID: &str = "steps = 10\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.5\ndt = 0.05\n";
/// The grid's speed where it has no depth: a line of its own, so the [ocean] lines stay put.
const SPEED: &str = "wave_speed = 2.0\n";

fn parse(grid_extra: &str, ocean: &str) -> Result<Scenario, String> {
    Scenario::parse("sea.toml", &format!("{GRID}{grid_extra}[ocean]\n{ocean}"))
        .map_err(|e| e.to_string())
}

/// Refused at `line` (1-based, of the whole file) with `needle` in the message.
fn refused(grid_extra: &str, ocean: &str, line: usize, needle: &str) {
    let e = parse(grid_extra, ocean).expect_err(ocean);
    assert!(
        e.starts_with(&format!("sea.toml:{line}:")),
        "{ocean}: line {line}? {e}"
    );
    assert!(e.contains(needle), "{ocean}: {e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

const OCEAN_LINE: usize = 9;

#[test]
fn the_keys_build_the_sea_with_its_defaults() {
    let s = parse(
        SPEED,
        "spectrum = \"jonswap\"\nwind_speed = 9.0\nfetch = 3e4\n",
    )
    .expect("parses");
    let o = s.ocean.expect("a sea");
    assert_eq!(
        o.spectrum,
        WaveSpectrum::Jonswap {
            wind_speed: 9.0,
            fetch: 3e4,
            peak_enhancement: 3.3
        }
    );
    assert_eq!(
        (o.direction_degrees, o.spreading, o.choppiness, o.seed),
        (0.0, 10.0, 0.0, 0)
    );
    assert_eq!(o.depth, None, "deep water");
    let s = parse(
        "depth = 2.0\n",
        "spectrum = \"tma\"\nwind_speed = 9.0\nfetch = 3e4\ndirection = 45\nspreading = 3\nseed = 12\nchoppiness = 1.5\n",
    )
    .expect("tma over the grid's depth");
    let o = s.ocean.expect("a sea");
    assert_eq!(o.depth, Some(2.0));
    assert_eq!(
        (o.direction_degrees, o.spreading, o.choppiness, o.seed),
        (45.0, 3.0, 1.5, 12)
    );
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    scene.step_many(3).expect("steps");
    assert!(scene.ocean().expect("set").hs_spectrum() > 0.0);
}

#[test]
fn bad_values_are_refused_at_their_line_with_the_limit() {
    let base = "spectrum = \"jonswap\"\nfetch = 3e4\n";
    // Lines: [ocean] is line 8, its first key line 9.
    refused(
        SPEED,
        &format!("{base}wind_speed = -3\n"),
        OCEAN_LINE + 2,
        "wind_speed",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 0\n"),
        OCEAN_LINE + 2,
        "wind_speed",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 300\n"),
        OCEAN_LINE + 2,
        "(0, 100] m/s",
    );
    refused(
        SPEED,
        "spectrum = \"jonswap\"\nwind_speed = 8\nfetch = 0\n",
        OCEAN_LINE + 2,
        "fetch",
    );
    // Past full development (1.03e5 m at 8 m/s) the fetch-limited sea would grow without end.
    refused(
        SPEED,
        "spectrum = \"jonswap\"\nwind_speed = 8\nfetch = 1e7\n",
        OCEAN_LINE + 2,
        "give a fetch of at most 102900 m",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nspreading = 0.5\n"),
        OCEAN_LINE + 3,
        "[1, 1e4]",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nchoppiness = 2.5\n"),
        OCEAN_LINE + 3,
        "[0, 2]",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nchoppiness = -0.1\n"),
        OCEAN_LINE + 3,
        "choppiness",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\npeak_enhancement = 50\n"),
        OCEAN_LINE + 3,
        "[1, 20]",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nseed = -1\n"),
        OCEAN_LINE + 3,
        "seed",
    );
    // A breeze whose peak wave (0.17 m, over 300 m of fetch) is shorter than 2 of the grid's
    // 0.5 m cells: a sea without waves, refused with the cell size that would hold it.
    let breeze = "spectrum = \"jonswap\"\nfetch = 300\nwind_speed = 0.5\n";
    refused(
        SPEED,
        breeze,
        OCEAN_LINE + 2,
        "shorter than 2 cells of 0.5 m",
    );
    refused(SPEED, breeze, OCEAN_LINE + 2, "use cells of at most");
    // A wind whose peak no grid's cells can hold gets no advice to use such cells ("use
    // cells of at most 0.0 m").
    refused(
        SPEED,
        "spectrum = \"pierson-moskowitz\"\nwind_speed = 1e-300\n",
        OCEAN_LINE + 1,
        "raise wind_speed (or, for jonswap and tma, fetch) (it would take cells under 1e-6 m",
    );
    // Over a fetch, a wind too light for any fetch to make waves of 2 cells is refused at its
    // own line (the fetch's advice, a fetch of at most 0.16 m at 0.01 m/s, went in a circle:
    // typed back, the peak was too short, and a longer fetch was to be given).
    for wind in ["1e-300", "0.01", "0.5"] {
        refused(
            SPEED,
            &format!("{base}wind_speed = {wind}\n"),
            OCEAN_LINE + 2,
            "even the fully developed sea's peak wavelength",
        );
    }
    refused(
        SPEED,
        "spectrum = \"jonswap\"\nfetch = 1\nwind_speed = 0.5\n",
        OCEAN_LINE + 2,
        "no fetch makes waves the grid can hold; raise wind_speed, or use cells of at most 0.104 m",
    );
    // Past full development, the fetch is given back as written, apart from the limit (102929 m
    // was "102900 m is longer than the 102900 m").
    refused(
        SPEED,
        "spectrum = \"jonswap\"\nwind_speed = 8\nfetch = 102929\n",
        OCEAN_LINE + 2,
        "fetch = 102929 m is past full development at wind_speed = 8 m/s",
    );
    // A choppiness f32 holds only as a subnormal is 0 in the displacement (1e-320 was taken
    // and printed as a number of 320 digits).
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nchoppiness = 1e-320\n"),
        OCEAN_LINE + 3,
        "choppiness = 1e-320 is 0 in single precision",
    );
    refused(
        SPEED,
        "spectrum = \"phillips\"\nwind_speed = 8\n",
        OCEAN_LINE,
        "pierson-moskowitz, jonswap, tma",
    );
    refused(
        SPEED,
        "spectrum = \"tma\"\nwind_speed = 8\nfetch = 3e4\n",
        OCEAN_LINE,
        "needs a depth",
    );
    refused(
        SPEED,
        "spectrum = \"jonswap\"\nwind_speed = 8\n",
        OCEAN_LINE - 1,
        "needs `fetch`",
    );
    refused(
        SPEED,
        "spectrum = \"pierson-moskowitz\"\nwind_speed = 8\nfetch = 100\n",
        OCEAN_LINE + 2,
        "[ocean] fetch applies to jonswap and tma; pierson-moskowitz is a fully developed sea: remove it",
    );
    refused(
        SPEED,
        &format!("{base}wind_speed = 8\nswell = 1\n"),
        OCEAN_LINE + 3,
        "unknown field",
    );
    refused(
        "depth = 4.0\n",
        &format!("{base}wind_speed = 8\ndepth = 5.0\n"),
        OCEAN_LINE + 3,
        "disagree",
    );
}

/// A peak too short for the grid's cells is blamed on what shortens it: in water 1 um deep the
/// TMA peak of an 8 m/s wind is 1 cm long (18 m in deep water), so the depth is named; over a
/// fetch of 2.5 m, the fetch; a light wind over deep water, the wind.
#[test]
fn a_peak_too_short_is_blamed_on_what_shortens_it() {
    let tma = "spectrum = \"tma\"\nfetch = 2e4\nwind_speed = 8\n";
    refused(
        SPEED,
        &format!("{tma}depth = 1e-6\n"),
        OCEAN_LINE + 3,
        "deepen the water",
    );
    // Shallower than a micrometre, the depth's own range (a grid's and Airy's).
    refused(
        SPEED,
        &format!("{tma}depth = 1e-7\n"),
        OCEAN_LINE + 3,
        "depth = 1e-7 is outside the allowed range [1e-6, 11000] m",
    );
    refused(
        SPEED,
        "spectrum = \"pierson-moskowitz\"\nwind_speed = 0.5\n",
        OCEAN_LINE + 1,
        "raise wind_speed",
    );
    // 2.5 m of fetch holds a peak of centimetres; the fully developed sea's would fit. The
    // fetch is named as written.
    for needle in ["over a fetch of 2.5 m the sea's peak", "raise fetch"] {
        refused(
            SPEED,
            "spectrum = \"jonswap\"\nwind_speed = 8\nfetch = 2.5\n",
            OCEAN_LINE + 2,
            needle,
        );
    }
}

/// A whole-number key given a negative number, a fraction or a number past TOML's integers is
/// refused with the range it holds, not a Rust type's name, and a huge number is written short.
#[test]
fn whole_number_keys_name_their_range() {
    let grid = "[grid]\nwidth = 32\nheight = 32\ncell_size = 0.5\ndt = 0.05\nwave_speed = 2.0\n";
    for (steps, line, needle) in [
        ("-1", 1, "a whole number from 0 to 9223372036854775807"),
        ("2.5", 1, "a whole number from 0 to 9223372036854775807"),
        ("1e300", 1, "floating point `1e300`"),
        ("100000000000000000000", 1, "at most 9223372036854775807"),
        ("\"ten\"", 1, "a whole number from 0 to"),
    ] {
        let text = format!("steps = {steps}\n{grid}");
        let e = Scenario::parse("sea.toml", &text)
            .expect_err(steps)
            .to_string();
        assert!(e.starts_with(&format!("sea.toml:{line}:")), "{steps}: {e}");
        assert!(e.contains(needle), "{steps}: {e}");
        assert!(!e.contains("u64") && e.len() < 240, "{steps}: {e}");
    }
    // A key's own range where it is narrower than the type's.
    let e = Scenario::parse(
        "sea.toml",
        &format!("steps = 10\n{}", grid.replace("width = 32", "width = 2.5")),
    )
    .expect_err("a fraction of a cell")
    .to_string();
    assert!(
        e.starts_with("sea.toml:3:") && e.contains("from 3 to 65536"),
        "{e}"
    );
    // A number where a word is wanted says so in words.
    let e = Scenario::parse(
        "sea.toml",
        &format!("steps = 10\n{}", grid.replace("dt = 0.05", "dt = \"x\"")),
    )
    .expect_err("a word for dt")
    .to_string();
    assert!(e.contains("expected a number") && !e.contains("f64"), "{e}");
}
