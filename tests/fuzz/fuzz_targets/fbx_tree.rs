//! Valid FBX node trees with mutated values: a real file's records (a low-poly figure rigkit
//! rigged and wrote, standing or walking) edited as the input says, written back
//! as binary FBX and imported. Plain byte mutation mostly breaks the record offsets; here
//! every input reaches the scene reader: objects, connections, skins, poses, curves.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rigkit::Limits;
use rigkit::io::fbx::{Node, Value};

/// The files whose trees are edited; the input's first byte picks one.
const BASES: [&[u8]; 2] = [
    include_bytes!("../bases/figure.fbx"),
    include_bytes!("../bases/figure-walk.fbx"),
];

fn bases() -> &'static Vec<Vec<Node>> {
    static TREES: OnceLock<Vec<Vec<Node>>> = OnceLock::new();
    TREES.get_or_init(|| {
        (BASES.iter())
            .map(|bytes| rigkit::io::fbx::nodes(bytes, "base.fbx", &Limits::default()).unwrap())
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let mut tree = bases()[pick as usize % BASES.len()].clone();
    for edit in edits.chunks_exact(8).take(64) {
        apply(&mut tree, Edit::read(edit));
    }
    let Some(bytes) = rigkit::io::fbx::encode(&tree) else {
        return;
    };
    let limits = Limits {
        max_vertices: 100_000,
        max_triangles: 200_000,
        ..Limits::default()
    };
    let _ = rigkit::io::import(&bytes, "fuzz.fbx", &limits);
});

/// One change to a tree: which node (in depth-first order), which of its values, what to do,
/// and a number for the doing.
struct Edit {
    node: usize,
    value: usize,
    op: u8,
    arg: u32,
}

impl Edit {
    fn read(b: &[u8]) -> Self {
        Self {
            node: u16::from_le_bytes([b[0], b[1]]).into(),
            value: b[2].into(),
            op: b[3],
            arg: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
        }
    }
}

/// Numbers readers trip over, then the edit's own.
fn number(arg: u32) -> f64 {
    const EDGES: [f64; 10] = [
        0.0,
        -1.0,
        1.0,
        2147483647.0,
        -2147483648.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e30,
        -1e-30,
    ];
    match EDGES.get((arg >> 24) as usize) {
        Some(&x) => x,
        None => f64::from(arg as i32) / f64::from(1 + (arg >> 28)),
    }
}

/// `v` with its number (or its `arg`-th element's) replaced, keeping its type.
fn set_number(v: &mut Value, arg: u32) {
    let x = number(arg);
    let at = arg as usize >> 8;
    match v {
        Value::Bool(b) => *b = x != 0.0,
        Value::I16(i) => *i = x as i16,
        Value::I32(i) => *i = x as i32,
        Value::I64(i) => *i = x as i64,
        Value::F32(f) => *f = x as f32,
        Value::F64(f) => *f = x,
        Value::Str(s) => *s = format!("{x}"),
        Value::Raw(a) | Value::Bytes(a) => put(a, at, arg as u8),
        Value::F32s(a) => put(a, at, x as f32),
        Value::F64s(a) => put(a, at, x),
        Value::I32s(a) => put(a, at, x as i32),
        Value::I64s(a) => put(a, at, x as i64),
    }
}

/// `a[at % len] = x`, if `a` has any element.
fn put<T>(a: &mut [T], at: usize, x: T) {
    if !a.is_empty() {
        let i = at % a.len();
        a[i] = x;
    }
}

/// `v` cut to `len` elements (arrays, strings, raw bytes).
fn truncate(v: &mut Value, len: usize) {
    match v {
        Value::Str(s) => {
            let mut end = len.min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            s.truncate(end);
        }
        Value::Raw(a) | Value::Bytes(a) => a.truncate(len),
        Value::F32s(a) => a.truncate(len),
        Value::F64s(a) => a.truncate(len),
        Value::I32s(a) => a.truncate(len),
        Value::I64s(a) => a.truncate(len),
        _ => {}
    }
}

fn count(nodes: &[Node]) -> usize {
    nodes.iter().map(|n| 1 + count(&n.children)).sum()
}

/// Calls `change` with the list holding the `i`-th node in depth-first order and its place
/// there; false when there are fewer nodes.
fn at_node(
    nodes: &mut Vec<Node>,
    i: &mut usize,
    change: &mut dyn FnMut(&mut Vec<Node>, usize),
) -> bool {
    for k in 0..nodes.len() {
        if *i == 0 {
            change(nodes, k);
            return true;
        }
        *i -= 1;
        if at_node(&mut nodes[k].children, i, change) {
            return true;
        }
    }
    false
}

fn nth(nodes: &[Node], mut i: usize) -> Option<&Node> {
    fn walk<'a>(nodes: &'a [Node], i: &mut usize) -> Option<&'a Node> {
        for n in nodes {
            if *i == 0 {
                return Some(n);
            }
            *i -= 1;
            if let Some(found) = walk(&n.children, i) {
                return Some(found);
            }
        }
        None
    }
    walk(nodes, &mut i)
}

fn apply(tree: &mut Vec<Node>, edit: Edit) {
    let total = count(tree);
    if total == 0 {
        return;
    }
    // Another node's value or name, read before the tree is borrowed for the change.
    let other = nth(tree, edit.arg as usize % total).cloned();
    let mut i = edit.node % total;
    at_node(tree, &mut i, &mut |list, k| {
        change(list, k, &edit, other.as_ref())
    });
}

/// `edit` done to `list[k]`; `other` is the node the edit's number picks.
fn change(list: &mut Vec<Node>, k: usize, edit: &Edit, other: Option<&Node>) {
    let node = &mut list[k];
    let value = (!node.values.is_empty()).then(|| edit.value % node.values.len());
    match edit.op % 8 {
        0 => {
            if let Some(v) = value {
                set_number(&mut node.values[v], edit.arg);
            }
        }
        1 => {
            if let Some(v) = value {
                truncate(&mut node.values[v], edit.arg as usize % 64);
            }
        }
        2 => {
            if let Some(v) = value {
                node.values.remove(v);
            }
        }
        3 => {
            list.remove(k);
        }
        4 => {
            let copy = list[k].clone();
            list.insert(k, copy);
        }
        5 => {
            // A value of another type: ids become names and names numbers.
            if let Some(v) = value {
                node.values[v] = match &node.values[v] {
                    Value::Str(_) => Value::I64(i64::from(edit.arg)),
                    _ => Value::Str(format!("{}", edit.arg)),
                };
            }
        }
        6 => {
            // Another node's value here: crossed connections, references, sizes.
            if let (Some(v), Some(src)) = (value, other)
                && let Some(x) = src.values.get(edit.arg as usize % src.values.len().max(1))
            {
                node.values[v] = x.clone();
            }
        }
        _ => {
            if let Some(src) = other {
                node.name = src.name.clone();
            }
        }
    }
}
