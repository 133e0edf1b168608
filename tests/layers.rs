//! The crate's layers only point down: the data and bytes-in modules (`mesh`, `rig`, `volume`,
//! `io`) never use the stages built on them — motion, fitting, skinning, the networks, the
//! document, the shells. Read from the source text; test modules and comments are left out
//! (a test may build a skeleton to check a mesh tool).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// The lower modules, and the modules above them that they must not use.
const LOWER: &[&str] = &["mesh", "rig", "volume", "io"];
const HIGHER: &[&str] = &[
    "anim",
    "correctives",
    "skeleton",
    "skin",
    "recognise",
    "neural",
    "compute",
    "edit",
    "document",
    "pipeline",
    "export",
    "view",
    "web",
    "eval",
    "dataset",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::NAME` paths a file's code (not its tests or comments) names.
fn crate_modules_used(text: &str) -> Vec<(usize, String)> {
    let mut used = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            used.push((number + 1, name));
        }
    }
    used
}

#[test]
fn lower_layers_never_use_higher_ones() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut upward = Vec::new();
    for lower in LOWER {
        let mut files = Vec::new();
        rust_files(&src.join(lower), &mut files);
        assert!(!files.is_empty(), "src/{lower} has no Rust files");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            for (line, name) in crate_modules_used(&text) {
                if HIGHER.contains(&name.as_str()) {
                    upward.push(format!("{}:{line} uses crate::{name}", file.display()));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "lower layers use higher ones:\n{}",
        upward.join("\n")
    );
}

/// The stages receive parsed characters: a user's skeleton or motion file is read by
/// `src/read.rs`, never inside `anim/` or `skeleton/` (only the template library decodes the
/// GLBs compiled into the binary).
#[test]
fn stages_never_read_a_users_files() {
    const READERS: &[&str] = &[
        "import(",
        "import_files(",
        "import_skeleton(",
        "read_bvh(",
        "detect_format(",
        "check_size(",
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut reading = Vec::new();
    for stage in ["anim", "skeleton"] {
        let mut files = Vec::new();
        rust_files(&src.join(stage), &mut files);
        for file in files {
            if file.ends_with("carry/library.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (number, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if !line.starts_with("//") && READERS.iter().any(|r| line.contains(r)) {
                    reading.push(format!("{}:{}: {line}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(
        reading.is_empty(),
        "stages read files:\n{}",
        reading.join("\n")
    );
}

#[test]
fn the_scan_sees_uses_and_skips_tests_and_comments() {
    let text = "use crate::rig::Skeleton;\n// see crate::anim\nfn f() { crate::skin::x(); }\n#[cfg(test)]\nmod tests { use crate::anim::Clip; }\n";
    let names: Vec<String> = crate_modules_used(text)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["rig", "skin"]);
}
