// shift_window: moves one level of grid water by whole cells into another buffer: new cell
// (x, y) takes old cell (x + dx, y + dy); a cell whose source lies outside the grid comes in
// still (0), a fixed rim is held at 0, and behind Mur's absorbing edges an old edge cell that
// lands inside comes in still too.
// CPU twin: crates/water-core/src/window.rs (`shift_cells`, then `clear_rim_moved_inside`
// behind absorbing edges), which the CPU grids' `shift_window` run on both levels before
// zeroing a fixed rim. The fragment backend moves its
// textures with copies of the same rectangle (crates/water-gpu/src/window_shift.rs).
//
// It moves the stored 32-bit words, whatever they hold: f32 or i32 cells one to a word, or
// binary16 cells two to a word (even cells in the low half, an odd row's last high half
// padding; crates/water-gpu/src/storage.rs). +0 is all zero bits in all three.

struct ShiftUniforms {
    width: u32,
    height: u32,
    row_words: u32,   // words per row: width, or ceil(width / 2) with f16 cells
    f16_cells: u32,   // 1: two binary16 cells a word
    dx: i32,
    dy: i32,
    rim: u32,         // RIM_MOVES, RIM_FIXED or RIM_ABSORBING
    channels: u32,    // planes of `height` rows each: 2 in split mode, else 1
}

// The rim moves with the water, like every other cell.
const RIM_MOVES: u32 = 0u;
// The rim is held at 0 (a fixed boundary, classic mode).
const RIM_FIXED: u32 = 1u;
// Mur's absorbing edges: an old edge cell that lands inside comes in still. It held Mur's
// one-way extrapolation, not water; carried in, it pumps a wave trapped at the leading edge.
const RIM_ABSORBING: u32 = 2u;

@group(0) @binding(0) var<uniform> u: ShiftUniforms;
@group(0) @binding(1) var<storage, read> source: array<u32>;
@group(0) @binding(2) var<storage, read_write> shifted: array<u32>;

// The bits cell (x, y) of the plane starting at word `plane` holds after the shift.
fn shifted_cell(plane: u32, x: u32, y: u32) -> u32 {
    if (x >= u.width) {
        return 0u; // the padding half of an odd row's last word
    }
    let on_rim = x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u;
    if (u.rim == RIM_FIXED && on_rim) {
        return 0u;
    }
    let sx = i32(x) + u.dx;
    let sy = i32(y) + u.dy;
    if (sx < 0 || sy < 0 || sx >= i32(u.width) || sy >= i32(u.height)) {
        return 0u;
    }
    let source_on_rim = sx == 0 || sy == 0 || sx == i32(u.width) - 1 || sy == i32(u.height) - 1;
    if (u.rim == RIM_ABSORBING && source_on_rim && !on_rim) {
        return 0u;
    }
    let row = plane + u32(sy) * u.row_words;
    if (u.f16_cells == 0u) {
        return source[row + u32(sx)];
    }
    let word = source[row + u32(sx) / 2u];
    return select(word & 0xffffu, word >> 16u, (u32(sx) & 1u) == 1u);
}

// One invocation a stored word: x along a row's words, y over every plane's rows.
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.row_words || id.y >= u.height * u.channels) {
        return;
    }
    let y = id.y % u.height;
    let plane = (id.y / u.height) * u.height * u.row_words;
    let index = plane + y * u.row_words + id.x;
    if (u.f16_cells == 0u) {
        shifted[index] = shifted_cell(plane, id.x, y);
    } else {
        let low = shifted_cell(plane, 2u * id.x, y);
        let high = shifted_cell(plane, 2u * id.x + 1u, y);
        shifted[index] = low | (high << 16u);
    }
}
