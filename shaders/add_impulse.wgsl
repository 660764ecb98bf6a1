// add_impulse: adds an impulse's per-cell amounts to the current heights.
// CPU twin: crates/water-core/src/impulse.rs (`Impulse::for_each_cell` gives the amounts, computed
// on the host so that every backend adds the same numbers, which the grids' `add_impulse` add).

struct ImpulseUniforms {
    cells: u32,     // cells per channel
    mode: u32,      // 0 signed, 1 split, 2 classic
    count: u32,     // entries in `amounts`
    _pad: u32,
}

struct ImpulseCell {
    index: u32,
    amount: f32,    // metres; classic: already rounded to an integer
}

@group(0) @binding(0) var<uniform> u: ImpulseUniforms;
@group(0) @binding(1) var<storage, read> amounts: array<ImpulseCell>;
@group(0) @binding(2) var<storage, read> land: array<u32>;
@group(0) @binding(3) var<storage, read_write> heights: array<f32>;
@group(0) @binding(4) var<storage, read_write> classic_heights: array<i32>;

// No cell: what `entry_of` gives past the last entry and on land.
const NO_CELL: u32 = 0xffffffffu;

// Invocation `id`'s entry; its index is NO_CELL past the count or on land (the host leaves land
// out already; the flag is checked again so a stale entry cannot wet a dry cell).
fn entry_of(id: u32) -> ImpulseCell {
    if (id >= u.count || land[amounts[id].index] != 0u) {
        return ImpulseCell(NO_CELL, 0.0);
    }
    return amounts[id];
}

// Signed and split fields (f32). Each cell appears once per impulse, so there are no races.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let entry = entry_of(id.x);
    if (entry.index == NO_CELL) {
        return;
    }
    if (u.mode == 1u && entry.amount < 0.0) {
        heights[u.cells + entry.index] -= entry.amount;
    } else {
        heights[entry.index] += entry.amount;
    }
}

// The classic i16 field: a saturating add of the rounded amount.
@compute @workgroup_size(64)
fn main_classic(@builtin(global_invocation_id) id: vec3<u32>) {
    let entry = entry_of(id.x);
    if (entry.index == NO_CELL) {
        return;
    }
    let i = entry.index;
    classic_heights[i] = clamp(classic_heights[i] + i32(entry.amount), -32768, 32767);
}
