// relax_toward: the cascades' hand-over (docs/math.md, section 17). Where a finer grid (twice
// as fine) covers a coarse cell, both time levels of that cell move toward the mean of the
// 2 x 2 finer cells over it, by a weight that rises from 0 at the finer grid's absorbing band
// to 1 over `blend_cells` of its cells (a smoothstep); dry coarse cells are left at 0.
// CPU twin: crates/water-scene/src/scene/cascades.rs (`relax_toward`, `cascade_weight`), which
// the same arithmetic in the same order runs on a CPU grid.
// Host twin: crates/water-gpu/src/compute_grid/relax_toward.rs, which binds both grids' level
// buffers (f32 cells) and dispatches one invocation a coarse cell.

struct RelaxUniforms {
    outer_size: vec2<u32>, // the coarse grid's cells across and down
    inner_size: vec2<u32>, // the finer grid's
    // The finer cell under the coarse cell (0, 0)'s lower corner: the corners are whole cells
    // of each grid, the coarse one's twice the size.
    base: vec2<i32>,
    edge: f32,        // the finer grid's absorbing band, cells: the weight is 0 within it
    blend_cells: f32, // finer cells over which the weight rises from 0 to 1
}

@group(0) @binding(0) var<uniform> u: RelaxUniforms;
// The finer grid's two levels, read as the steps before left them.
@group(0) @binding(1) var<storage, read> inner_current: array<f32>;
@group(0) @binding(2) var<storage, read> inner_previous: array<f32>;
// The coarse grid's two levels, relaxed in place (each invocation its own cell), and its land.
@group(0) @binding(3) var<storage, read_write> outer_current: array<f32>;
@group(0) @binding(4) var<storage, read_write> outer_previous: array<f32>;
@group(0) @binding(5) var<storage, read> outer_land: array<u32>;

// The hand-over weight `distance` finer cells from the finer grid's nearest edge.
fn cascade_weight(distance: f32) -> f32 {
    let t = clamp((distance - u.edge) / u.blend_cells, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

fn mean_current(i: u32) -> f32 {
    let w = u.inner_size.x;
    return 0.25 * ((inner_current[i] + inner_current[i + 1u])
        + (inner_current[i + w] + inner_current[i + w + 1u]));
}

fn mean_previous(i: u32) -> f32 {
    let w = u.inner_size.x;
    return 0.25 * ((inner_previous[i] + inner_previous[i + 1u])
        + (inner_previous[i + w] + inner_previous[i + w + 1u]));
}

// One invocation a coarse cell.
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id.xy >= u.outer_size)) {
        return;
    }
    let inner = vec2<i32>(u.inner_size);
    let f = u.base + 2 * vec2<i32>(id.xy);
    if (any(f < vec2<i32>(0)) || any(f + 1 >= inner)) {
        return;
    }
    // The coarse cell's centre is the finer grid's point f + 1.
    let to_far = inner - 1 - f;
    let distance = f32(min(min(f.x + 1, to_far.x), min(f.y + 1, to_far.y)));
    let weight = cascade_weight(distance);
    if (weight == 0.0) {
        return;
    }
    let o = id.y * u.outer_size.x + id.x;
    if (outer_land[o] != 0u) {
        // Dry: the grid keeps it at 0, whatever the finer grid holds there.
        return;
    }
    let i = u32(f.y) * u.inner_size.x + u32(f.x);
    let to_current = mean_current(i);
    let to_previous = mean_previous(i);
    if (weight == 1.0) {
        // Deep inside, the coarse water is the finer water's mean, exactly.
        outer_current[o] = to_current;
        outer_previous[o] = to_previous;
    } else {
        outer_current[o] += weight * (to_current - outer_current[o]);
        outer_previous[o] += weight * (to_previous - outer_previous[o]);
    }
}
