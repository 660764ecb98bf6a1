// grid_step_f16: grid_step.wgsl over f16 storage. CPU twin:
// crates/water-core/src/kernels/grid_step.rs (with absorbing_edges.rs, the contact events of contact.rs and land.rs), as for
// grid_step.wgsl; only the loads and the store differ.
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Storage (crates/water-gpu/src/storage.rs): each row of `width` cells is ceil(width/2) u32
// words, cell 2k in the low half of word k and cell 2k+1 in the high half; an odd row's last
// high half is padding and stays +0. Channels (split: p then n) are planes of `height` rows.
// The halves are IEEE binary16, converted by the integer functions below (no f16 device
// feature or shader capability needed); all arithmetic is f32, as in grid_step.wgsl, and only
// the store rounds.
//
// One invocation per word: it computes both cells of the word and writes the word whole, so no
// two invocations write the same word.

#import grid_uniforms
#import f16_packing
#import depth_cell
#import contact_events
#import grid_step_bindings

// A storage word of the levels holds two f16 cells (f16_packing).
alias Word = u32;

fn row_words() -> u32 {
    return (u.width + 1u) / 2u;
}

fn word_index(c: u32, x: u32, y: u32) -> u32 {
    return (c * u.height + y) * row_words() + x / 2u;
}

fn at(c: u32, x: u32, y: u32) -> f32 {
    return half_of(cur[word_index(c, x, y)], x);
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return half_of(old[word_index(c, x, y)], x);
}

// f16 storage takes no depth: `depth_enabled` stays false, so shared/depth_cell.wgsl steps the
// five-point stencil and never asks for a face.
fn face_at(x: u32, y: u32) -> vec4<f32> {
    return vec4<f32>(0.0);
}

// New values of every channel of cell (x, y), contacts and land applied.
fn cell(x: u32, y: u32, channels: u32) -> vec2<f32> {
    let i = y * u.width + x;
    var v = vec2<f32>(0.0, 0.0);
    v.x = stepped(0u, x, y);
    if (channels == 2u) {
        v.y = stepped(1u, x, y);
    }
    if (u.has_contacts != 0u) {
        v = contact_events(v, contact_new[i], contact_old[i]);
    }
    let dry = held_dry(land[i] != 0u, x, y);
    return select(v, vec2<f32>(0.0, 0.0), dry);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let word_x = id.x;
    let y = id.y;
    if (word_x >= row_words() || y >= u.height) {
        return;
    }
    let channels = select(1u, 2u, u.mode == SPLIT);
    let x = 2u * word_x;
    // Both cells first, then the stores: `low` and `high` hold channel values in .x (p or z)
    // and .y (n).
    let low = cell(x, y, channels);
    var high = vec2<f32>(0.0, 0.0);
    if (x + 1u < u.width) {
        high = cell(x + 1u, y, channels);
    }
    out[word_index(0u, x, y)] = pack_f16(low.x, high.x);
    if (channels == 2u) {
        out[word_index(1u, x, y)] = pack_f16(low.y, high.y);
    }
}
