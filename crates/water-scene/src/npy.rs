//! NumPy `.npy` files (format version 1.0): written so results open with `numpy.load`, read
//! for per-cell inputs such as a scenario's `depth_map`.

use std::io::{self, Write};
use std::path::Path;

/// Element types `.npy` files here hold.
pub trait NpyElement: Copy {
    /// NumPy dtype string, little-endian.
    const DESCR: &'static str;
    /// Appends the value's little-endian bytes.
    fn write_le(self, out: &mut Vec<u8>);
}

impl NpyElement for f32 {
    const DESCR: &'static str = "<f4";
    fn write_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl NpyElement for i16 {
    const DESCR: &'static str = "<i2";
    fn write_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

/// Encodes `data` (row-major, C order) with the given `shape` as a complete `.npy` file.
///
/// # Panics
/// If the product of `shape` is not `data.len()` (a programming error).
#[must_use]
pub fn encode<T: NpyElement>(data: &[T], shape: &[usize]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), data.len(), "npy shape");
    let dims = shape
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let dims = if shape.len() == 1 {
        format!("{dims},")
    } else {
        dims
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': ({dims}), }}",
        T::DESCR
    );
    // Magic (6) + version (2) + length (2) + header + '\n' is padded to a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len() * 4);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    let len = u16::try_from(header.len()).unwrap_or(u16::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for &v in data {
        v.write_le(&mut out);
    }
    out
}

/// Writes `data` with `shape` to `path`.
///
/// # Errors
/// The I/O error.
pub fn write<T: NpyElement>(path: &Path, data: &[T], shape: &[usize]) -> io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(&encode(data, shape))
}

/// Reads back a `.npy` file written by [`write()`]: `(descr, shape, payload bytes)`.
///
/// # Errors
/// `InvalidData` for anything that is not a version 1.0 `.npy` file.
pub fn read_raw(bytes: &[u8]) -> io::Result<(String, Vec<usize>, &[u8])> {
    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_owned());
    if bytes.len() < 10 || &bytes[..8] != b"\x93NUMPY\x01\x00" {
        return Err(bad("not a .npy 1.0 file"));
    }
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = std::str::from_utf8(bytes.get(10..10 + len).ok_or_else(|| bad("short"))?)
        .map_err(|_| bad("header is not UTF-8"))?;
    // The header is one Python dict, `{...}`, padded with spaces and ended by a newline.
    let dict = header.trim_end();
    if !(dict.starts_with('{') && dict.ends_with('}')) {
        return Err(bad("header is not a dict: it must read {'descr': ..., \
             'fortran_order': ..., 'shape': (...), }"));
    }
    // What follows `'name': ` and `opening` in the dict.
    let field = |name: &str, opening: &str| {
        let key = format!("'{name}': {opening}");
        let start = dict
            .find(&key)
            .ok_or_else(|| bad(&format!("header has no '{name}' key")))?;
        Ok::<&str, io::Error>(&dict[start + key.len()..])
    };
    let descr = field("descr", "'")?;
    let descr = descr[..descr.find('\'').ok_or_else(|| bad("descr"))?].to_owned();
    let order = field("fortran_order", "")?;
    if !(order.starts_with("False") || order.starts_with("True")) {
        return Err(bad("fortran_order is neither True nor False"));
    }
    let shape = field("shape", "(")?;
    let shape = &shape[..shape.find(')').ok_or_else(|| bad("shape"))?];
    let shape = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>().map_err(|_| {
                bad(&format!(
                    "shape value {s:?} is not a whole number of 0 or more"
                ))
            })
        })
        .collect::<io::Result<Vec<_>>>()?;
    Ok((descr, shape, &bytes[10 + len..]))
}

/// Reads a 2-D little-endian f32 `.npy` array of `[height, width]` (C order), as `numpy.save`
/// writes `np.float32` arrays: the values row-major. `what` names the array in errors.
///
/// # Errors
/// `InvalidData` naming the dtype, order or shape found and the one needed.
pub fn read_f32_grid(
    bytes: &[u8],
    what: &str,
    width: usize,
    height: usize,
) -> io::Result<Vec<f32>> {
    let payload = check_f32_grid_header(bytes, what, width, height)?;
    check_payload_len(payload.len() as u64, what, width, height)?;
    Ok(f32s_of(payload))
}

/// As [`read_f32_grid`], from the file at `path`, reading no further than its header says: the
/// header first, then exactly the `[height, width]` values it promises (a file of another
/// length is refused by its size before its data is read, and anything but a regular file, such
/// as `/dev/zero` or a folder, is refused outright).
///
/// # Errors
/// As [`read_f32_grid`]; `InvalidInput` for what is not a regular file; the I/O error.
pub fn read_f32_grid_file(
    path: &Path,
    what: &str,
    width: usize,
    height: usize,
) -> io::Result<Vec<f32>> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what}: not a regular file"),
        ));
    }
    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {why}"));
    let mut file = std::fs::File::open(path)?;
    let mut prefix = vec![0u8; 10];
    file.read_exact(&mut prefix)
        .map_err(|_| bad("not a .npy 1.0 file"))?;
    let len = usize::from(u16::from_le_bytes([prefix[8], prefix[9]]));
    prefix.resize(10 + len, 0);
    file.read_exact(&mut prefix[10..])
        .map_err(|_| bad("not a .npy 1.0 file: its header is cut short"))?;
    check_f32_grid_header(&prefix, what, width, height)?;
    check_payload_len(
        meta.len().saturating_sub(prefix.len() as u64),
        what,
        width,
        height,
    )?;
    let mut payload = vec![0u8; width * height * 4];
    file.read_exact(&mut payload)?;
    Ok(f32s_of(&payload))
}

