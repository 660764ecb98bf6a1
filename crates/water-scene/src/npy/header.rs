//! The header of a `.npy` file as numpy writes it (format versions 1.0, 2.0 and 3.0): the magic
//! `\x93NUMPY`, the version, the header's length (2 bytes in 1.0, 4 after), then one Python
//! dict literal with exactly the keys `descr`, `fortran_order` and `shape`, padded with spaces
//! and ended by a newline. The dict is read as Python reads numpy's (either quote, Python's
//! white space anywhere between tokens, a trailing comma), so a file another writer made is
//! taken as numpy would take it; a key given twice, a key numpy does not write, or a value of
//! the wrong kind (a list for `shape`, `(3)` that is a number) is refused by name. String
//! escapes and structured dtypes are not read.

use std::io;

/// The largest header read, bytes: numpy writes about a hundred for a grid; a 2.0 file may
/// say up to 4 GiB, and is refused past this before anything is allocated.
pub const MAX_HEADER_BYTES: usize = 1 << 16;

/// What the header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The dtype string (`<f4`: little-endian f32).
    pub descr: String,
    /// Column-major order.
    pub fortran_order: bool,
    /// The array's shape.
    pub shape: Vec<usize>,
    /// Where the data starts, bytes from the file's start.
    pub data_start: usize,
}

fn bad(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

/// From the file's first bytes (12, or fewer where the file is shorter): its format version's
/// major number and the header's `(start, length)` in bytes.
///
/// # Errors
/// `InvalidData` for no magic, a version other than 1.0, 2.0 or 3.0, or a header longer than
/// [`MAX_HEADER_BYTES`].
pub fn prelude(bytes: &[u8]) -> io::Result<(u8, usize, usize)> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("not a .npy file (no \\x93NUMPY magic)"));
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (start, len) = match (major, minor) {
        (1, 0) => (10, usize::from(u16::from_le_bytes([bytes[8], bytes[9]]))),
        (2 | 3, 0) => {
            let Some(&[a, b, c, d]) = bytes.get(8..12) else {
                return Err(bad("its header's length is cut short"));
            };
            let len = u32::from_le_bytes([a, b, c, d]);
            (12, usize::try_from(len).unwrap_or(usize::MAX))
        }
        _ => {
            return Err(bad(format!(
                ".npy version {major}.{minor}; versions 1.0, 2.0 and 3.0 are read"
            )))
        }
    };
    if len > MAX_HEADER_BYTES {
        return Err(bad(format!(
            "a header of {len} bytes; at most {MAX_HEADER_BYTES} are read"
        )));
    }
    Ok((major, start, len))
}

/// Parses the header at the start of `bytes` (the whole header must be there).
///
/// # Errors
/// `InvalidData` naming what is wrong: the prelude's errors, a header cut short, text that is
/// not the dict numpy writes, a key missing, given twice or unknown, a value of the wrong kind.
pub fn parse(bytes: &[u8]) -> io::Result<Header> {
    let (major, start, len) = prelude(bytes)?;
    let raw = bytes
        .get(start..start + len)
        .ok_or_else(|| bad("its header is cut short"))?;
    // Versions 1.0 and 2.0 are Latin-1; 3.0 is UTF-8.
    let text: String = if major == 3 {
        std::str::from_utf8(raw)
            .map_err(|_| bad("a 3.0 header that is not UTF-8"))?
            .to_owned()
    } else {
        raw.iter().map(|&b| char::from(b)).collect()
    };
    let entries = Dict::new(&text).entries()?;
    let mut descr = None;
    let mut fortran_order = None;
    let mut shape = None;
    for (key, value) in entries {
        let twice = || bad(format!("header gives '{key}' twice"));
        match key.as_str() {
            "descr" => {
                let Value::Text(t) = value else {
                    return Err(bad("descr is not a string (a dtype such as '<f4')"));
                };
                descr.replace(t).map_or(Ok(()), |_| Err(twice()))?;
            }
            "fortran_order" => {
                let Value::Bool(b) = value else {
                    return Err(bad("fortran_order is neither True nor False"));
                };
                fortran_order.replace(b).map_or(Ok(()), |_| Err(twice()))?;
            }
            "shape" => {
                let Value::Tuple(items) = value else {
                    return Err(bad("shape is not a tuple of whole numbers"));
                };
                let dims = items
                    .iter()
                    .map(|s| {
                        // Python 2's numpy wrote `3L`.
                        let digits = s.strip_suffix('L').unwrap_or(s);
                        digits.parse::<usize>().map_err(|_| {
                            let whole =
                                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
                            bad(if whole {
                                format!("shape value {s:?} is past the largest this machine holds")
                            } else {
                                format!("shape value {s:?} is not a whole number of 0 or more")
                            })
                        })
                    })
                    .collect::<io::Result<Vec<_>>>()?;
                shape.replace(dims).map_or(Ok(()), |_| Err(twice()))?;
            }
            other => {
                return Err(bad(format!(
                    "header has a key {other:?} numpy does not write (its keys are descr, \
                     fortran_order and shape)"
                )))
            }
        }
    }
    let missing = |name: &str| bad(format!("header has no '{name}' key"));
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
        data_start: start + len,
    })
}

