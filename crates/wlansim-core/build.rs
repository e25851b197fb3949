//! The core's build id: a digest of its sources, computed at compile time and reported in
//! every run's `meta.build` (see `crate::BUILD`). A campaign reruns a stored run whose
//! build differs from the current core's, so a changed core never hands back the runs of
//! the old one (python/wlansim/campaign/keys.py, "Run keys").
//!
//! The digest covers the sorted paths (relative to this crate, `/`-separated, so the
//! checkout's location does not count) and bytes of every file under `src/`, and
//! `Cargo.toml`. It is std's `DefaultHasher` (SipHash with fixed keys), not a hash crate:
//! a build dependency would be compiled for every build of the extension, wheel and sdist,
//! for 16 hex digits that only need to tell builds apart, not resist an adversary. Its
//! algorithm may change with a Rust release: a new toolchain then gives another build id,
//! which reruns stored runs once (harmless, and a new compiler is a new build anyway).
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read the core's src directory") {
        let path = entry.expect("read a directory entry").path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut paths = vec![root.join("Cargo.toml")];
    files(&root.join("src"), &mut paths);
    let mut named: Vec<(String, PathBuf)> = paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).expect("under the crate").components();
            let name: Vec<_> = rel.map(|c| c.as_os_str().to_string_lossy()).collect();
            (name.join("/"), p)
        })
        .collect();
    named.sort();
    let mut h = DefaultHasher::new();
    for (name, path) in &named {
        h.write(name.as_bytes());
        h.write_u8(0);
        let bytes = fs::read(path).expect("read a source file");
        h.write_u64(bytes.len() as u64);
        h.write(&bytes);
    }
    println!("cargo:rustc-env=WLANSIM_CORE_BUILD={:016x}", h.finish());
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
}
