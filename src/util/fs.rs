//! Writing a file so that a reader, or a crash, sees either the old file or
//! the new one whole: the match records, the trainer's nets and checkpoints;
//! and telling a file that cannot be opened from one that holds no text.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Where [`write_atomically`] writes before it renames into place: `path` with
/// `.<writer>.tmp` added to its name. The writer part (process id, start
/// time and a counter) is unique to this call, so that writers in other
/// processes, or other machines on a shared volume (tablebase shards making
/// the same smaller table), never write into one another's temporary file:
/// each renames a whole file of its own, and the last rename wins.
pub fn temporary_path(path: &Path) -> PathBuf {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    // Containers often run every process as pid 1: the clock tells pods apart.
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}-{nanos:x}-{call}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Replaces `path` by `bytes`: written beside it, flushed to disk (so that a
/// crash after the rename cannot leave an empty file), renamed over. On an
/// error the temporary file is removed and `path` is as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = temporary_path(path);
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Checks, before any long work, that [`write_atomically`] could write
/// `path`: it is not a folder, and its temporary file can be made beside it.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::other("is a folder, not a file"));
    }
    let temporary = temporary_path(path);
    std::fs::write(&temporary, b"")?;
    std::fs::remove_file(&temporary)
}

/// Why [`read_text`] could not read a file: the tools tell the two apart.
#[derive(Debug, thiserror::Error)]
pub enum TextFileError {
    /// It cannot be opened (missing, a folder, not allowed): a command line
    /// that names it is wrong.
    #[error("cannot open {}: {source}", .path.display())]
    Open {
        /// The file as named.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// What it holds is not text (UTF-8): bad input.
    #[error("cannot read {}: {source}", .path.display())]
    NotText {
        /// The file as named.
        path: PathBuf,
        /// The reader's reason.
        #[source]
        source: std::io::Error,
    },
}

/// The whole text of the file at `path`.
pub fn read_text(path: &Path) -> Result<String, TextFileError> {
    std::fs::read_to_string(path).map_err(|source| {
        let path = path.to_path_buf();
        if source.kind() == std::io::ErrorKind::InvalidData {
            TextFileError::NotText { path, source }
        } else {
            TextFileError::Open { path, source }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = std::env::temp_dir().join(format!("doushou-util-fs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.bin");
        check_writable(&path).unwrap();
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["f.bin"], "no temporary file is left");
        assert!(
            check_writable(&dir).is_err(),
            "a folder is not writable as a file"
        );
        assert!(write_atomically(&dir.join("no/such/f"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Shards on a shared volume may write the same table at once: each
    /// writer has its own temporary file, so no rename can pick up a file
    /// another writer is still filling.
    #[test]
    fn concurrent_writers_of_one_file_never_share_a_temporary() {
        let path = Path::new("/tables/ELvr.dstb");
        let first = temporary_path(path);
        let second = temporary_path(path);
        assert_ne!(first, second);
        assert_eq!(first.parent(), path.parent(), "beside the file, for rename");

        let dir = std::env::temp_dir().join(format!("doushou-util-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("t.bin");
        let writers: Vec<_> = (0..8u8)
            .map(|i| {
                let target = target.clone();
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        write_atomically(&target, &[i; 4096]).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        let bytes = std::fs::read(&target).unwrap();
        assert_eq!(bytes.len(), 4096, "a whole file, never a torn one");
        assert!(bytes.iter().all(|&b| b == bytes[0]), "one writer's bytes");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