/// A value of the header's dict.
enum Value {
    Text(String),
    Bool(bool),
    /// The items of a tuple, as written.
    Tuple(Vec<String>),
    /// Anything else (a number, a list, a word), kept so that its key is named.
    Other,
}

/// A cursor over the header's text.
struct Dict<'a> {
    rest: &'a str,
}

impl<'a> Dict<'a> {
    fn new(text: &'a str) -> Self {
        Self { rest: text }
    }

    fn not_a_dict() -> io::Error {
        bad(
            "header is not a dict: it must read {'descr': ..., 'fortran_order': ..., \
             'shape': (...), }",
        )
    }

    fn skip_space(&mut self) {
        // Python's white space between tokens (not Unicode's wider set).
        self.rest = self
            .rest
            .trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    }

    /// Takes `c` (after white space) if it comes next.
    fn take(&mut self, c: char) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    /// The `(key, value)` pairs in order; only white space may follow the closing brace.
    fn entries(mut self) -> io::Result<Vec<(String, Value)>> {
        if !self.take('{') {
            return Err(Self::not_a_dict());
        }
        let mut entries = Vec::new();
        loop {
            if self.take('}') {
                break;
            }
            let key = self.string().ok_or_else(Self::not_a_dict)?;
            if !self.take(':') {
                return Err(Self::not_a_dict());
            }
            let value = self.value().ok_or_else(Self::not_a_dict)?;
            entries.push((key, value));
            if self.take(',') {
                continue;
            }
            if self.take('}') {
                break;
            }
            return Err(Self::not_a_dict());
        }
        if !self.rest.trim().is_empty() {
            return Err(bad("header has text after its dict"));
        }
        Ok(entries)
    }

    /// A string literal in either quote (no escapes: numpy's keys and dtypes have none).
    fn string(&mut self) -> Option<String> {
        self.skip_space();
        let quote = self
            .rest
            .chars()
            .next()
            .filter(|c| matches!(c, '\'' | '"'))?;
        let body = &self.rest[1..];
        let end = body.find(quote)?;
        let text = &body[..end];
        if text.contains('\\') {
            return None;
        }
        self.rest = &body[end + 1..];
        Some(text.to_owned())
    }

    fn value(&mut self) -> Option<Value> {
        self.skip_space();
        if let Some(text) = self.string() {
            return Some(Value::Text(text));
        }
        for (word, b) in [("True", true), ("False", false)] {
            if let Some(rest) = self.rest.strip_prefix(word) {
                self.rest = rest;
                return Some(Value::Bool(b));
            }
        }
        if self.take('(') {
            let end = self.rest.find(')')?;
            let inner = &self.rest[..end];
            self.rest = &self.rest[end + 1..];
            // Python's tuples: `()`, `(3,)`, `(2, 3)` and `(2, 3,)`; `(3)` is a number and
            // `(,)` no value at all.
            let mut items: Vec<&str> = inner.split(',').map(str::trim).collect();
            if items.last() == Some(&"") {
                items.pop();
            }
            let tuple = match items.len() {
                0 => inner.trim().is_empty(),
                1 => inner.contains(','),
                _ => true,
            } && items.iter().all(|i| !i.is_empty());
            return Some(if tuple {
                Value::Tuple(items.into_iter().map(str::to_owned).collect())
            } else {
                Value::Other
            });
        }
        // Anything else (a number, a word, a list or a dict): taken to the separator after it,
        // brackets matched, so that its key can be named.
        let mut depth = 0_i32;
        let end = self
            .rest
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '[' | '{' | '(' => depth += 1,
                    ']' | '}' | ')' => depth -= 1,
                    _ => {}
                }
                depth < 0 || (depth == 0 && c == ',')
            })
            .map_or(self.rest.len(), |(i, _)| i);
        let word = self.rest[..end].trim();
        self.rest = &self.rest[end..];
        (!word.is_empty()).then_some(Value::Other)
    }
}
