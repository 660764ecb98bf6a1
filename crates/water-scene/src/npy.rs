//! NumPy `.npy` files: written in format version 1.0 so results open with `numpy.load`; read
//! in versions 1.0, 2.0 and 3.0 (`npy/header.rs`) for per-cell inputs such as a scenario's
//! `depth_map`.

use std::io::{self, Write};
use std::path::Path;

mod header;

pub use header::MAX_HEADER_BYTES;

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

/// Reads a `.npy` file's header and data: `(descr, shape, payload bytes)` (the bytes after
/// the header, however many there are).
///
/// # Errors
/// `InvalidData` naming what is wrong for anything that is not a `.npy` file of version 1.0,
/// 2.0 or 3.0 with the header numpy writes.
pub fn read_raw(bytes: &[u8]) -> io::Result<(String, Vec<usize>, &[u8])> {
    let h = header::parse(bytes)?;
    Ok((h.descr, h.shape, &bytes[h.data_start..]))
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
    // The prelude (magic, version, the header's length) first; then exactly the header.
    let mut prefix = Vec::with_capacity(12);
    (&mut file).take(12).read_to_end(&mut prefix)?;
    let (_, start, len) = header::prelude(&prefix).map_err(|e| bad(&e.to_string()))?;
    // A header shorter than the 12 bytes read holds no dict: refused by its check below.
    let (have, total) = (prefix.len(), start + len);
    if total > have {
        prefix.resize(total, 0);
        file.read_exact(&mut prefix[have..])
            .map_err(|_| bad("its header is cut short"))?;
    }
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
    let header = header::parse(bytes).map_err(|e| bad(e.to_string()))?;
    let (descr, shape) = (header.descr, header.shape);
    if descr != "<f4" {
        return Err(bad(format!(
            "dtype {descr:?}; a float32 array ('<f4') is needed (numpy: .astype(np.float32))"
        )));
    }
    if header.fortran_order {
        return Err(bad(
            "Fortran (column-major) order; save a C-order array (np.ascontiguousarray)".into(),
        ));
    }
    if shape != [height, width] {
        return Err(bad(format!(
            "shape {shape:?}; the grid needs [height, width] = [{height}, {width}]"
        )));
    }
    Ok(&bytes[header.data_start..])
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

    /// `version` 1.0 (a 2-byte header length) or 2.0 and 3.0 (4 bytes) around `header`,
    /// then `data`.
    fn npy_file(version: u8, header: &str, data: &[f32]) -> Vec<u8> {
        let mut bytes = b"\x93NUMPY".to_vec();
        bytes.extend_from_slice(&[version, 0]);
        if version == 1 {
            bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        } else {
            bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
        bytes.extend_from_slice(header.as_bytes());
        for v in data {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes
    }

    /// What Python reads as numpy's dict is taken: double quotes, other spacing and key order,
    /// Python 2's `2L`, and versions 2.0 and 3.0 (4-byte header lengths; numpy writes them for
    /// long or non-Latin-1 headers), from bytes and from a file. Double-quoted keys were
    /// refused as missing, and 2.0 files as "not 1.0".
    #[test]
    fn headers_python_reads_as_numpys_dict_are_taken_in_versions_1_2_and_3() {
        let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let dir = std::env::temp_dir().join(format!("water-npy-v-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for (version, header) in [
            (
                1,
                "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2, 3)}\n",
            ),
            (
                1,
                "{ 'shape':(2L,3L),'fortran_order':False,'descr':'<f4' }\n",
            ),
            (
                2,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
            ),
            (
                3,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
            ),
        ] {
            let bytes = npy_file(version, header, &data);
            assert_eq!(read_f32_grid(&bytes, "map", 3, 2).expect(header), data);
            let file = dir.join(format!("v{version}.npy"));
            std::fs::write(&file, &bytes).expect("write");
            assert_eq!(read_f32_grid_file(&file, "map", 3, 2).expect(header), data);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A key given twice (Python would keep the last; the first was taken), a key numpy does
    /// not write, text after the dict, another version, and a 2.0 header length past what is
    /// read are each refused by name.
    #[test]
    fn a_key_twice_an_unknown_key_or_an_unread_version_is_refused_by_name() {
        let data = [0.0f32; 6];
        for (version, header, why) in [
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'shape': (3, 2)}",
                "header gives 'shape' twice",
            ),
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'kind': 'x'}",
                "header has a key \"kind\" numpy does not write",
            ),
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} extra",
                "header has text after its dict",
            ),
            (
                1,
                "{'descr': 4, 'fortran_order': False, 'shape': (2, 3)}",
                "descr is not a string",
            ),
            (
                4,
                "{}",
                ".npy version 4.0; versions 1.0, 2.0 and 3.0 are read",
            ),
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 2)}",
                "shape value \"99999999999999999999999\" is past the largest this machine holds",
            ),
            // A list, and `(6)`, which Python reads as a number, are not shapes.
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}",
                "shape is not a tuple of whole numbers",
            ),
            (
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (6)}",
                "shape is not a tuple of whole numbers",
            ),
        ] {
            let e = read_raw(&npy_file(version, header, &data)).expect_err(header);
            assert!(e.to_string().starts_with(why), "{header}: {e}");
        }
        let mut huge = b"\x93NUMPY\x02\x00".to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        let e = read_raw(&huge).expect_err("a 4 GiB header");
        assert!(
            e.to_string()
                .starts_with("a header of 4294967295 bytes; at most 65536 are read"),
            "{e}"
        );
    }
}
