//! Is a picture blank, or without visible waves? The verdict of the examples' check modes
//! (the winit `water-demo` and the Bevy `pond` and `boat`) on their last frame, on RGB8 pixels
//! (the RGB bytes of an [`RgbaImage`](super::RgbaImage)'s pixels).
//!
//! A frame that only cleared to the sky colour, came out black, or drew one flat colour has a
//! handful of distinct colours and almost no spread of brightness; lit water with a floor, a sky
//! reflection and a sun highlight has thousands of colours and a wide spread. The thresholds sit
//! far from both.

use std::collections::HashSet;

/// Fewest distinct RGB colours of a picture that is not blank. A cleared frame has 1; one flat
/// quad on a cleared frame 2; smooth lit water at 1280 x 720 several thousand.
pub const MIN_DISTINCT_COLOURS: usize = 50;

/// Smallest standard deviation of the brightness (Rec. 709 luma, 0 to 255) of a picture that is
/// not blank: under 2 steps of 255 the picture looks flat, even with dithering-like noise that
/// gives it many colours.
pub const MIN_LUMA_STD_DEV: f64 = 2.0;

/// Smallest mean change (per RGB channel, 0 to 255) between the still first frame and the
/// water at the end with the floating bodies hidden: a scene that drew only its sky, or water
/// that never moved, changes by exactly 0. The winit demo's 40th frame changes by 1.02 levels;
/// the Bevy pond's 60 scripted frames by 0.46 and the boat's wake by 1.86 (lavapipe,
/// 1280 x 720, where much of the picture is bank and sky): this is under half the smallest.
pub const MIN_MEAN_CHANGE: f64 = 0.2;

/// Mean absolute difference per RGB channel of two RGB8 pictures of one size (0 to 255).
#[must_use]
pub fn mean_change(first: &[u8], last: &[u8]) -> f64 {
    let total: u64 = first
        .iter()
        .zip(last)
        .map(|(a, b)| u64::from(a.abs_diff(*b)))
        .sum();
    total as f64 / first.len().max(1) as f64
}

/// Why the last picture shows no moving water against the still first one, or `None`.
#[must_use]
pub fn unchanged_reason(first: &[u8], last: &[u8]) -> Option<String> {
    if first.len() != last.len() {
        return Some(format!(
            "the first and last pictures differ in size ({} and {} bytes)",
            first.len(),
            last.len()
        ));
    }
    let change = mean_change(first, last);
    (change < MIN_MEAN_CHANGE).then(|| {
        format!(
            "no visible waves: the last frame differs from the still first one by {change:.2} \
             levels on average, under {MIN_MEAN_CHANGE}"
        )
    })
}

/// What the verdict looks at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PictureStats {
    /// Distinct RGB colours.
    pub distinct_colours: usize,
    /// Standard deviation of the brightness, 0 to 255.
    pub luma_std_dev: f64,
}

/// The statistics of RGB8 pixels (3 bytes each; a trailing partial pixel is ignored).
#[must_use]
pub fn picture_stats(rgb: &[u8]) -> PictureStats {
    let mut colours = HashSet::new();
    let (mut sum, mut sum_sq, mut count) = (0.0_f64, 0.0_f64, 0.0_f64);
    for p in rgb.chunks_exact(3) {
        colours.insert([p[0], p[1], p[2]]);
        let luma = 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
        sum += luma;
        sum_sq += luma * luma;
        count += 1.0;
    }
    let luma_std_dev = if count > 0.0 {
        let mean = sum / count;
        (sum_sq / count - mean * mean).max(0.0).sqrt()
    } else {
        0.0
    };
    PictureStats {
        distinct_colours: colours.len(),
        luma_std_dev,
    }
}

/// Why the picture counts as blank, or `None` if it does not.
#[must_use]
pub fn blank_reason(stats: &PictureStats) -> Option<String> {
    if stats.distinct_colours < MIN_DISTINCT_COLOURS {
        Some(format!(
            "{} distinct colours, fewer than {MIN_DISTINCT_COLOURS}",
            stats.distinct_colours
        ))
    } else if stats.luma_std_dev < MIN_LUMA_STD_DEV {
        Some(format!(
            "brightness standard deviation {:.2}, under {MIN_LUMA_STD_DEV}",
            stats.luma_std_dev
        ))
    } else {
        None
    }
}

/// Brightness spread along a row (standard deviation, levels of 255) that tells waves from a
/// smooth sky: the sky's rows vary by well under 1 level, the sea's by tens.
pub const WAVE_ROW_SPREAD: f64 = 3.0;

