//! Writes the shipped profiles' ids (`SHIPPED_PROFILES`) from the package's profile folder,
//! so that a profile is shipped by adding its file and named nowhere else.

use std::path::Path;
use std::{env, fs};

fn main() {
    let folder =
        Path::new(&env::var("CARGO_MANIFEST_DIR").expect("set by cargo")).join("../../oasis_kiosk/profiles");
    // A directory makes cargo rerun this script when any file in it is added, removed or changed.
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut ids: Vec<String> = fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| path.file_stem().expect("a file name").to_string_lossy().into_owned())
        .collect();
    ids.sort();
    let out = Path::new(&env::var("OUT_DIR").expect("set by cargo")).join("shipped_profiles.rs");
    let list = format!(
        "/// The ids of the profiles the package ships (`oasis_kiosk/profiles`), sorted.\n\
         pub const SHIPPED_PROFILES: [&str; {}] = {ids:?};\n",
        ids.len()
    );
    fs::write(out, list).expect("OUT_DIR is writable");
}
