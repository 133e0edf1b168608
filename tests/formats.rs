//! Inputs that come as several files (glTF + .bin) and as OBJ read the same as their GLB.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{glb_json, load};
use rigkit::export::{ExportOptions, export_glb};
use rigkit::io::{ImportError, InputFile, import, import_files};
use rigkit::{Character, Limits};

fn fox() -> Character {
    load("eval/Fox.glb")
}

/// Splits a GLB into a `.gltf` document that refers to `bin_uri` and the buffer's bytes.
fn split_glb(glb: &[u8], bin_uri: &str) -> (String, Vec<u8>) {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_start = 20 + json_len + 8;
    let bin = glb[bin_start..].to_vec();
    doc["buffers"][0]["uri"] = serde_json::json!(bin_uri);
    (doc.to_string(), bin)
}

/// A file whose NORMAL or TANGENT does not fit its vertices is refused, naming the attribute.
#[test]
fn a_normal_or_tangent_that_does_not_fit_is_a_clear_error() {
    let mut fox = fox();
    fox.mesh.tangents = (fox.mesh.normals.iter())
        .map(|n| n.any_orthonormal_vector().extend(1.0))
        .collect();
    let glb = export_glb(&fox, &ExportOptions::default()).unwrap();
    for attribute in ["NORMAL", "TANGENT"] {
        let (gltf, bin) = split_glb(&glb, "fox.bin");
        let mut doc: serde_json::Value = serde_json::from_str(&gltf).unwrap();
        let accessor = doc["meshes"][0]["primitives"][0]["attributes"][attribute]
            .as_u64()
            .unwrap() as usize;
        let count = doc["accessors"][accessor]["count"].as_u64().unwrap();
        doc["accessors"][accessor]["count"] = serde_json::json!(count - 1);
        let gltf = doc.to_string();
        let error = import_gltf(("fox.gltf", &gltf), ("fox.bin", &bin))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(attribute) && error.contains("fox.gltf"),
            "{error}"
        );
    }
}

/// A glTF's text and its buffer, each with its file name, imported together.
fn import_gltf(gltf: (&str, &str), bin: (&str, &[u8])) -> Result<Character, ImportError> {
    let files = [
        InputFile {
            name: gltf.0,
            bytes: gltf.1.as_bytes(),
        },
        InputFile {
            name: bin.0,
            bytes: bin.1,
        },
    ];
    import_files(&files, &Limits::default())
}

#[test]
fn gltf_with_separate_bin_reads_like_the_glb() {
    let original = fox();
    let glb = export_glb(&original, &ExportOptions::default()).unwrap();
    let (gltf, bin) = split_glb(&glb, "fox%20data.bin");
    let files = [
        InputFile {
            name: "fox.gltf",
            bytes: gltf.as_bytes(),
        },
        InputFile {
            name: "fox data.bin",
            bytes: &bin,
        },
    ];
    let c = import_files(&files, &Limits::default()).unwrap();
    // Bind-pose skinning after export moves vertices by float rounding only.
    let scale = original.mesh.bounds().diagonal();
    let moved = c
        .mesh
        .positions
        .iter()
        .zip(&original.mesh.positions)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    assert_eq!(c.mesh.vertex_count(), original.mesh.vertex_count());
    assert!(moved <= 1e-5 * scale, "vertices moved by {moved}");
    assert_eq!(c.info().joints, 24);
    // The order files are given in does not matter.
    let swapped = [files[1], files[0]];
    assert_eq!(
        import_files(&swapped, &Limits::default())
            .unwrap()
            .info()
            .joints,
        24
    );
    // Without the .bin the error names what is missing.
    let err = import(gltf.as_bytes(), "fox.gltf", &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        ImportError::MissingExternalFile {
            name: "fox.gltf".into(),
            uri: "fox%20data.bin".into()
        }
    );
    assert!(err.to_string().contains("was not given with it"));
}

