//! A value a scenario would accept and then drop, clamp, wrap or leave without effect is refused
//! at its line, naming the value and what it needs: an impulse that adds nothing (on land, or
//! rounding to 0 in classic mode), a classic amplitude past 16 bits, a damping shift given as a
//! negative number, two bodies of one name, a click's radius past half the sphere, a horizontal
//! force on a towed body (its path holds x and y), a body too light for the step (refused at
//! its mass, not at its first step), a sphere's speed or step outside the grid's
//! ranges; and a huge value is named short.

use water_scene::scenario::ScenarioFile;

/// 32 x 32 cells of 0.1 m, waves at 2 m/s, 10 steps.
const GRID: &str = "steps = 10\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.1\nwave_speed = 2.0\ndt = 0.02\nboundary = \"reflective\"\n";
/// A classic grid (a = 1/2, fixed rim), 10 steps.
const CLASSIC: &str =
    "steps = 10\n[grid]\nwidth = 32\nheight = 32\nmode = \"classic\"\nboundary = \"fixed\"\n";

/// `text`'s refusal: at `line` (1-based), with each of `needles` in its one line.
fn refused(text: &str, line: usize, needles: &[&str]) {
    let e = ScenarioFile::parse("case.toml", text)
        .err()
        .unwrap_or_else(|| panic!("accepted:\n{text}"))
        .to_string();
    assert!(
        e.starts_with(&format!("case.toml:{line}:")),
        "line {line}? {e}"
    );
    for needle in needles {
        assert!(e.contains(needle), "{needle:?} not in: {e}");
    }
    assert!(!e.contains('\n'), "one line: {e}");
}

/// `text` is taken.
fn taken(text: &str) {
    if let Err(e) = ScenarioFile::parse("case.toml", text) {
        panic!("refused: {e}\n{text}");
    }
}

fn impulse(x: f64, radius: f64, amplitude: f64) -> String {
    format!("[[impulse]]\nx = {x:?}\ny = 16.0\nradius = {radius:?}\namplitude = {amplitude:?}\n")
}

#[test]
fn an_impulse_that_reaches_only_land_is_refused() {
    let land = "[[land]]\nx0 = 8\ny0 = 8\nx1 = 24\ny1 = 24\n";
    // Under the land's middle: every cell it reaches is land.
    refused(
        &format!("{GRID}{land}{}", impulse(16.0, 4.0, 1.0)),
        14,
        &["reaches only land", "would add nothing"],
    );
    // Reaching past the land's edge, it adds to the water there.
    taken(&format!("{GRID}{land}{}", impulse(16.0, 12.0, 1.0)));
    // On a fixed rim, an impulse on the rim's cells alone adds nothing either.
    let fixed = GRID.replace("reflective", "fixed");
    refused(
        &format!(
            "{fixed}{}",
            "[[impulse]]\nx = 0.0\ny = 16.0\nshape = \"point\"\namplitude = 1.0\n"
        ),
        9,
        &["reaches only land", "fixed rim"],
    );
}

#[test]
fn classic_amplitudes_fit_sixteen_bits_and_reach_a_unit() {
    // 1e6 height units would saturate at the i16 range (and the C ripple then wraps).
    refused(
        &format!("{CLASSIC}{}", impulse(16.0, 4.0, 1e6)),
        11,
        &["impulse amplitude = 1000000", "[-32767, 32767]", "16-bit"],
    );
    refused(
        &format!("{CLASSIC}{}", impulse(16.0, 4.0, -40000.0)),
        11,
        &["impulse amplitude = -40000", "[-32767, 32767]"],
    );
    // Past the general limit too: classic's own range is the one named, not [-1e6, 1e6].
    let e = ScenarioFile::parse(
        "case.toml",
        &format!("{CLASSIC}{}", impulse(16.0, 4.0, 1e9)),
    )
    .expect_err("refused")
    .to_string();
    assert!(e.contains("[-32767, 32767]") && !e.contains("1e6"), "{e}");
    // 0.4 units round to 0 in every cell.
    refused(
        &format!("{CLASSIC}{}", impulse(16.0, 4.0, 0.4)),
        7,
        &[
            "round to 0 height units",
            "amplitude is 0.4",
            "at least 0.5",
        ],
    );
    // An amplitude of 0 adds nothing in any mode, and says so without speaking of classic's.
    let e = ScenarioFile::parse("case.toml", &format!("{GRID}{}", impulse(16.0, 4.0, 0.0)))
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("the impulse's amounts all are 0") && !e.contains("round to 0"),
        "{e}"
    );
    taken(&format!("{CLASSIC}{}", impulse(16.0, 4.0, 32767.0)));
    taken(&format!("{CLASSIC}{}", impulse(16.0, 4.0, 0.6)));
}

