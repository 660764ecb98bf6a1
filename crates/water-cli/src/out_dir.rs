//! [`OutputDir`]: a command's files, written whole or not at all.
//!
//! Each file is written to a hidden temporary name in the output folder (`.NAME.partial`) and
//! renamed to its own name only when the whole command has succeeded ([`OutputDir::commit`]).
//! So a run that fails (a full disk, a GPU error at the last frame) leaves the folder as it
//! was, its temporaries removed; and a run that succeeds leaves exactly its own files: files
//! that an earlier run of the same command wrote and this one did not (`frame-0040.png` after a
//! 40-frame render, `positive.npy` after a signed run) are removed, so nothing in the folder
//! describes another run. Only names the command itself writes are ever removed.

use std::io;
use std::path::{Path, PathBuf};

/// Suffix of the temporaries.
const PARTIAL: &str = ".partial";

/// An output folder being written.
#[derive(Debug)]
pub struct OutputDir {
    dir: PathBuf,
    /// `(temporary, final)` paths of the files written so far.
    pending: Vec<(PathBuf, PathBuf)>,
    /// The folders this run made, the output folder's first and then its parents upward (a run
    /// that fails takes them away again, those left empty).
    made: Vec<PathBuf>,
    /// Whether the run committed.
    committed: bool,
}

impl OutputDir {
    /// Creates the folder (and its parents) if needed.
    ///
    /// # Errors
    /// A folder name that is not UTF-8 (the summaries list paths as UTF-8 text, so such a run
    /// could not say what it wrote), and I/O errors.
    pub fn create(dir: &Path) -> io::Result<Self> {
        if dir.to_str().is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the output folder {} is not valid UTF-8; choose a UTF-8 name",
                    dir.display()
                ),
            ));
        }
        if dir.exists() && !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{} is a file, not a folder: name a folder for the outputs",
                    dir.display()
                ),
            ));
        }
        // A folder whose presence cannot be told (no permission to look) counts as there
        // before: never taken away.
        let made = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && matches!(d.try_exists(), Ok(false)))
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir)?;
        Ok(Self {
            dir: dir.to_path_buf(),
            pending: Vec::new(),
            made,
            committed: false,
        })
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `name` will be once committed.
    #[must_use]
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Starts file `name`: returns the temporary path to write it at (for a file written over
    /// the whole run, such as a trajectory) and the path it will have once committed.
    pub fn start(&mut self, name: &str) -> (PathBuf, PathBuf) {
        let temporary = self.dir.join(format!(".{name}{PARTIAL}"));
        let path = self.dir.join(name);
        self.pending.push((temporary.clone(), path.clone()));
        (temporary, path)
    }

    /// Where the files started so far will be once committed, in the order started.
    #[must_use]
    pub fn pending_paths(&self) -> Vec<PathBuf> {
        self.pending.iter().map(|(_, path)| path.clone()).collect()
    }

    /// Writes file `name` by calling `write` with its temporary path; returns the path it will
    /// have once committed.
    ///
    /// # Errors
    /// What `write` returns (the temporary is removed when the run is dropped uncommitted).
    pub fn write(
        &mut self,
        name: &str,
        write: impl FnOnce(&Path) -> io::Result<()>,
    ) -> io::Result<PathBuf> {
        let (temporary, path) = self.start(name);
        // The folder is named by the caller; the file is named here.
        write(&temporary).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
        Ok(path)
    }

    /// Gives every file its name, then removes the files in the folder that `is_ours` claims
    /// (names this command writes) but this run did not write, and temporaries that a killed
    /// run left. Returns the files, in the order written.
    ///
    /// # Errors
    /// The first I/O error (the files not yet renamed are removed).
    pub fn commit(mut self, is_ours: impl Fn(&str) -> bool) -> io::Result<Vec<PathBuf>> {
        self.committed = true;
        let pending = std::mem::take(&mut self.pending);
        let mut files = Vec::with_capacity(pending.len());
        for (k, (temporary, path)) in pending.iter().enumerate() {
            if let Err(e) = std::fs::rename(temporary, path) {
                for (t, _) in &pending[k..] {
                    let _ = std::fs::remove_file(t);
                }
                // The folder is named by the caller; the file is named here.
                let name = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                return Err(io::Error::new(e.kind(), format!("{name}: {e}")));
            }
            files.push(path.clone());
        }
        for entry in std::fs::read_dir(&self.dir)?.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let stale_temporary = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(PARTIAL))
                .is_some_and(&is_ours);
            let stale =
                is_ours(name) && !files.iter().any(|f| f.file_name() == Some(name.as_ref()));
            if (stale || stale_temporary) && entry.file_type().is_ok_and(|t| t.is_file()) {
                std::fs::remove_file(entry.path())?;
            }
        }
        Ok(files)
    }
}

