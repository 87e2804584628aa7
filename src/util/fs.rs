//! Writing a file so that a reader, or a crash, sees either the old file or
//! the new one whole: the match records, the trainer's nets and checkpoints.

use std::io::Write;
use std::path::{Path, PathBuf};

/// `path` with `.tmp` added to its name: where [`write_atomically`] writes
/// before it renames into place.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
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
        assert!(!temporary_path(&path).exists());
        assert!(
            check_writable(&dir).is_err(),
            "a folder is not writable as a file"
        );
        assert!(write_atomically(&dir.join("no/such/f"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