#[test]
fn a_negative_damping_shift_is_refused_as_written() {
    refused(
        &format!("{CLASSIC}classic_shift = -1\n"),
        7,
        &["classic_shift = -1 ", "0..=15", "0: no damping"],
    );
    refused(
        &format!("{CLASSIC}classic_shift = 16\n"),
        7,
        &["classic_shift = 16 ", "0..=15"],
    );
    taken(&format!("{CLASSIC}classic_shift = 0\n"));
    taken(&format!("{CLASSIC}classic_shift = 15\n"));
}

#[test]
fn impulse_radius_and_step_mistakes_say_what_they_are() {
    refused(
        &format!("{GRID}{}", impulse(16.0, -1.0, 1.0)),
        12,
        &["impulse radius must not be negative", "got -1 cells"],
    );
    // 0 and a radius that rounds to 0 in f32 are refused for a cosine drop, named as written.
    for (radius, written) in [(0.0, "got 0"), (1e-300, "got 1e-300")] {
        refused(
            &format!("{GRID}{}", impulse(16.0, radius, 1.0)),
            12,
            &[
                "greater than 0 cells for a shape other than \"point\"",
                written,
            ],
        );
    }
    let none = GRID.replace("steps = 10", "steps = 0");
    refused(
        &format!("{none}{}", impulse(16.0, 4.0, 1.0)),
        9,
        &["no impulse lands in a run of 0 steps", "state at t = 0"],
    );
}

/// Two bodies of one name are refused, saying which name was written and which is a default;
/// a name that is blank or holds a line break (it heads rows of `bodies.csv` and a line of the
/// report) is refused at its key.
#[test]
fn two_bodies_of_one_name_and_unprintable_names_are_refused() {
    let body = |name: &str, x: f64| {
        format!(
            "[[body]]\n{name}shape = \"sphere\"\nradius = 0.2\nmass = 5.0\n\
             position = [{x:?}, 1.6, 0.0]\n"
        )
    };
    let buoy = "name = \"buoy\"\n";
    refused(
        &format!("{GRID}{}{}", body(buoy, 1.0), body(buoy, 2.0)),
        15,
        &[
            "body 2 is named \"buoy\", as body 1 is",
            "names of their own",
        ],
    );
    // The second body, unnamed, takes `body-2`, the name the first was given.
    refused(
        &format!(
            "{GRID}{}{}",
            body("name = \"body-2\"\n", 1.0),
            body("", 2.0)
        ),
        15,
        &["body 2 takes the default name \"body-2\", as body 1 is"],
    );
    for (name, shown) in [
        ("\"\"", "\"\""),
        ("\"  \"", "\"  \""),
        ("\"a\\nb\"", "\"a\\nb\""),
        ("\"a\\u2028b\"", "\"a\\u{2028}b\""),
    ] {
        refused(
            &format!("{GRID}{}", body(&format!("name = {name}\n"), 1.0)),
            10,
            &[
                "a body's name needs a character other than white space",
                &format!("got {shown}"),
            ],
        );
    }
}

/// A path of fewer than two points says so before it asks for the `speed` it also lacks (it
/// asked for the speed alone).
#[test]
fn a_path_too_short_is_named_before_its_missing_speed() {
    for (path, count) in [("[]", 0), ("[[1.0, 1.6]]", 1)] {
        refused(
            &format!(
                "{GRID}[[body]]\nshape = \"sphere\"\nradius = 0.2\nmass = 5.0\n\
                 position = [1.0, 1.6, 0.0]\npath = {path}\n"
            ),
            14,
            &[&format!(
                "a path needs two or more finite points, got {count}"
            )],
        );
    }
}

