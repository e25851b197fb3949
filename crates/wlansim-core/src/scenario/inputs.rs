//! Files a scenario reads (an empirical distribution's `csv`, a video `trace`): a regular
//! file of at most [`MAX_INPUT_BYTES`], read with that limit. A device such as /dev/zero,
//! a pipe or a huge file is an error naming the key, not a read that fills the memory or
//! never ends.
use super::ScenarioError;
use std::io::Read;

/// The largest input file: 64 MiB (a one-hour video trace is a few MB; 64 MiB of CSV
/// holds several million values).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The content of the file at `path`, which key `at` names.
pub fn read(path: &str, at: &str) -> Result<Vec<u8>, ScenarioError> {
    let fail = |m: String| ScenarioError::new(at, format!("\"{path}\": {m}"));
    // stat first: opening a pipe would wait for a writer
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail(
            "not a regular file (a directory, device or pipe); expected a file of at most 64 MiB"
                .into(),
        ));
    }
    let too_large = |n: u64| {
        fail(format!(
            "{n} bytes or more; an input file is at most 64 MiB"
        ))
    };
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut content = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut content))
        .map_err(|e| fail(e.to_string()))?;
    // a file that grew, or one whose size the system does not know (/proc)
    if content.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(content.len() as u64));
    }
    Ok(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_missing_files_name_the_key() {
        for (path, words) in [
            ("/dev/zero", "not a regular file"),
            ("/", "not a regular file"),
            ("/no/such/file", "No such file"),
        ] {
            let e = read(path, "flows[0].trace.file").unwrap_err();
            assert_eq!(e.path, "flows[0].trace.file");
            assert!(e.to_string().contains(words), "{e}");
        }
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("wlansim-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.csv");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_INPUT_BYTES + 1).unwrap(); // sparse: no disk used
        let e = read(big.to_str().unwrap(), "k").unwrap_err();
        assert!(e.to_string().contains("at most 64 MiB"), "{e}");
        std::fs::write(&big, "1\n2\n").unwrap();
        assert_eq!(read(big.to_str().unwrap(), "k").unwrap(), b"1\n2\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