/// Checks the header of `bytes` for a little-endian f32 C-order `[height, width]` array and
/// returns what follows it.
fn check_f32_grid_header<'b>(
    bytes: &'b [u8],
    what: &str,
    width: usize,
    height: usize,
) -> io::Result<&'b [u8]> {
    let bad = |why: String| io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {why}"));
    let (descr, shape, payload) = read_raw(bytes).map_err(|e| bad(e.to_string()))?;
    if descr != "<f4" {
        return Err(bad(format!(
            "dtype {descr:?}; a float32 array ('<f4') is needed (numpy: .astype(np.float32))"
        )));
    }
    if header_of(bytes).is_some_and(|h| h.contains("'fortran_order': True")) {
        return Err(bad(
            "Fortran (column-major) order; save a C-order array (np.ascontiguousarray)".into(),
        ));
    }
    if shape != [height, width] {
        return Err(bad(format!(
            "shape {shape:?}; the grid needs [height, width] = [{height}, {width}]"
        )));
    }
    Ok(payload)
}

/// Refuses a payload of other than `[height, width]` f32 values.
fn check_payload_len(len: u64, what: &str, width: usize, height: usize) -> io::Result<()> {
    let needed = (width * height * 4) as u64;
    if len == needed {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{what}: {len} bytes of data; [{height}, {width}] float32 values take {needed}"),
    ))
}

fn f32s_of(payload: &[u8]) -> Vec<f32> {
    payload
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The header text of a `.npy` 1.0 file, if it has one.
fn header_of(bytes: &[u8]) -> Option<&str> {
    let len = usize::from(u16::from_le_bytes([*bytes.get(8)?, *bytes.get(9)?]));
    std::str::from_utf8(bytes.get(10..10 + len)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_padded_to_64_bytes_and_round_trips() {
        let data = [1.5f32, -2.0, 0.25, 4.0, 5.0, 6.0];
        let bytes = encode(&data, &[2, 3]);
        let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        assert_eq!((10 + header_len) % 64, 0);
        assert_eq!(bytes[10 + header_len - 1], b'\n');
        let (descr, shape, payload) = read_raw(&bytes).expect("valid npy");
        assert_eq!(descr, "<f4");
        assert_eq!(shape, vec![2, 3]);
        let back: Vec<f32> = payload
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(back, data);
        assert_eq!(read_f32_grid(&bytes, "map", 3, 2).expect("grid"), data);
        let wrong = read_f32_grid(&bytes, "map", 2, 3).expect_err("shape");
        assert!(
            wrong.to_string().contains("[height, width] = [3, 2]"),
            "{wrong}"
        );
        let dir = std::env::temp_dir().join(format!("water-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("map.npy");
        std::fs::write(&file, &bytes).expect("write");
        assert_eq!(read_f32_grid_file(&file, "map", 3, 2).expect("file"), data);
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 8]);
        std::fs::write(&file, &longer).expect("write");
        let e = read_f32_grid_file(&file, "map", 3, 2).expect_err("trailing bytes");
        assert!(e.to_string().contains("32 bytes of data"), "{e}");
        let e = read_f32_grid_file(&dir, "map", 3, 2).expect_err("a folder");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_f32_grid_file(Path::new("/dev/zero"), "map", 3, 2).expect_err("a device");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        let ints = encode(&[1i16, 2, 3, 4, 5, 6], &[2, 3]);
        let wrong = read_f32_grid(&ints, "map", 3, 2).expect_err("dtype");
        assert!(wrong.to_string().contains("'<f4'"), "{wrong}");
    }

    /// A header that is not the dict numpy writes is refused, naming what is wrong: one never
    /// closed (it was taken as long as its keys could be found), one without a key, a shape
    /// that is not whole numbers.
    #[test]
    fn a_header_that_is_not_numpys_dict_is_refused_by_what_is_wrong() {
        let with_header = |text: &str| {
            let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
            bytes.extend_from_slice(&(text.len() as u16).to_le_bytes());
            bytes.extend_from_slice(text.as_bytes());
            bytes.extend_from_slice(&[0; 8]);
            bytes
        };
        for (header, why) in [
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), \n",
                "header is not a dict",
            ),
            ("hello\n", "header is not a dict"),
            (
                "{'descr': '<f4', 'shape': (1, 2), }\n",
                "header has no 'fortran_order' key",
            ),
            (
                "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1, 2), }\n",
                "fortran_order is neither True nor False",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 2), }\n",
                "shape value \"-1\" is not a whole number of 0 or more",
            ),
        ] {
            let e = read_raw(&with_header(header)).expect_err(header);
            assert!(e.to_string().starts_with(why), "{header}: {e}");
        }
        let fine = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }   \n";
        let bytes = with_header(fine);
        let (_, shape, payload) = read_raw(&bytes).expect("numpy's own");
        assert_eq!((shape, payload.len()), (vec![1, 2], 8));
    }
}