/// [`GRID`] with a sphere towed along x at 0.5 m/s, its last line (line 16) `key_line`.
fn towed_sphere(key_line: &str) -> String {
    format!(
        "{GRID}[[body]]\nshape = \"sphere\"\nradius = 0.2\nmass = 5.0\n\
         position = [1.0, 1.6, 0.0]\npath = [[1.0, 1.6], [2.5, 1.6]]\nspeed = 0.5\n{key_line}\n"
    )
}

/// A towed body's path holds its x and y, so a horizontal force on it is refused where it
/// stands; a vertical one acts and is taken.
#[test]
fn a_horizontal_force_on_a_towed_body_is_refused() {
    let towed = |force: &str| towed_sphere(&format!("force = {force}"));
    refused(
        &towed("[1e9, 0.0, 0.0]"),
        16,
        &["force acts only along z", "got [1000000000, 0, ..] N"],
    );
    taken(&towed("[0.0, 0.0, -20.0]"));
}

/// A towed body's horizontal velocity is the tow's from the first step: another one is refused
/// where it stands (it was taken and dropped after step 0); the tow's own, or rest, is taken.
#[test]
fn a_towed_body_s_velocity_other_than_its_tow_is_refused() {
    let towed = |velocity: &str| towed_sphere(&format!("velocity = {velocity}"));
    refused(
        &towed("[-50.0, 5.0, 3.0]"),
        16,
        &[
            "its velocity's x and y are the tow's, [0.5, 0] m/s, or 0",
            "got [-50, 5, ..] m/s",
        ],
    );
    taken(&towed("[0.5, 0.0, 0.3]"));
    taken(&towed("[0.0, 0.0, -1.0]"));
}

/// A towed body's x and y are its path's from the first step: one placed elsewhere would be
/// taken to the path's start (a jump the file did not ask for), so it is refused at its
/// `position` (line 13) naming the start; its height is its own.
#[test]
fn a_towed_body_placed_off_its_path_s_start_is_refused() {
    let off = towed_sphere("").replace("position = [1.0, 1.6, 0.0]", "position = [2.5, 1.6, 0.0]");
    refused(
        &off,
        13,
        &[
            "a towed body starts where its path starts",
            "[1, 1.6] m",
            "got [2.5, 1.6, ..] m",
        ],
    );
    taken(&towed_sphere("").replace("position = [1.0, 1.6, 0.0]", "position = [1.0, 1.6, 0.2]"));
    // A path of one place goes nowhere and its speed is unused: refused at the path, as a
    // focus's is (it was taken, the body held where it started).
    refused(
        &towed_sphere("").replace("[2.5, 1.6]]", "[1.0, 1.6]]"),
        14,
        &["a body's path goes nowhere: all its 2 points lie at [1, 1.6]"],
    );
}

/// A force that alone would take a body past the 1e4 m/s speed limit within one step (a
/// 5 kg sphere at dt = 0.02 s: 2.5e6 N) is refused at its `force` naming the most it may be;
/// the run stopped at step 0 blaming `dt` (the spin it gained), which no shorter step cured.
#[test]
fn a_force_past_the_speed_limit_in_one_step_is_refused_at_its_key() {
    let body = |force: &str| {
        format!(
            "{GRID}[[body]]\nshape = \"sphere\"\nradius = 0.2\nmass = 5.0\n\
             position = [1.0, 1.6, 0.0]\nforce = {force}\n"
        )
    };
    refused(
        &body("[1e10, 0.0, 0.0]"),
        14,
        &[
            "a force of 1e10 N on 5 kg passes the body speed limit, 1e4 m/s",
            "past 2.5e6 N no step of 0.02 s holds it",
        ],
    );
    taken(&body("[2e6, 0.0, 0.0]"));
}

/// A body smaller than a millimetre is refused at its size key naming the range, as written:
/// a sphere of 1e-7 m failed at its first step with a bob period of "0 s" and "inf substeps",
/// a box of 1e-30 m at its table's line as an internal "hull max edge ... got 0.0".
#[test]
fn a_body_under_a_millimetre_is_refused_at_its_size() {
    let sphere = |radius: &str| {
        format!(
            "{GRID}[[body]]\nshape = \"sphere\"\nradius = {radius}\nmass = 1.0\n\
             position = [1.0, 1.6, 0.0]\n"
        )
    };
    refused(
        &sphere("1e-7"),
        11,
        &["sphere radius must be from 1e-3 to 1e4 m, got 1e-7"],
    );
    taken(&sphere("1e-3"));
    let tiny_box = format!(
        "{GRID}[[body]]\nshape = \"box\"\nsize = [1e-30, 1e-30, 1e-30]\nmass = 1.0\n\
         position = [1.0, 1.6, 0.0]\n"
    );
    refused(
        &tiny_box,
        11,
        &["box size must be from 1e-3 to 1e4 m, got 1e-30"],
    );
}