impl Drop for OutputDir {
    /// A run that did not commit removes its temporaries: the folder keeps what it had, and the
    /// folders the run made (left empty) are taken away, the output folder's parents too.
    fn drop(&mut self) {
        for (temporary, _) in &self.pending {
            let _ = std::fs::remove_file(temporary);
        }
        if !self.committed {
            // Only an empty folder goes: `remove_dir` refuses one holding anything, and then
            // its parents hold it.
            for made in &self.made {
                if std::fs::remove_dir(made).is_err() {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("water-out-dir-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_commit_names_the_files_and_removes_only_stale_ones_of_ours() {
        let dir = scratch("commit");
        let mut first = OutputDir::create(&dir).expect("dir");
        for name in ["a.txt", "b.txt"] {
            first
                .write(name, |p| std::fs::write(p, name))
                .expect("write");
        }
        first.commit(|n| n.ends_with(".txt")).expect("commit");
        std::fs::write(dir.join("notes.md"), "the user's").expect("write");

        let mut second = OutputDir::create(&dir).expect("dir");
        second
            .write("a.txt", |p| std::fs::write(p, "new"))
            .expect("write");
        // Nothing is visible before the commit.
        assert_eq!(
            std::fs::read_to_string(dir.join("a.txt")).expect("a"),
            "a.txt"
        );
        let files = second.commit(|n| n.ends_with(".txt")).expect("commit");
        assert_eq!(files, vec![dir.join("a.txt")]);
        assert_eq!(
            std::fs::read_to_string(dir.join("a.txt")).expect("a"),
            "new"
        );
        assert!(!dir.join("b.txt").exists(), "b.txt is from the earlier run");
        assert!(
            dir.join("notes.md").exists(),
            "not a name this command writes"
        );
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a.txt", "notes.md"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_run_that_fails_leaves_the_folder_as_it_was() {
        let dir = scratch("fail");
        // The folders the failed run made go with it (left empty), its output folder's
        // parents too; a folder that was there before stays.
        std::fs::create_dir_all(&dir).expect("dir");
        let mut made = OutputDir::create(&dir.join("new").join("deeper")).expect("dir");
        made.write("a.txt", |p| std::fs::write(p, "half"))
            .expect("write");
        drop(made);
        assert!(
            !dir.join("new").exists(),
            "the empty folders it made are gone, the parent too"
        );
        assert!(dir.exists(), "the folder that was there stays");
        // A parent it made that now holds something of another's stays.
        let mut shared = OutputDir::create(&dir.join("new").join("deeper")).expect("dir");
        std::fs::write(dir.join("new").join("notes.md"), "the user's").expect("write");
        drop(shared.write("a.txt", |p| std::fs::write(p, "half")));
        drop(shared);
        assert!(!dir.join("new").join("deeper").exists());
        assert!(dir.join("new").join("notes.md").exists());
        std::fs::remove_dir_all(dir.join("new")).expect("clean");
        let mut first = OutputDir::create(&dir).expect("dir");
        first
            .write("a.txt", |p| std::fs::write(p, "old"))
            .expect("write");
        first.commit(|n| n.ends_with(".txt")).expect("commit");

        let mut second = OutputDir::create(&dir).expect("dir");
        second
            .write("a.txt", |p| std::fs::write(p, "new"))
            .expect("write");
        let e = second
            .write("b.txt", |p| {
                std::fs::write(p, "half")?;
                Err(io::Error::other("disk full"))
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "b.txt: disk full", "the file named");
        drop(second);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["a.txt"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("a.txt")).expect("a"),
            "old"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