/// Why an RGB8 picture `width` pixels wide does not show sky above the horizon at row
/// `horizon` (from the top; where the camera's horizontal rays land) and waves up to it, or
/// `None`. Rows more than `margin` above the horizon must be sky: smooth along each row (the
/// median row's brightness spread under [`WAVE_ROW_SPREAD`]). Going down, the first row with
/// waves (a spread of [`WAVE_ROW_SPREAD`] or more) must lie within `margin` rows of the
/// horizon, and most rows below must have them: a sea that ends short of the horizon leaves the
/// sky's smooth horizon colour between its edge and the horizon, and fails.
#[must_use]
pub fn horizon_reason(rgb: &[u8], width: usize, horizon: f32, margin: usize) -> Option<String> {
    let rows: Vec<(f64, f64)> = rgb
        .chunks_exact(width.max(1) * 3)
        .map(|row| {
            let luma: Vec<f64> = row
                .chunks_exact(3)
                .map(|p| {
                    0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
                })
                .collect();
            let mean = luma.iter().sum::<f64>() / luma.len() as f64;
            let var = luma.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / luma.len() as f64;
            (mean, var.sqrt())
        })
        .collect();
    let horizon_row = horizon.round();
    if !(horizon_row >= (margin + 2) as f32
        && horizon_row + ((margin + 2) as f32) < rows.len() as f32)
    {
        return Some(format!(
            "the horizon's row {horizon} is not inside the picture's {} rows with {margin} to spare",
            rows.len()
        ));
    }
    let h = horizon_row as usize;
    let sky = &rows[..h - margin];
    let sea = &rows[h + margin..];
    let mut spreads: Vec<f64> = sky.iter().map(|r| r.1).collect();
    spreads.sort_by(f64::total_cmp);
    let median_spread = spreads[spreads.len() / 2];
    if median_spread >= WAVE_ROW_SPREAD {
        return Some(format!(
            "rows above the horizon are not a smooth sky: the median row's brightness spread is {median_spread:.2} levels"
        ));
    }
    let mut sea_spreads: Vec<f64> = sea.iter().map(|r| r.1).collect();
    sea_spreads.sort_by(f64::total_cmp);
    let sea_spread = sea_spreads[sea_spreads.len() / 2];
    if sea_spread < WAVE_ROW_SPREAD {
        return Some(format!(
            "rows below the horizon show no waves: the median row's brightness spread is {sea_spread:.2} levels"
        ));
    }
    let edge = (h - margin..rows.len())
        .find(|&r| rows[r].1 >= WAVE_ROW_SPREAD)
        .unwrap_or(rows.len());
    (edge.abs_diff(h) > margin).then(|| {
        format!(
            "the first row with waves is {edge}, {} rows from the horizon's row {h} (at most {margin})",
            edge.abs_diff(h)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: usize = 320;
    const H: usize = 180;

    fn picture(colour: impl Fn(usize, usize) -> [u8; 3]) -> Vec<u8> {
        (0..H)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .flat_map(|(x, y)| colour(x, y))
            .collect()
    }

    #[test]
    fn a_flat_picture_is_blank() {
        let sky = picture(|_, _| [140, 166, 191]);
        let stats = picture_stats(&sky);
        assert_eq!(stats.distinct_colours, 1);
        assert!(stats.luma_std_dev < 1e-9);
        let reason = blank_reason(&stats).expect("blank");
        assert!(reason.contains("1 distinct colours"), "{reason}");
        assert!(blank_reason(&picture_stats(&[])).is_some());
    }

    #[test]
    fn two_flat_halves_are_blank_however_different() {
        let halves = picture(|x, _| {
            if x < W / 2 {
                [0, 0, 0]
            } else {
                [255, 255, 255]
            }
        });
        let stats = picture_stats(&halves);
        assert!(stats.luma_std_dev > 100.0);
        assert!(blank_reason(&stats).is_some());
    }

    #[test]
    fn faint_noise_on_a_flat_picture_is_blank() {
        // 64 colours, but each channel within 3 steps of grey: it looks flat.
        let noisy = picture(|x, y| {
            let step = |v: usize| 100 + (v % 4) as u8;
            [step(x), step(y), step(x / 4 + y / 4)]
        });
        let stats = picture_stats(&noisy);
        assert!(stats.distinct_colours >= MIN_DISTINCT_COLOURS, "{stats:?}");
        let reason = blank_reason(&stats).expect("blank by its spread");
        assert!(reason.contains("standard deviation"), "{reason}");
    }

    #[test]
    fn a_sky_that_never_changes_shows_no_waves() {
        // A sky gradient passes the colour and spread checks, but nothing in it moves.
        let sky = picture(|_, y| [100 + (y / 2) as u8, 140, 200 - (y / 3) as u8]);
        assert_eq!(blank_reason(&picture_stats(&sky)), None);
        let reason = unchanged_reason(&sky, &sky).expect("nothing moved");
        assert!(reason.contains("no visible waves"), "{reason}");
        let rippled = picture(|x, y| {
            let ripple = ((x as f64 * 0.3).sin() * 30.0) as i32;
            [
                (100 + (y / 2) as i32 + ripple).clamp(0, 255) as u8,
                140,
                200 - (y / 3) as u8,
            ]
        });
        assert_eq!(unchanged_reason(&sky, &rippled), None);
    }

    #[test]
    fn a_varied_picture_is_not_blank() {
        // A sky gradient over water with ripples: what a frame of the demo looks like.
        let varied = picture(|x, y| {
            if y < H / 3 {
                let t = (y * 255 / (H / 3)) as u8;
                [120 + t / 4, 150 + t / 5, 200 - t / 6]
            } else {
                let ripple = ((x as f64 * 0.2).sin() * (y as f64 * 0.15).cos() * 40.0) as i32;
                let c = |base: i32| (base + ripple).clamp(0, 255) as u8;
                [c(20), c(70), c(110)]
            }
        });
        let stats = picture_stats(&varied);
        assert!(stats.distinct_colours >= MIN_DISTINCT_COLOURS, "{stats:?}");
        assert_eq!(blank_reason(&stats), None, "{stats:?}");
    }
}