/// A body so light for its size that the water's step is too long for its bob (a 1 g box
/// 100 m a side would need some 35,000 substeps at dt = 0.02 s, past the 10,000 allowed) is
/// refused at its `mass`, with the longest step that fits, not at its first step; the same box
/// at 10 tonnes is taken.
#[test]
fn a_body_too_light_for_the_step_is_refused_at_its_mass() {
    let body = |mass: &str| {
        format!(
            "{GRID}[[body]]\nname = \"feather\"\nshape = \"box\"\nsize = [100.0, 100.0, 100.0]\n\
             mass = {mass}\nposition = [1.6, 1.6, 0.0]\n"
        )
    };
    refused(
        &body("1e-3"),
        13,
        &[
            "body \"feather\"",
            "too long for this body",
            "use dt <=",
            "heavier",
        ],
    );
    taken(&body("1e4"));
}

/// A sphere's wave speed and step are held to the grid's ranges: 1e-300 would be taken and
/// step nothing, 1e300 is named short.
#[test]
fn a_spheres_speed_and_step_have_the_grids_ranges() {
    let sphere = "steps = 10\n[sphere]\nlevel = 3\nradius = 1.0\nwave_speed = 0.5\ndt = 0.01\n";
    for (from, to, line, needle) in [
        (
            "wave_speed = 0.5",
            "wave_speed = 1e-300",
            5,
            "wave_speed = 1e-300 is outside",
        ),
        (
            "wave_speed = 0.5",
            "wave_speed = 1e300",
            5,
            "[1e-6, 1e6] m/s",
        ),
        (
            "dt = 0.01",
            "dt = 1e-300",
            6,
            "dt = 1e-300 is outside the allowed range [1e-9, 1e6] s",
        ),
    ] {
        refused(&sphere.replace(from, to), line, &[needle]);
    }
}

/// A land rectangle past the grid is refused at the key that reaches past it, not at its
/// table's header.
#[test]
fn a_land_rectangle_past_the_grid_is_refused_at_its_key() {
    let land =
        |x1: usize, y1: usize| format!("{GRID}[[land]]\nx0 = 2\ny0 = 2\nx1 = {x1}\ny1 = {y1}\n");
    refused(
        &land(40, 8),
        12,
        &["reaches beyond the 32 x 32 grid", "x1 <= 32"],
    );
    refused(
        &land(8, 40),
        13,
        &["reaches beyond the 32 x 32 grid", "y1 <= 32"],
    );
    taken(&land(32, 32));
}

#[test]
fn a_clicks_radius_and_direction_are_refused_at_their_keys() {
    let sphere = "steps = 10\n[sphere]\nlevel = 3\nradius = 1.0\nwave_speed = 0.5\ndt = 0.01\n";
    let click = |direction: &str, radius: &str| {
        format!(
            "[[click]]\ndirection = {direction}\nradius = {radius}\namplitude = 0.05\nstep = 0\n"
        )
    };
    refused(
        &format!("{sphere}{}", click("[0.0, 0.0, 1.0]", "100.0")),
        9,
        &["click radius must be in (0, pi] rad, got 100"],
    );
    refused(
        &format!("{sphere}{}", click("[0.0, 0.0, 1.0]", "0.0")),
        9,
        &["click radius must be in (0, pi] rad, got 0"],
    );
    refused(
        &format!("{sphere}{}", click("[nan, 0.0, 1.0]", "0.3")),
        8,
        &["click direction must be finite and not zero, got [NaN, 0, 1]"],
    );
    refused(
        &format!("{sphere}{}", click("[0.0, 0.0, 0.0]", "0.3")),
        8,
        &["got [0, 0, 0] (length 0)"],
    );
    taken(&format!("{sphere}{}", click("[0.0, 0.0, 1.0]", "0.3")));
    // A level past u32 names the levels a sphere can have (it said "expected a whole number
    // (0 or more)" of 4294967296).
    refused(
        &sphere.replace("level = 3", "level = 4294967296"),
        3,
        &["expected a whole number from 0 to 12 (at most 167772162 vertices)"],
    );
    // A cap between vertices (edges of about 0.14 rad on level 3) would change nothing; the
    // same radius on an icosahedron corner, a vertex of every level, raises it.
    refused(
        &format!("{sphere}{}", click("[0.123, 0.456, 0.789]", "0.01")),
        9,
        &[
            "a click of radius 0.01 rad here reaches no vertex",
            "edges are about 1.",
            "e-1 rad",
        ],
    );
    taken(&format!(
        "{sphere}{}",
        click("[0.0, 1.0, 1.618034]", "0.01")
    ));
}

