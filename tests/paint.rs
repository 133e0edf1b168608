//! Weight painting: each brush does what it says under it and nothing elsewhere, weights keep
//! summing to one, the mirror paints the other side, a stroke undoes at once, bad brushes are
//! refused, and what is painted is what the exported file holds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use glam::Vec3;
use rigkit::document::{Change, Document};
use rigkit::edit::{Brush, BrushMode, EditError, paint};
use rigkit::export::OutputFormat;
use rigkit::rig::{JointId, SkinWeights};
use rigkit::{Character, Limits};

fn mannequin() -> Character {
    common::load("eval/mannequiny.glb")
}

fn joint(c: &Character, name: &str) -> JointId {
    let joints = &c.skeleton.as_ref().unwrap().joints;
    JointId(joints.iter().position(|j| j.name == name).unwrap() as u32)
}

fn share(skin: &SkinWeights, v: usize, j: JointId) -> f32 {
    skin.influences(v)
        .iter()
        .filter(|i| i.joint == j)
        .map(|i| i.weight)
        .sum()
}

/// Where on the surface a brush would touch near `joint`: the vertex closest to it.
fn surface_near(c: &Character, j: JointId) -> Vec3 {
    let at = c.skeleton.as_ref().unwrap().joints[j.index()].position();
    *c.mesh
        .positions
        .iter()
        .min_by(|a, b| a.distance(at).total_cmp(&b.distance(at)))
        .unwrap()
}

fn size(c: &Character) -> f32 {
    c.mesh.bounds().longest_side()
}

fn brush(c: &Character, name: &str, mode: BrushMode, strength: f32) -> Brush {
    let j = joint(c, name);
    Brush {
        joint: j,
        mode,
        center: surface_near(c, j),
        radius: 0.08 * size(c),
        strength,
        mirror: false,
    }
}

fn assert_normalised(skin: &SkinWeights) {
    for v in 0..skin.vertex_count() {
        let total: f32 = skin.influences(v).iter().map(|i| i.weight).sum();
        assert!((total - 1.0).abs() < 1e-4, "vertex {v} sums to {total}");
        assert!(
            skin.influences(v)
                .iter()
                .all(|i| i.weight.is_finite() && i.weight > 0.0)
        );
    }
}

#[test]
fn add_and_subtract_change_the_joint_under_the_brush_only() {
    let c = mannequin();
    let skeleton = c.skeleton.as_ref().unwrap();
    let before = c.skin.clone().unwrap();
    let b = brush(&c, "lowerarm.l", BrushMode::Add, 0.8);
    let mut skin = before.clone();
    let changed = paint(&c.mesh, skeleton, &mut skin, &b).unwrap();
    assert!(changed > 10, "{changed} vertices changed");
    assert_normalised(&skin);
    let (mut gained, mut outside_changed) = (0, 0);
    for (v, p) in c.mesh.positions.iter().enumerate() {
        let (was, now) = (share(&before, v, b.joint), share(&skin, v, b.joint));
        if p.distance(b.center) < 0.5 * b.radius {
            assert!(now >= was - 1e-6, "vertex {v}: {was} -> {now}");
            gained += usize::from(now > was + 0.05);
        } else if p.distance(b.center) >= b.radius && skin.influences(v) != before.influences(v) {
            outside_changed += 1;
        }
    }
    assert!(gained > 5, "only {gained} vertices gained weight");
    assert_eq!(outside_changed, 0, "vertices outside the brush changed");
    // Near the centre the forearm now owns almost all of each vertex.
    let centre = (0..c.mesh.positions.len())
        .min_by(|&a, &z| {
            let d = |v: usize| c.mesh.positions[v].distance(b.center);
            d(a).total_cmp(&d(z))
        })
        .unwrap();
    assert!(share(&skin, centre, b.joint) > 0.75);

    // Subtracting at full strength takes it all back out of the centre.
    let take = Brush {
        mode: BrushMode::Subtract,
        strength: 1.0,
        ..b
    };
    paint(&c.mesh, skeleton, &mut skin, &take).unwrap();
    assert_normalised(&skin);
    assert!(share(&skin, centre, b.joint) < 1e-3);
}

