// shared/depth_cell: the variable-coefficient stencil for one cell, for water whose depth (so
// whose speed c = sqrt(g d)) changes from cell to cell. CPU twin: `depth_cell` in
// crates/water-core/src/kernels/depth_step.rs, in its sum order:
//
//   flux  = ((aN (zN - z) + aS (zS - z)) + aE (zE - z)) + aW (zW - z)
//   z_new = d * ((z + z - z_old) + flux)
//
// aE is the Courant number of the face to the east neighbour, aS the south one's; the west and
// north faces are the neighbours' east and south faces. Across a periodic edge they wrap;
// across any other they are 0 (a reflective edge then needs no neighbour value).
//
// `depth_enabled` is a pipeline constant: without depth the kernels step the five-point stencil
// of shared/wave_cell.wgsl, and the compiler drops this path. The kernel that imports this
// defines `fn face_at(x: u32, y: u32) -> vec4<f32>`: the east face, the south face and Mur's
// coefficient of cell (x, y) in x, y and z (`FaceCourants` in the CPU twin), besides `at` and
// `old_at`, and imports grid_uniforms.

#import wave_cell
#import boundary_rules

override depth_enabled: bool = false;

fn depth_cell(c: u32, x: u32, y: u32) -> f32 {
    let periodic = u.boundary == PERIODIC;
    let own = face_at(x, y);
    var a_west = 0.0;
    var west = x;
    if (x > 0u) {
        a_west = face_at(x - 1u, y).x;
        west = x - 1u;
    } else if (periodic) {
        a_west = face_at(u.width - 1u, y).x;
        west = u.width - 1u;
    }
    var a_north = 0.0;
    var north = y;
    if (y > 0u) {
        a_north = face_at(x, y - 1u).y;
        north = y - 1u;
    } else if (periodic) {
        a_north = face_at(x, u.height - 1u).y;
        north = u.height - 1u;
    }
    let east = select(select(x, 0u, periodic), x + 1u, x + 1u < u.width);
    let south = select(select(y, 0u, periodic), y + 1u, y + 1u < u.height);
    let z = at(c, x, y);
    let flux = ((a_north * (at(c, x, north) - z) + own.y * (at(c, x, south) - z))
        + own.x * (at(c, east, y) - z))
        + a_west * (at(c, west, y) - z);
    return u.d * ((z + z - old_at(c, x, y)) + flux);
}

// The stencil shared/boundary_rules.wgsl steps: the depth's, or the five-point one.
fn interior_cell(c: u32, x: u32, y: u32) -> f32 {
    if (depth_enabled) {
        return depth_cell(c, x, y);
    }
    return wave_cell(c, x, y);
}

// Mur's coefficient at an edge cell: the cell's own with depth, the grid's one without.
fn mur_k_at(x: u32, y: u32) -> f32 {
    if (depth_enabled) {
        return face_at(x, y).z;
    }
    return u.mur_k;
}