/// A dispersive grid in classic mode is refused at `model` for the mode, whatever its boundary:
/// refusing the boundary first sent a reader from one boundary to the other (classic takes
/// fixed edges only, the dispersive model periodic or absorbing ones).
#[test]
fn a_dispersive_classic_grid_is_refused_for_its_mode() {
    for boundary in ["absorbing", "fixed"] {
        let text = format!(
            "{}boundary = \"{boundary}\"\nmodel = \"dispersive\"\n",
            CLASSIC.replace("boundary = \"fixed\"\n", "")
        );
        refused(
            &text,
            7,
            &["model = \"dispersive\" steps signed grids, not mode classic"],
        );
    }
}

/// A huge value is named as written in short (`1e300`), not as 301 digits: the message stays
/// one readable line.
#[test]
fn huge_values_are_named_in_short() {
    for (text, line, needle) in [
        (format!("{GRID}{}", impulse(1e300, 2.0, 1.0)), 9, "impulse at (1e300, 16) with radius 2 "),
        (format!("{GRID}{}", impulse(16.0, 1e300, 1.0)), 12, "got 1e300"),
        (
            format!(
                "{GRID}[[body]]\nname = \"a\"\nshape = \"box\"\nsize = [1, 1, 1]\nmass = 1e300\nposition = [3.0, 3.0, 0.0]\n"
            ),
            13,
            "got 1e300",
        ),
    ] {
        refused(&text, line, &[needle]);
        let e = ScenarioFile::parse("case.toml", &text).expect_err("refused").to_string();
        assert!(e.len() < 200, "{} characters: {e}", e.len());
    }
}

/// A vector is named as written, each number in its own shortest digits: `[0, 0, NaN]`, not
/// f64's `[0.0, 0.0, NaN]`.
#[test]
fn a_vector_is_named_as_written() {
    refused(
        &format!(
            "{GRID}[[body]]\nname = \"a\"\nshape = \"box\"\nsize = [1, 1, 1]\nmass = 1\nposition = [3.0, 3.0, 0.0]\nrotation = [0, 0.5, nan]\n"
        ),
        15,
        &["rotation must be finite degrees, got [0, 0.5, NaN]"],
    );
}

/// A table written as the other kind is said as such at its header: `[[focus]]` for the one
/// `[focus]`, `[impulse]` for one of many `[[impulse]]` (the parser said "invalid type: map,
/// expected a string", "expected a sequence" or "expected a whole number").
#[test]
fn a_table_of_the_wrong_kind_is_named_as_such() {
    refused(
        &format!("{GRID}[[focus]]\nfollow = \"boat\"\n"),
        9,
        &["[focus] is one table: write [focus], not [[focus]]"],
    );
    refused(
        &format!("{GRID}[[ocean]]  # a sea\nspectrum = \"jonswap\"\n"),
        9,
        &["[ocean] is one table: write [ocean], not [[ocean]]"],
    );
    refused(
        &GRID.replace("[grid]", "[[grid]]"),
        2,
        &["[grid] is one table: write [grid], not [[grid]]"],
    );
    refused(
        "steps = 2\n[[sphere]]\nlevel = 2\n",
        2,
        &["[sphere] is one table: write [sphere], not [[sphere]]"],
    );
    refused(
        &format!("{GRID}[impulse]\nx = 3.0\ny = 3.0\nradius = 2.0\namplitude = 0.1\n"),
        9,
        &["a scenario may hold many [[impulse]] tables: write each as [[impulse]], not [impulse]"],
    );
    for name in ["body", "land"] {
        refused(
            &format!("{GRID}[{name}]\nx0 = 1\n"),
            9,
            &[&format!("write each as [[{name}]], not [{name}]")],
        );
    }
    refused(
        &format!("{GRID}[[foam]]\nhalf_life = 1.0\n"),
        9,
        &["[foam] is one table: write [foam], not [[foam]]"],
    );
}

