// add_impulse_f16: add_impulse.wgsl over f16 storage. CPU twin: crates/water-core/src/impulse.rs
// (`Impulse::for_each_cell` gives the amounts on the host, as for add_impulse.wgsl).
//
// Two cells share a word (layout: grid_step_f16.wgsl), so the host groups the amounts by word
// (the split grid's negative amounts already moved to the n plane, land cells left out) and one
// invocation adds both halves of its word: no two invocations touch the same word. The sum is
// formed in f32 and rounded to f16 once, when stored.

#import f16_packing

struct ImpulseUniforms {
    cells: u32,     // cells per channel (unused: the host resolved the words)
    mode: u32,      // 0 signed, 1 split
    count: u32,     // entries in `amounts`
    _pad: u32,
}

struct ImpulseWord {
    word: u32,      // index into `heights`, channel plane included
    low: f32,       // metres added to the word's low half (its even cell)
    high: f32,      // metres added to its high half (0 for the padding half of an odd row)
    _pad: u32,
}

@group(0) @binding(0) var<uniform> u: ImpulseUniforms;
@group(0) @binding(1) var<storage, read> amounts: array<ImpulseWord>;
@group(0) @binding(3) var<storage, read_write> heights: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.count) {
        return;
    }
    let entry = amounts[id.x];
    let word = heights[entry.word];
    heights[entry.word] = pack_f16(half_of(word, 0u) + entry.low, half_of(word, 1u) + entry.high);
}