#[test]
fn obj_reads_the_same_surface() {
    let original = fox();
    let mut obj = String::from("# written by the test\nmtllib fox.mtl\n");
    for p in &original.mesh.positions {
        obj += &format!("v {} {} {}\n", p.x, p.y, p.z);
    }
    let mut textured = obj.clone();
    for t in &original.mesh.triangles {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    let c = import(obj.as_bytes(), "fox.obj", &Limits::default()).unwrap();
    assert_eq!(c.mesh.positions, original.mesh.positions);
    assert_eq!(c.mesh.triangles, original.mesh.triangles);
    assert!(c.skeleton.is_none());
    assert_eq!(
        rigkit::io::external_references(obj.as_bytes(), "fox.obj"),
        ["fox.mtl"]
    );
    // With texture coordinates (OBJ's v is flipped to glTF's) the same surface and UVs come
    // back; Fox has one coordinate per position, so no vertex is split.
    for uv in &original.mesh.uvs {
        textured += &format!("vt {} {}\n", uv.x, 1.0 - uv.y);
    }
    for t in &original.mesh.triangles {
        let [a, b, c] = t.map(|i| i + 1);
        textured += &format!("f {a}/{a} {b}/{b} {c}/{c}\n");
    }
    let t = import(textured.as_bytes(), "fox-uv.obj", &Limits::default()).unwrap();
    assert_eq!(t.mesh.vertex_count(), original.mesh.vertex_count());
    assert_eq!(t.mesh.triangles.len(), original.mesh.triangles.len());
    for (tri_t, tri_o) in t.mesh.triangles.iter().zip(&original.mesh.triangles) {
        for (i, j) in tri_t.iter().zip(tri_o) {
            let (i, j) = (*i as usize, *j as usize);
            assert_eq!(t.mesh.positions[i], original.mesh.positions[j]);
            assert!((t.mesh.uvs[i] - original.mesh.uvs[j]).length() < 1e-6);
        }
    }
    // And it exports as a GLB without a skin.
    let glb = export_glb(&c, &ExportOptions::default()).unwrap();
    assert_eq!(
        import(&glb, "fox.glb", &Limits::default())
            .unwrap()
            .info()
            .triangles,
        576
    );
}

#[test]
fn cli_finds_the_bin_beside_the_gltf() {
    let dir = std::env::temp_dir().join(format!("rigkit-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = export_glb(&fox(), &ExportOptions::default()).unwrap();
    let (gltf, bin) = split_glb(&glb, "fox.bin");
    std::fs::write(dir.join("fox.gltf"), gltf).unwrap();
    std::fs::write(dir.join("fox.bin"), bin).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rigkit"))
        .arg("info")
        .arg(dir.join("fox.gltf"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("joints:           24"), "{stdout}");
    std::fs::remove_file(dir.join("fox.bin")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rigkit"))
        .arg("info")
        .arg(dir.join("fox.gltf"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("'fox.bin'"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vrm_humanoid_bone_maps_are_kept() {
    let glb = export_glb(&fox(), &ExportOptions::default()).unwrap();
    let (gltf, bin) = split_glb(&glb, "fox.bin");
    let mut doc: serde_json::Value = serde_json::from_str(&gltf).unwrap();
    // The exporter writes joints as nodes 0..n in skeleton order.
    let names: Vec<String> = fox()
        .skeleton
        .unwrap()
        .joints
        .iter()
        .map(|j| j.name.clone())
        .collect();
    for (extension, humanoid) in [
        (
            "VRMC_vrm",
            serde_json::json!({ "humanBones": { "hips": { "node": 3 }, "head": { "node": 5 } } }),
        ),
        (
            "VRM",
            serde_json::json!({ "humanBones": [ { "bone": "hips", "node": 3 }, { "bone": "head", "node": 5 } ] }),
        ),
    ] {
        doc["extensionsUsed"] = serde_json::json!([extension]);
        doc["extensions"] = serde_json::json!({ extension: { "humanoid": humanoid } });
        let text = doc.to_string();
        let c = import_gltf(("fox.vrm.gltf", &text), ("fox.bin", &bin)).unwrap();
        let skeleton = c.skeleton.as_ref().unwrap();
        let mut got: Vec<(String, String)> = c
            .humanoid
            .iter()
            .map(|h| {
                (
                    h.bone.clone(),
                    skeleton.joints[h.joint.index()].name.clone(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(
            got,
            vec![
                ("head".into(), names[5].clone()),
                ("hips".into(), names[3].clone())
            ],
            "{extension}"
        );
        assert_eq!(c.info().humanoid_bones, 2);
    }
}

#[test]
fn sparse_accessors_replace_the_elements_they_name() {
    let original = fox();
    let glb = export_glb(&original, &ExportOptions::default()).unwrap();
    let (text, mut bin) = split_glb(&glb, "fox.bin");
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Vertices 3 and 700 move to new places through a sparse substitution on POSITION.
    let moved = [[1.0f32, 2.0, 3.0], [-4.0, 5.0, -6.0]];
    let offset = bin.len();
    bin.extend([3u32, 700].iter().flat_map(|i| i.to_le_bytes()));
    bin.extend(moved.iter().flatten().flat_map(|v| v.to_le_bytes()));
    doc["buffers"][0]["byteLength"] = serde_json::json!(bin.len());
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(serde_json::json!({ "buffer": 0, "byteOffset": offset, "byteLength": 8 }));
    views.push(serde_json::json!({ "buffer": 0, "byteOffset": offset + 8, "byteLength": 24 }));
    let (indices, values) = (views.len() - 2, views.len() - 1);
    let position = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    doc["accessors"][position]["sparse"] = serde_json::json!({
        "count": 2,
        "indices": { "bufferView": indices, "componentType": 5125 },
        "values": { "bufferView": values },
    });
    let text = doc.to_string();
    let c = import_gltf(("fox.gltf", &text), ("fox.bin", &bin)).unwrap();
    for (v, (a, b)) in original
        .mesh
        .positions
        .iter()
        .zip(&c.mesh.positions)
        .enumerate()
    {
        match v {
            3 => assert!(b.abs_diff_eq(moved[0].into(), 1e-4), "{b}"),
            700 => assert!(b.abs_diff_eq(moved[1].into(), 1e-4), "{b}"),
            _ => assert!((*a - *b).length() < 1e-4, "vertex {v}: {a} → {b}"),
        }
    }
    // Values that run past their view are an error, not a panic.
    doc["accessors"][position]["sparse"]["count"] = serde_json::json!(3);
    let text = doc.to_string();
    let error = import_gltf(("fox.gltf", &text), ("fox.bin", &bin)).unwrap_err();
    assert!(error.to_string().contains("runs past"), "{error}");
}

/// `other` holds the surface, skeleton (names, hierarchy, bind pose) and skin weights of
/// `glb`, in the same frame: what a file converted from it by another tool must keep.
fn assert_same_rig(other: &Character, glb: &Character) {
    assert_eq!(other.mesh.vertex_count(), glb.mesh.vertex_count());
    assert_eq!(other.mesh.triangles.len(), glb.mesh.triangles.len());
    let (a, b) = (other.mesh.bounds(), glb.mesh.bounds());
    // Text formats keep about six digits: compare to a hundred-thousandth of the body.
    let tolerance = 1e-5 * b.longest_side();
    assert!(
        a.min.distance(b.min) < tolerance && a.max.distance(b.max) < tolerance,
        "{a:?} {b:?}"
    );
    let (sf, sg) = (
        other.skeleton.as_ref().unwrap(),
        glb.skeleton.as_ref().unwrap(),
    );
    assert_eq!(sf.joints.len(), sg.joints.len());
    for j in &sf.joints {
        let k = sg.joints.iter().find(|k| k.name == j.name).unwrap();
        assert!(
            j.position().distance(k.position()) < tolerance,
            "{}",
            j.name
        );
        let parent = |s: &rigkit::rig::Skeleton, p: Option<rigkit::rig::JointId>| {
            p.and_then(|p| s.joint(p)).map(|p| p.name.clone())
        };
        assert_eq!(parent(sf, j.parent), parent(sg, k.parent), "{}", j.name);
    }
    // Weights by joint name, vertices matched by position.
    let (wf, wg) = (other.skin.as_ref().unwrap(), glb.skin.as_ref().unwrap());
    let mut compared = 0;
    for v in 0..other.mesh.vertex_count() {
        let p = other.mesh.positions[v];
        let Some(u) =
            (0..glb.mesh.vertex_count()).find(|&u| glb.mesh.positions[u].distance(p) < tolerance)
        else {
            continue;
        };
        let by_name = |s: &rigkit::rig::Skeleton, w: &rigkit::rig::SkinWeights, v: usize| {
            let mut list: Vec<(String, f32)> = w
                .influences(v)
                .iter()
                .map(|i| (s.joints[i.joint.index()].name.clone(), i.weight))
                .collect();
            list.sort_by(|a, b| a.0.cmp(&b.0));
            list
        };
        let (x, y) = (by_name(sf, wf, v), by_name(sg, wg, u));
        assert_eq!(x.len(), y.len(), "vertex {v}: {x:?} {y:?}");
        for ((n, w), (m, z)) in x.iter().zip(&y) {
            assert!(n == m && (w - z).abs() < 1e-4, "vertex {v}: {x:?} {y:?}");
        }
        compared += 1;
    }
    assert!(compared > other.mesh.vertex_count() * 9 / 10, "{compared}");
}

/// A character Blender 4.5 exported as binary FBX (7.4, compressed arrays, `tests/blender/
/// export_as.py … shape`) reads as the GLB it was made from: the same surface, skeleton, bind
/// pose and skin weights, in the same frame, plus the blend shape added before export.
#[test]
fn fbx_from_blender_reads_like_the_gltf_it_was_made_from() {
    let fbx = import(
        &common::read("fbx/human-zombie.fbx"),
        "human-zombie.fbx",
        &Limits::default(),
    )
    .unwrap();
    let glb = load("train/mesh2motion-variations/human-zombie.glb");
    assert_same_rig(&fbx, &glb);
    // Its blend shape, a Blender shape key lifting the head 10 cm at a rest weight of 0.25.
    assert!(fbx.warnings.is_empty(), "{:?}", fbx.warnings);
    let [raise] = fbx.mesh.morph_targets.as_slice() else {
        panic!("{:?}", fbx.mesh.morph_targets.len())
    };
    assert_eq!((raise.name.as_str(), raise.weight), ("Raise", 0.25));
    for (p, d) in fbx.mesh.positions.iter().zip(&raise.offsets) {
        let expected = if p.y > 2.0 {
            glam::Vec3::Y * 0.1
        } else {
            glam::Vec3::ZERO
        };
        assert!(d.distance(expected) < 1e-5, "{p} moves by {d}");
    }
    // And it rigs onward: a GLB with the same skeleton comes out.
    let out = export_glb(&fbx, &ExportOptions::default()).unwrap();
    let back = import(&out, "human-zombie.glb", &Limits::default()).unwrap();
    assert_eq!(back.info().joints, 42);
    assert_eq!(back.info().morph_targets, ["Raise"]);
    assert_eq!(back.info().skinned_vertices, fbx.mesh.vertex_count());
}

/// The same character exported by Blender as COLLADA (`tests/blender/export_as.py`: Z up,
/// `<matrix>` nodes, a `controller/skin` with inverse binds) reads as the GLB too.
#[test]
fn collada_from_blender_reads_like_the_gltf_it_was_made_from() {
    let dae = import(
        &common::read("dae/human-zombie.dae"),
        "human-zombie.dae",
        &Limits::default(),
    )
    .unwrap();
    let glb = load("train/mesh2motion-variations/human-zombie.glb");
    assert_same_rig(&dae, &glb);
    assert!(dae.warnings.is_empty(), "{:?}", dae.warnings);
}

/// An ASCII FBX as 3ds Max writes it — Z up, centimetres, `Properties70`, a cluster per bone
/// with its bind matrices — becomes a Y-up character in metres with the file's weights.
#[test]
fn ascii_fbx_in_z_up_centimetres_comes_in_y_up_in_metres() {
    let text = r#"; FBX 7.4.0 project file
; a quad 100 cm tall standing on the ground, bound to a two-bone chain
GlobalSettings:  {
	Properties70:  {
		P: "UpAxis", "int", "Integer", "",2
		P: "UpAxisSign", "int", "Integer", "",1
		P: "FrontAxis", "int", "Integer", "",1
		P: "FrontAxisSign", "int", "Integer", "",-1
		P: "CoordAxis", "int", "Integer", "",0
		P: "CoordAxisSign", "int", "Integer", "",1
		P: "UnitScaleFactor", "double", "Number", "",1
	}
}
Objects:  {
	Geometry: 10, "Geometry::Quad", "Mesh" {
		Vertices: *18 {
			a: -10,0,0,10,0,0,10,0,50,-10,0,50,-10,0,100,10,0,100
		}
		PolygonVertexIndex: *8 {
			a: 0,1,2,-4,3,2,5,-5
		}
	}
	Model: 20, "Model::Quad", "Mesh" {
		Properties70:  {
		}
	}
	Model: 30, "Model::Hips", "LimbNode" {
		Properties70:  {
			P: "PreRotation", "Vector3D", "Vector", "",0,-90,0
		}
	}
	Model: 31, "Model::Spine", "LimbNode" {
		Properties70:  {
			P: "Lcl Translation", "Lcl Translation", "", "A",50,0,0
			P: "PreRotation", "Vector3D", "Vector", "",0,-90,0
		}
	}
	Deformer: 40, "Deformer::Skin", "Skin" {
	}
	Deformer: 41, "SubDeformer::Hips", "Cluster" {
		Indexes: *4 {
			a: 0,1,2,3
		}
		Weights: *4 {
			a: 1,1,0.5,0.5
		}
		Transform: *16 {
			a: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1
		}
		TransformLink: *16 {
			a: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1
		}
	}
	Deformer: 42, "SubDeformer::Spine", "Cluster" {
		Indexes: *4 {
			a: 2,3,4,5
		}
		Weights: *4 {
			a: 0.5,0.5,1,1
		}
		Transform: *16 {
			a: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,-50,1
		}
		TransformLink: *16 {
			a: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,50,1
		}
	}
}
Connections:  {
	C: "OO",20,0
	C: "OO",10,20
	C: "OO",30,0
	C: "OO",31,30
	C: "OO",40,10
	C: "OO",41,40
	C: "OO",42,40
	C: "OO",30,41
	C: "OO",31,42
}
"#;
    let c = import(text.as_bytes(), "quad.fbx", &Limits::default()).unwrap();
    assert_eq!((c.mesh.vertex_count(), c.mesh.triangles.len()), (6, 4));
    let b = c.mesh.bounds();
    // 100 cm up the file's Z is 1 m up Y; the quad lies in the file's XZ plane, so Z here is 0.
    assert!(
        b.min.distance(glam::Vec3::new(-0.1, 0.0, 0.0)) < 1e-5,
        "{b:?}"
    );
    assert!(
        b.max.distance(glam::Vec3::new(0.1, 1.0, 0.0)) < 1e-5,
        "{b:?}"
    );
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(s.names(), ["Hips", "Spine"]);
    assert_eq!(s.joints[1].parent, Some(rigkit::rig::JointId(0)));
    assert!(
        s.joints[1]
            .position()
            .distance(glam::Vec3::new(0.0, 0.5, 0.0))
            < 1e-5
    );
    let w = c.skin.as_ref().unwrap();
    // The top corners follow the spine alone, the middle ones both bones equally.
    let top = (0..6).find(|&v| c.mesh.positions[v].y > 0.99).unwrap();
    assert_eq!(w.influences(top).len(), 1);
    assert_eq!(w.influences(top)[0].joint, rigkit::rig::JointId(1));
    let middle = (0..6)
        .find(|&v| (c.mesh.positions[v].y - 0.5).abs() < 1e-4)
        .unwrap();
    let weights: Vec<f32> = w.influences(middle).iter().map(|i| i.weight).collect();
    assert!(
        weights.len() == 2 && (weights[0] - 0.5).abs() < 1e-6,
        "{weights:?}"
    );
}

/// `other`'s one clip moves its skeleton as the Fox's own walk moves the Fox, within 1 % of
/// the body's size at every joint.
fn assert_plays_like_the_walk(other: &Character) {
    let glb = fox();
    let (sf, sg) = (
        other.skeleton.as_ref().unwrap(),
        glb.skeleton.as_ref().unwrap(),
    );
    assert_eq!(other.animations.len(), 1);
    let clip = &other.animations[0];
    assert!(clip.fits(sf));
    let walk = glb.animations.iter().find(|c| c.name == "Walk").unwrap();
    assert!(
        (clip.duration() - walk.duration()).abs() < 0.05,
        "{} against {}",
        clip.duration(),
        walk.duration()
    );
    let size = glb.mesh.bounds().longest_side();
    let mut worst = 0.0f32;
    for step in 0..8 {
        let t = walk.duration() * step as f32 / 7.0;
        let (wf, wg) = (clip.world_at(sf, t), walk.world_at(sg, t));
        for (j, joint) in sf.joints.iter().enumerate() {
            let k = sg.joints.iter().position(|k| k.name == joint.name).unwrap();
            let d = wf[j].w_axis.truncate().distance(wg[k].w_axis.truncate());
            worst = worst.max(d / size);
        }
    }
    assert!(worst < 0.01, "joints {worst} of the body's size apart");
}

/// An FBX animation stack comes in as a clip that moves the skeleton as the original did:
/// the Fox's walk, exported by Blender (baked keys, simplified), against the GLB's own clip.
#[test]
fn fbx_animation_stacks_play_like_the_clips_they_were_made_from() {
    let fbx = import(
        &common::read("fbx/fox-walk.fbx"),
        "fox-walk.fbx",
        &Limits::default(),
    )
    .unwrap();
    assert_plays_like_the_walk(&fbx);
}

/// COLLADA animation channels (Blender's sampled bone matrices, `tests/blender/export_as.py
/// … anim=Walk`) play as the clip they were made from.
#[test]
fn collada_animations_play_like_the_clips_they_were_made_from() {
    let dae = import(
        &common::read("dae/fox-walk.dae"),
        "fox-walk.dae",
        &Limits::default(),
    )
    .unwrap();
    assert_same_rig(&dae, &fox());
    assert_plays_like_the_walk(&dae);
}

/// An FBX's embedded texture (a `Video` whose `Content` is base64 text in ASCII files) comes
/// in as the base-colour image of the material it is plugged into, and exports with it.
#[test]
fn fbx_embedded_textures_become_material_images() {
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let text = format!(
        r#"; FBX 7.4.0 project file
Objects:  {{
	Geometry: 10, "Geometry::Tri", "Mesh" {{
		Vertices: *9 {{
			a: 0,0,0,1,0,0,0,1,0
		}}
		PolygonVertexIndex: *3 {{
			a: 0,1,-3
		}}
	}}
	Model: 20, "Model::Tri", "Mesh" {{
	}}
	Material: 30, "Material::Skin", "" {{
		Properties70:  {{
			P: "DiffuseColor", "Color", "", "A",1,0.5,0.25
		}}
	}}
	Texture: 40, "Texture::Skin", "" {{
		RelativeFilename: "skin.png"
	}}
	Video: 50, "Video::Skin", "Clip" {{
		Content: , "{png}"
	}}
}}
Connections:  {{
	C: "OO",20,0
	C: "OO",10,20
	C: "OO",30,20
	C: "OP",40,30, "DiffuseColor"
	C: "OO",50,40
}}
"#
    );
    let c = import(text.as_bytes(), "textured.fbx", &Limits::default()).unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.images.len(), 1);
    assert_eq!(c.images[0].mime_type, "image/png");
    let [skin] = c.materials.as_slice() else {
        panic!("{:?}", c.materials)
    };
    assert_eq!(skin.name.as_deref(), Some("Skin"));
    assert_eq!(skin.base_color_image, Some(0));
    assert!(
        (skin.base_color[1] - 0.5).abs() < 1e-6,
        "{:?}",
        skin.base_color
    );
    assert_eq!(c.mesh.parts[0].material, Some(0));
    let glb = export_glb(&c, &ExportOptions::default()).unwrap();
    let back = import(&glb, "textured.glb", &Limits::default()).unwrap();
    assert_eq!(back.info().textures, 1);
}

/// `character` written as a VRM, as `rigkit rig … -o OUT.vrm` writes it.
fn vrm_of(character: &Character) -> Vec<u8> {
    let vrm = rigkit::export::OutputFormat::Vrm;
    rigkit::export::export(character, &ExportOptions::default(), vrm).unwrap()
}

/// Turns a VRM 1.0 document into a VRM 0.x one whose extension is `vrm0` with the 1.0
/// humanoid bone map moved into it as 0.x's list.
fn as_vrm0(doc: &mut serde_json::Value, mut vrm0: serde_json::Value) {
    let v1 = doc["extensions"]["VRMC_vrm"].take();
    let list: Vec<serde_json::Value> = (v1["humanoid"]["humanBones"].as_object())
        .unwrap()
        .iter()
        .map(|(b, v)| serde_json::json!({ "bone": b, "node": v["node"] }))
        .collect();
    vrm0["humanoid"] = serde_json::json!({ "humanBones": list });
    doc["extensionsUsed"] = serde_json::json!(["VRM"]);
    doc["extensions"] = serde_json::json!({ "VRM": vrm0 });
}

/// `glb` with its JSON changed by `edit`, read back as a `.vrm` (a .gltf and its .bin).
fn edited_vrm(glb: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Character {
    let (gltf, bin) = split_glb(glb, "avatar.bin");
    let mut doc: serde_json::Value = serde_json::from_str(&gltf).unwrap();
    edit(&mut doc);
    let text = doc.to_string();
    import_gltf(("avatar.gltf", &text), ("avatar.bin", &bin)).unwrap()
}

/// Every humanoid bone of a written VRM's map points at an existing joint node that plays
/// that part (its name says so), and the map has every bone VRM requires.
fn assert_bones_point_at_joints(glb: &[u8], bones: &[(String, usize)]) {
    let c = import(glb, "out.vrm", &Limits::default()).unwrap();
    let skeleton = c.skeleton.as_ref().unwrap();
    let doc = glb_json(glb);
    for required in [
        "hips",
        "spine",
        "head",
        "leftUpperArm",
        "rightHand",
        "leftFoot",
    ] {
        assert!(
            bones.iter().any(|(b, _)| b == required),
            "{required}: {bones:?}"
        );
    }
    for (bone, node) in bones {
        assert!(*node < skeleton.joints.len(), "{bone} → node {node}");
        let name = doc["nodes"][node]["name"].as_str().unwrap();
        assert_eq!(name, skeleton.joints[*node].name);
        let expected = rigkit::rig::humanoid_role(bone);
        assert_eq!(
            rigkit::rig::humanoid_role(name),
            expected,
            "{bone} → {name}"
        );
    }
    assert_eq!(c.humanoid.len(), bones.len());
}

/// A VRM in gives a VRM out: rigged anew with the humanoid template, a VRM 1.0 avatar comes
/// back as VRM 1.0 with its meta, its bone map rebuilt for the new joints; a VRM 0.x avatar
/// comes back as 0.x. A rig that is no humanoid cannot be written as a VRM, and says why.
#[test]
fn a_vrm_comes_back_as_a_vrm_whose_bones_point_at_its_joints() {
    let zombie = load("train/mesh2motion-variations/human-zombie.glb");
    // Asked for, a humanoid rig becomes a VRM 1.0 (Unreal joint names read as roles).
    let vrm = vrm_of(&zombie);
    let doc = glb_json(&vrm);
    assert_eq!(doc["extensionsUsed"], serde_json::json!(["VRMC_vrm"]));
    assert_eq!(doc["extensions"]["VRMC_vrm"]["specVersion"], "1.0");
    let bones_of = |doc: &serde_json::Value| -> Vec<(String, usize)> {
        if let Some(map) = doc["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"].as_object() {
            return map
                .iter()
                .map(|(b, v)| (b.clone(), v["node"].as_u64().unwrap() as usize))
                .collect();
        }
        doc["extensions"]["VRM"]["humanoid"]["humanBones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let bone = v["bone"].as_str().unwrap().to_owned();
                (bone, v["node"].as_u64().unwrap() as usize)
            })
            .collect()
    };
    assert_bones_point_at_joints(&vrm, &bones_of(&doc));
    // An avatar with its own meta, rigged anew: the meta stays, the map follows the joints.
    for version in ["1.0", "0.x"] {
        let mut avatar = edited_vrm(&vrm, |doc| {
            if version == "0.x" {
                as_vrm0(
                    doc,
                    serde_json::json!({
                        "meta": { "title": "Zed", "author": "Ada", "texture": 0 },
                    }),
                );
            } else {
                doc["extensions"]["VRMC_vrm"]["meta"]["name"] = "Zed".into();
                doc["extensions"]["VRMC_vrm"]["meta"]["authors"] = serde_json::json!(["Ada"]);
            }
        });
        assert!(
            avatar.vrm.is_some() && !avatar.humanoid.is_empty(),
            "{version}"
        );
        let request = rigkit::pipeline::RigRequest::named("humanoid", "best", 4, None).unwrap();
        rigkit::pipeline::rig_character(&mut avatar, &request, |_| {}).unwrap();
        let out = export_glb(&avatar, &ExportOptions::default()).unwrap();
        let doc = glb_json(&out);
        let meta = if version == "0.x" {
            assert_eq!(doc["extensions"]["VRM"]["specVersion"], "0.0");
            let meta = &doc["extensions"]["VRM"]["meta"];
            assert!(meta.get("texture").is_none(), "a thumbnail this file lacks");
            (meta["title"].clone(), meta["author"].clone())
        } else {
            let meta = &doc["extensions"]["VRMC_vrm"]["meta"];
            (meta["name"].clone(), meta["authors"][0].clone())
        };
        assert_eq!(meta, ("Zed".into(), "Ada".into()), "{version}");
        assert_bones_point_at_joints(&out, &bones_of(&doc));
    }
    // The Fox has no arms: refused, naming what is missing.
    let error = rigkit::export::export(
        &fox(),
        &ExportOptions::default(),
        rigkit::export::OutputFormat::Vrm,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("VRM needs a humanoid skeleton")
            && error.to_string().contains("leftUpperArm"),
        "{error}"
    );
}

/// A VRM's expressions — presets and custom ones, in 1.0 and 0.x — come back from being rigged
/// anew bound to the same morph targets (by name), with their weights and other fields.
#[test]
fn vrm_expressions_come_back_bound_to_the_same_targets() {
    use serde_json::json;
    let mut zombie = load("train/mesh2motion-variations/human-zombie.glb");
    let n = zombie.mesh.vertex_count();
    for (name, lift) in [("Smile", 0.01), ("Blink", -0.01), ("Oh", 0.02)] {
        zombie.mesh.morph_targets.push(rigkit::mesh::MorphTarget {
            name: name.into(),
            offsets: (0..n)
                .map(|v| glam::Vec3::Y * if v % 7 == 0 { lift } else { 0.0 })
                .collect(),
            weight: 0.0,
        });
    }
    let vrm = vrm_of(&zombie);
    let mesh_node = |doc: &serde_json::Value| {
        (doc["nodes"].as_array().unwrap().iter())
            .position(|n| n.get("mesh").is_some())
            .unwrap()
    };
    // (name, target bound, weight) of each expression of a written file, by target name.
    let bound = |doc: &serde_json::Value| -> Vec<(String, String, f64)> {
        let names = &doc["meshes"][0]["extras"]["targetNames"];
        let target = |i: &serde_json::Value| {
            names[i.as_u64().unwrap() as usize]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let mut out = Vec::new();
        if let Some(v1) = doc["extensions"].get("VRMC_vrm") {
            for section in ["preset", "custom"] {
                for (name, e) in v1["expressions"][section].as_object().unwrap() {
                    for b in e["morphTargetBinds"].as_array().unwrap() {
                        assert_eq!(b["node"].as_u64().unwrap() as usize, mesh_node(doc));
                        out.push((
                            name.clone(),
                            target(&b["index"]),
                            b["weight"].as_f64().unwrap(),
                        ));
                    }
                }
            }
        } else {
            for g in doc["extensions"]["VRM"]["blendShapeMaster"]["blendShapeGroups"]
                .as_array()
                .unwrap()
            {
                for b in g["binds"].as_array().unwrap() {
                    assert_eq!(b["mesh"], 0);
                    let name = g["name"].as_str().unwrap().to_owned();
                    out.push((
                        name,
                        target(&b["index"]),
                        b["weight"].as_f64().unwrap() / 100.0,
                    ));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    for version in ["1.0", "0.x"] {
        let mut avatar = edited_vrm(&vrm, |doc| {
            let node = mesh_node(doc);
            if version == "0.x" {
                as_vrm0(
                    doc,
                    serde_json::json!({
                        "meta": { "title": "Zed" },
                        "blendShapeMaster": { "blendShapeGroups": [
                            { "name": "Joy", "presetName": "joy", "binds": [{ "mesh": 0, "index": 0, "weight": 100 }] },
                            { "name": "Blink", "presetName": "blink", "isBinary": true, "binds": [{ "mesh": 0, "index": 1, "weight": 50 }] },
                            { "name": "Surprised", "presetName": "unknown", "binds": [{ "mesh": 0, "index": 2, "weight": 100 }, { "mesh": 0, "index": 9, "weight": 100 }] },
                        ] },
                    }),
                );
            } else {
                doc["extensions"]["VRMC_vrm"]["expressions"] = json!({
                    "preset": {
                        "happy": { "morphTargetBinds": [{ "node": node, "index": 0, "weight": 1.0 }], "overrideBlink": "block" },
                        "blink": { "morphTargetBinds": [{ "node": node, "index": 1, "weight": 0.5 }], "isBinary": true },
                    },
                    "custom": {
                        "surprised": { "morphTargetBinds": [{ "node": node, "index": 2 }, { "node": node, "index": 9 }] },
                    },
                });
            }
        });
        let expressions = &avatar.vrm.as_ref().unwrap().expressions;
        assert_eq!(expressions.len(), 3, "{version}");
        // The bind to a target the file does not have is dropped.
        assert!(
            expressions.iter().all(|e| e.binds.len() == 1),
            "{version}: {expressions:?}"
        );
        let request = rigkit::pipeline::RigRequest::named("humanoid", "best", 4, None).unwrap();
        rigkit::pipeline::rig_character(&mut avatar, &request, |_| {}).unwrap();
        let out = export_glb(&avatar, &ExportOptions::default()).unwrap();
        let doc = glb_json(&out);
        let expected: Vec<(String, String, f64)> = if version == "0.x" {
            vec![
                ("Blink".into(), "Blink".into(), 0.5),
                ("Joy".into(), "Smile".into(), 1.0),
                ("Surprised".into(), "Oh".into(), 1.0),
            ]
        } else {
            vec![
                ("blink".into(), "Blink".into(), 0.5),
                ("happy".into(), "Smile".into(), 1.0),
                ("surprised".into(), "Oh".into(), 1.0),
            ]
        };
        assert_eq!(bound(&doc), expected, "{version}");
        if version == "0.x" {
            let groups = &doc["extensions"]["VRM"]["blendShapeMaster"]["blendShapeGroups"];
            assert_eq!(groups[1]["presetName"], "blink");
            assert_eq!(groups[1]["isBinary"], true);
        } else {
            let e = &doc["extensions"]["VRMC_vrm"]["expressions"];
            assert_eq!(e["preset"]["happy"]["overrideBlink"], "block");
            assert_eq!(e["preset"]["blink"]["isBinary"], true);
            assert!(e["custom"]["surprised"].is_object());
        }
    }
}

/// A VRM's spring bones (hair, tails: 1.0's `VRMC_springBone`, 0.x's `secondaryAnimation`)
/// follow their joints: rigged anew with a skeleton of the same joint names (the artist's
/// file), they come back naming the nodes those joints are written as; once a joint they
/// swing is gone they are not written (they would swing the wrong joints).
#[test]
fn vrm_spring_bones_follow_their_joints() {
    use serde_json::json;
    let zombie = load("train/mesh2motion-variations/human-zombie.glb");
    let vrm = vrm_of(&zombie);
    let doc = glb_json(&vrm);
    let node_of = |doc: &serde_json::Value, name: &str| {
        (doc["nodes"].as_array().unwrap().iter())
            .position(|n| n["name"] == name)
            .unwrap_or_else(|| panic!("no node {name}"))
    };
    let name_of = |doc: &serde_json::Value, node: &serde_json::Value| -> String {
        doc["nodes"][node.as_u64().unwrap() as usize]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let [head, neck, spine] = ["head", "neck_01", "spine_03"].map(|n| node_of(&doc, n));
    for version in ["1.0", "0.x"] {
        let mut avatar = edited_vrm(&vrm, |doc| {
            if version == "0.x" {
                as_vrm0(
                    doc,
                    serde_json::json!({
                        "meta": { "title": "Zed" },
                        "secondaryAnimation": {
                            "boneGroups": [{ "comment": "hair", "stiffiness": 0.7, "bones": [neck], "center": -1, "colliderGroups": [0] }],
                            "colliderGroups": [{ "node": head, "colliders": [{ "offset": { "x": 0, "y": 0, "z": 0 }, "radius": 0.1 }] }],
                        },
                    }),
                );
            } else {
                doc["extensionsUsed"] = json!(["VRMC_vrm", "VRMC_springBone"]);
                doc["extensions"]["VRMC_springBone"] = json!({
                    "specVersion": "1.0",
                    "colliders": [{ "node": head, "shape": { "sphere": { "offset": [0, 0, 0], "radius": 0.1 } } }],
                    "colliderGroups": [{ "colliders": [0] }],
                    "springs": [{ "name": "tail", "joints": [{ "node": spine, "stiffness": 0.7 }, { "node": neck }], "colliderGroups": [0], "center": spine }],
                });
            }
        });
        assert!(avatar.vrm.as_ref().unwrap().springs.is_some(), "{version}");
        // Rigged anew with the artist's skeleton file (its joints in the file's order).
        let file = common::read("train/mesh2motion-variations/human-zombie.glb");
        let request =
            rigkit::pipeline::RigRequest::named("auto", "best", 4, Some(("zombie.glb", &file)))
                .unwrap();
        rigkit::pipeline::rig_character(&mut avatar, &request, |_| {}).unwrap();
        let doc = glb_json(&export_glb(&avatar, &ExportOptions::default()).unwrap());
        if version == "0.x" {
            let springs = &doc["extensions"]["VRM"]["secondaryAnimation"];
            assert_eq!(
                name_of(&doc, &springs["boneGroups"][0]["bones"][0]),
                "neck_01"
            );
            assert_eq!(springs["boneGroups"][0]["center"], -1);
            assert_eq!(springs["boneGroups"][0]["stiffiness"], 0.7);
            assert_eq!(name_of(&doc, &springs["colliderGroups"][0]["node"]), "head");
        } else {
            assert_eq!(
                doc["extensionsUsed"],
                json!(["VRMC_vrm", "VRMC_springBone"])
            );
            let springs = &doc["extensions"]["VRMC_springBone"];
            let spring = &springs["springs"][0];
            assert_eq!(name_of(&doc, &spring["joints"][0]["node"]), "spine_03");
            assert_eq!(name_of(&doc, &spring["joints"][1]["node"]), "neck_01");
            assert_eq!(name_of(&doc, &spring["center"]), "spine_03");
            assert_eq!(spring["joints"][0]["stiffness"], 0.7);
            assert_eq!(name_of(&doc, &springs["colliders"][0]["node"]), "head");
        }
        // A joint they swing renamed away: the springs are left out, the avatar still written.
        let skeleton = avatar.skeleton.as_mut().unwrap();
        let neck = skeleton
            .joints
            .iter()
            .position(|j| j.name == "neck_01")
            .unwrap();
        skeleton.joints[neck].name = "neck_renamed".into();
        let doc = glb_json(&export_glb(&avatar, &ExportOptions::default()).unwrap());
        assert!(
            doc["extensions"].get("VRMC_springBone").is_none(),
            "{version}"
        );
        assert!(
            doc["extensions"]["VRM"]
                .get("secondaryAnimation")
                .is_none_or(|s| s["boneGroups"] == json!([])),
            "{version}"
        );
    }
}