/// `[contacts]` shapes the bodies' waves: written in a scenario with no `[[body]]` it is refused
/// at its key (it was taken and changed nothing).
#[test]
fn contacts_without_a_body_are_refused() {
    refused(
        &format!("{GRID}[contacts]\namplitude = 0.5\n"),
        10,
        &["[contacts] shapes the waves floating bodies make, and this scenario has no [[body]]"],
    );
    refused(
        &format!("{GRID}[contacts]\nsource = \"displacement\"\n"),
        10,
        &["has no [[body]]"],
    );
}

/// Classic mode takes fixed edges only: without a `boundary` key the refusal stands at `mode`
/// and says the reflective edges are the default (it stood at line 1 naming a value no one
/// wrote).
#[test]
fn classic_mode_without_a_boundary_is_told_the_default() {
    refused(
        "steps = 2\n[grid]\nwidth = 32\nheight = 32\nmode = \"classic\"\n",
        5,
        &["got reflective, the default without a `boundary` key: write boundary = \"fixed\""],
    );
}

/// Numbers f32 would hold as 0, or flush to it, are refused at their key with the least taken:
/// a per-step `damping` (full damping), a `damping_per_second` whose per-step factor at the
/// grid's `dt` is that small, an impulse `amplitude` and a `[contacts] amplitude` (no wave), a
/// tow `speed` (a body that never moves; it was named as 0.0); f32's least normal number is
/// taken.
#[test]
fn numbers_f32_holds_as_zero_are_refused_at_their_keys() {
    let damped = |d: &str| GRID.replace("dt = 0.02\n", &format!("dt = 0.02\n{d}\n"));
    refused(
        &damped("damping = 1e-320"),
        8,
        &["damping = 1e-320", "1.17549435e-38"],
    );
    taken(&damped("damping = 1.1754943508222875e-38"));
    let slow = "steps = 10\n[grid]\nwidth = 32\nheight = 32\ncell_size = 1000.0\n\
                wave_speed = 0.001\ndt = 1000.0\ndamping_per_second = 0.9\n\
                boundary = \"reflective\"\n";
    refused(slow, 8, &["damping_per_second = 0.9", "2 dt"]);
    taken(&slow.replace("0.9", "0.99"));
    refused(
        &format!("{GRID}{}", impulse(16.0, 3.0, 1e-46)),
        13,
        &["impulse amplitude = 1e-46", "1.17549435e-38"],
    );
    refused(
        &format!("{}[contacts]\namplitude = 1e-46\n", towed_sphere("")),
        18,
        &["contacts amplitude", "got 1e-46"],
    );
    refused(
        &format!("{}[contacts]\namplitude = 2e5\n", towed_sphere("")),
        18,
        &["contacts amplitude", "got 200000"],
    );
    refused(
        &towed_sphere("").replace("speed = 0.5", "speed = 1e-46"),
        15,
        &["speed must be greater than 0", "got 1e-46"],
    );
    // The limit the messages print, typed back, is taken: it rounds to f32's least normal
    // number, though as an f64 it is a hair below it.
    taken(&damped("damping = 1.17549435e-38"));
    taken(&format!("{GRID}{}", impulse(16.0, 3.0, 1.17549435e-38)));
    taken(&format!(
        "{}[contacts]\namplitude = 1.17549435e-38\n",
        towed_sphere("")
    ));
    taken(&towed_sphere("").replace("speed = 0.5", "speed = 1.17549435e-38"));
    // A per-second fraction names the least it takes, and that is taken too.
    refused(
        &damped("damping_per_second = 1e-320"),
        8,
        &["damping_per_second = 1e-320", "2.2250738585072014e-308"],
    );
    taken(&damped("damping_per_second = 2.2250738585072014e-308"));
}
