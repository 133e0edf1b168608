//! glTF animations are read exactly, whatever the file does: channels with their own key
//! times, linear, step and cubic-spline keys, animated nodes above the skeleton, broken
//! channels; and they are written back so that they read the same.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine;
use glam::{Mat4, Quat, Vec3};
use rigkit::export::{ExportOptions, export_glb};
use rigkit::io::import;
use rigkit::{Character, Limits};
use serde_json::{Value, json};

/// A glTF built in memory: accessors over one embedded buffer.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    fn floats(&mut self, values: &[f32], kind: &str, count: usize) -> usize {
        self.raw(
            values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            5126,
            kind,
            count,
        )
    }

    fn raw(&mut self, bytes: Vec<u8>, component: u32, kind: &str, count: usize) -> usize {
        self.views
            .push(json!({ "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len() }));
        self.bin.extend(bytes);
        self.accessors.push(json!({
            "bufferView": self.views.len() - 1, "componentType": component, "count": count, "type": kind,
        }));
        self.accessors.len() - 1
    }
}

/// An "Armature" node (not a joint) above a two-joint chain `root` → `tip` (tip one unit up).
/// The animation turns the armature 90° about Z over one second (linear, keys at 0, ½, 1),
/// raises the tip from 1 to 2 units (cubic spline, zero tangents, keys at 0 and 1), and has one
/// channel with decreasing key times that must be skipped.
fn armature_file() -> Vec<u8> {
    let mut b = Builder::default();
    let positions = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    b.accessors[positions]["min"] = json!([0.0, 0.0, 0.0]);
    b.accessors[positions]["max"] = json!([1.0, 1.0, 0.0]);
    let joints = b.raw(vec![0; 24], 5123, "VEC4", 3);
    let weights = b.floats(&[1.0, 0.0, 0.0, 0.0].repeat(3), "VEC4", 3);
    let ibm: Vec<f32> = [Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)]
        .iter()
        .flat_map(|m| m.to_cols_array())
        .collect();
    let ibm = b.floats(&ibm, "MAT4", 2);
    let turn_times = b.floats(&[0.0, 0.5, 1.0], "SCALAR", 3);
    let turns: Vec<f32> = [0.0, 0.25, 0.5]
        .iter()
        .flat_map(|a| Quat::from_rotation_z(a * std::f32::consts::PI).to_array())
        .collect();
    let turns = b.floats(&turns, "VEC4", 3);
    let rise_times = b.floats(&[0.0, 1.0], "SCALAR", 2);
    let rise = b.floats(
        &[
            0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0., 0., 2., 0., 0., 0., 0.,
        ],
        "VEC3",
        6,
    );
    let bad_times = b.floats(&[1.0, 0.0], "SCALAR", 2);
    let bad_scales = b.floats(&[1.0; 6], "VEC3", 2);
    for (i, times) in [turn_times, rise_times, bad_times].into_iter().enumerate() {
        let keys = [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]][i];
        b.accessors[times]["min"] = json!([keys[0]]);
        b.accessors[times]["max"] = json!([keys[1]]);
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&b.bin)
    );
    let document = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0, 3] }],
        "nodes": [
            { "name": "Armature", "children": [1] },
            { "name": "root", "children": [2] },
            { "name": "tip", "translation": [0.0, 1.0, 0.0] },
            { "name": "body", "mesh": 0, "skin": 0 },
        ],
        "meshes": [{ "primitives": [{
            "attributes": { "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights },
        }] }],
        "skins": [{ "joints": [1, 2], "inverseBindMatrices": ibm }],
        "animations": [{
            "name": "turn and rise",
            "samplers": [
                { "input": turn_times, "output": turns, "interpolation": "LINEAR" },
                { "input": rise_times, "output": rise, "interpolation": "CUBICSPLINE" },
                { "input": bad_times, "output": bad_scales },
            ],
            "channels": [
                { "sampler": 0, "target": { "node": 0, "path": "rotation" } },
                { "sampler": 1, "target": { "node": 2, "path": "translation" } },
                { "sampler": 2, "target": { "node": 1, "path": "scale" } },
            ],
        }],
        "accessors": b.accessors,
        "bufferViews": b.views,
        "buffers": [{ "byteLength": b.bin.len(), "uri": uri }],
    });
    serde_json::to_vec(&document).unwrap()
}

fn tip_at_each_key(c: &Character) -> Vec<Vec3> {
    let skeleton = c.skeleton.as_ref().unwrap();
    let clip = &c.animations[0];
    (0..clip.frame_count())
        .map(|f| clip.world_matrices(skeleton, f)[1].w_axis.truncate())
        .collect()
}

#[test]
fn animated_nodes_above_the_skeleton_are_folded_into_its_root() {
    let c = import(&armature_file(), "armature.gltf", &Limits::default()).unwrap();
    assert_eq!(c.animations.len(), 1);
    let clip = &c.animations[0];
    assert_eq!(clip.name, "turn and rise");
    assert_eq!(clip.times, vec![0.0, 0.5, 1.0]);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("not finite and increasing")),
        "{:?}",
        c.warnings
    );
    let tips = tip_at_each_key(&c);
    let quarter = std::f32::consts::FRAC_PI_4;
    let expected = [
        Vec3::Y,
        Quat::from_rotation_z(quarter) * (1.5 * Vec3::Y),
        2.0 * -Vec3::X,
    ];
    for (got, want) in tips.iter().zip(expected) {
        assert!(got.abs_diff_eq(want, 1e-5), "tip at {got}, expected {want}");
    }
}

#[test]
fn folded_animations_survive_export() {
    let c = import(&armature_file(), "armature.gltf", &Limits::default()).unwrap();
    let glb = export_glb(&c, &ExportOptions::default()).unwrap();
    let back = import(&glb, "back.glb", &Limits::default()).unwrap();
    for (a, b) in tip_at_each_key(&c).iter().zip(tip_at_each_key(&back)) {
        assert!(a.abs_diff_eq(b, 1e-5), "{a} → {b}");
    }
}

#[test]
fn the_animation_limit_resamples_long_clips() {
    let limits = Limits {
        max_animation_keys: 4,
        ..Limits::default()
    };
    let c = import(&armature_file(), "armature.gltf", &limits).unwrap();
    assert_eq!(c.animations[0].frame_count(), 2);
    assert!(c.warnings.iter().any(|w| w.contains("resampled")));
    let tips = tip_at_each_key(&c);
    assert!(tips[1].abs_diff_eq(2.0 * -Vec3::X, 1e-5));
}