#[test]
fn smooth_and_blur_even_out_the_weights_under_the_brush() {
    let c = mannequin();
    let skeleton = c.skeleton.as_ref().unwrap();
    let before = c.skin.clone().unwrap();
    // At the elbow the forearm's share jumps between neighbouring vertices (the artist's weights
    // are rigid): smoothing spreads each jump over several edges, so the squared jumps shrink.
    let b = brush(&c, "lowerarm.l", BrushMode::Smooth, 1.0);
    let jumps = |skin: &SkinWeights| -> f32 {
        let mut sum = 0.0;
        for t in &c.mesh.triangles {
            if t.iter()
                .all(|&v| c.mesh.positions[v as usize].distance(b.center) < 0.5 * b.radius)
            {
                for k in 0..3 {
                    let (x, y) = (t[k] as usize, t[(k + 1) % 3] as usize);
                    sum += (share(skin, x, b.joint) - share(skin, y, b.joint)).powi(2);
                }
            }
        }
        sum
    };
    for mode in [BrushMode::Smooth, BrushMode::Blur] {
        let mut skin = before.clone();
        for _ in 0..4 {
            paint(&c.mesh, skeleton, &mut skin, &Brush { mode, ..b }).unwrap();
        }
        assert_normalised(&skin);
        let (was, now) = (jumps(&before), jumps(&skin));
        assert!(now < 0.75 * was, "{mode:?}: jumps {was} -> {now}");
    }
}

#[test]
fn the_mirror_paints_the_other_side_on_its_joint() {
    let c = mannequin();
    let skeleton = c.skeleton.as_ref().unwrap();
    let before = c.skin.clone().unwrap();
    let left = brush(&c, "lowerarm.l", BrushMode::Add, 1.0);
    let right = joint(&c, "lowerarm.r");
    let mut plain = before.clone();
    paint(&c.mesh, skeleton, &mut plain, &left).unwrap();
    let mut mirrored = before.clone();
    paint(
        &c.mesh,
        skeleton,
        &mut mirrored,
        &Brush {
            mirror: true,
            ..left
        },
    )
    .unwrap();
    assert_normalised(&mirrored);
    let gained = |skin: &SkinWeights| {
        (0..skin.vertex_count())
            .filter(|&v| share(skin, v, right) > share(&before, v, right) + 0.05)
            .count()
    };
    assert_eq!(gained(&plain), 0, "the plain brush reached the right arm");
    let right_side = gained(&mirrored);
    let left_side = (0..before.vertex_count())
        .filter(|&v| share(&mirrored, v, left.joint) > share(&before, v, left.joint) + 0.05)
        .count();
    assert!(
        right_side > 5,
        "the mirror gave the right forearm {right_side} vertices"
    );
    // A symmetric body: both sides gain about as many vertices.
    let ratio = right_side as f32 / left_side as f32;
    assert!(
        (0.5..2.0).contains(&ratio),
        "left {left_side}, right {right_side}"
    );
}

#[test]
fn bad_brushes_are_refused_by_name_and_change_nothing() {
    let c = mannequin();
    let skeleton = c.skeleton.as_ref().unwrap();
    let good = brush(&c, "head", BrushMode::Add, 0.5);
    let cases = [
        Brush {
            center: Vec3::new(f32::NAN, 0.0, 0.0),
            ..good
        },
        Brush {
            radius: 0.0,
            ..good
        },
        Brush {
            radius: f32::INFINITY,
            ..good
        },
        Brush {
            strength: 1.5,
            ..good
        },
        Brush {
            joint: JointId(9999),
            ..good
        },
    ];
    for bad in cases {
        let mut skin = c.skin.clone().unwrap();
        let error = paint(&c.mesh, skeleton, &mut skin, &bad).unwrap_err();
        assert!(
            matches!(
                error,
                EditError::NotFinite | EditError::Brush(_) | EditError::NoSuchJoint(9999)
            ),
            "{error}"
        );
        assert_eq!(&skin, c.skin.as_ref().unwrap());
    }
    assert!(
        paint(
            &c.mesh,
            skeleton,
            &mut c.skin.clone().unwrap(),
            &Brush {
                strength: -0.1,
                ..good
            }
        )
        .unwrap_err()
        .to_string()
        .contains("strength must be between 0 and 1")
    );
}

#[test]
fn a_stroke_undoes_at_once_and_exports_as_painted() {
    let c = mannequin();
    let b = brush(&c, "lowerarm.l", BrushMode::Add, 0.6);
    let original = c.skin.clone().unwrap();
    let mut doc = Document::new();
    doc.load(c);
    // One stroke of three dabs along the arm, then a second stroke.
    for (k, step) in [0.0, 0.02, 0.04].into_iter().enumerate() {
        let dab = Brush {
            center: b.center + Vec3::new(step, 0.0, 0.0),
            ..b
        };
        let (_, change) = doc.paint(&dab, k == 0).unwrap();
        assert_eq!(change, Change::Weights);
    }
    assert_eq!(doc.heat(), Some(b.joint));
    let one_stroke = doc.character().unwrap().skin.clone().unwrap();
    assert_ne!(one_stroke, original);
    doc.paint(
        &Brush {
            mode: BrushMode::Subtract,
            ..b
        },
        true,
    )
    .unwrap();
    assert!(doc.undo().is_some());
    assert_eq!(doc.character().unwrap().skin.as_ref(), Some(&one_stroke));
    assert!(doc.undo().is_some());
    assert_eq!(doc.character().unwrap().skin.as_ref(), Some(&original));
    assert!(doc.redo().is_some());
    assert_eq!(doc.character().unwrap().skin.as_ref(), Some(&one_stroke));

    // The exported file holds the painted weights (to 8-bit-free float precision, 8 joints).
    let glb = doc.export(OutputFormat::Glb, 8).unwrap();
    let back = rigkit::io::import(&glb, "painted.glb", &Limits::default()).unwrap();
    let names = |c: &Character| c.skeleton.as_ref().unwrap().names();
    let painted = doc.character().unwrap();
    assert_eq!(names(&back), names(painted));
    let (a, z) = (painted.skin.as_ref().unwrap(), back.skin.as_ref().unwrap());
    let joints = names(painted).len();
    let mut largest: f32 = 0.0;
    for v in 0..a.vertex_count() {
        for j in 0..joints {
            let j = JointId(j as u32);
            largest = largest.max((share(a, v, j) - share(z, v, j)).abs());
        }
    }
    assert!(largest < 1e-3, "exported weights differ by {largest}");
}

#[test]
fn painted_weights_survive_joint_moves_until_recomputed() {
    let c = mannequin();
    let b = brush(&c, "lowerarm.l", BrushMode::Add, 0.8);
    let mut doc = Document::new();
    doc.load(c);
    assert!(!doc.weights_painted());
    doc.paint(&b, true).unwrap();
    assert!(doc.weights_painted());
    let painted = doc.character().unwrap().skin.clone().unwrap();
    // Moving a joint keeps the painted weights.
    let head = joint(doc.character().unwrap(), "head");
    let at = doc.character().unwrap().skeleton.as_ref().unwrap().joints[head.index()].position();
    doc.edit(rigkit::edit::Edit::Move {
        joint: head,
        to: at + Vec3::new(0.0, 0.02, 0.0),
    })
    .unwrap();
    assert_eq!(doc.character().unwrap().skin.as_ref(), Some(&painted));
    // Recomputing replaces them, and undo brings them (and the painted state) back.
    doc.recompute_weights().unwrap();
    assert!(!doc.weights_painted());
    assert_ne!(doc.character().unwrap().skin.as_ref(), Some(&painted));
    assert!(doc.undo().is_some());
    assert!(doc.weights_painted());
    assert_eq!(doc.character().unwrap().skin.as_ref(), Some(&painted));
    // Undoing the stroke too leaves weights that edits re-skin again.
    assert!(doc.undo().is_some());
    assert!(doc.undo().is_some());
    assert!(!doc.weights_painted());
}
