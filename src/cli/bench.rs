//! `rigkit bench import`: how long importing a large GLB takes, as a median over repeated runs.
//! The input is generated (a bumpy grid, skinned to a two-joint chain), so the number is
//! reproducible anywhere without data files.

use std::time::Instant;

use glam::{Mat4, Vec3};
use rigkit::mesh::{Mesh, vertex_normals};
use rigkit::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};
use rigkit::{Character, Limits, SourceSummary};

/// A grid of about `triangles` triangles with every vertex weighted between two joints.
fn grid_character(triangles: usize) -> Character {
    let side = ((triangles / 2) as f64).sqrt().ceil() as usize + 1;
    let mut positions = Vec::with_capacity(side * side);
    let mut skin = SkinWeights::new();
    for j in 0..side {
        for i in 0..side {
            let (u, v) = (i as f32 / (side - 1) as f32, j as f32 / (side - 1) as f32);
            positions.push(Vec3::new(u, v, 0.02 * (u * 40.0).sin() * (v * 40.0).cos()));
            skin.push_vertex([
                Influence {
                    joint: JointId(0),
                    weight: 1.0 - v,
                },
                Influence {
                    joint: JointId(1),
                    weight: v,
                },
            ]);
        }
    }
    let mut tris = Vec::with_capacity(2 * (side - 1) * (side - 1));
    for j in 0..side - 1 {
        for i in 0..side - 1 {
            let a = (j * side + i) as u32;
            let (b, c, d) = (a + 1, a + side as u32, a + side as u32 + 1);
            tris.push([a, b, d]);
            tris.push([a, d, c]);
        }
    }
    let joint = |name: &str, parent, y| Joint {
        name: name.into(),
        parent,
        world_bind: Mat4::from_translation(Vec3::new(0.5, y, 0.0)),
    };
    Character {
        name: "grid".into(),
        mesh: Mesh {
            normals: vertex_normals(&positions, &tris),
            positions,
            uvs: Vec::new(),
            triangles: tris,
            parts: Vec::new(),
        },
        skeleton: Some(Skeleton {
            joints: vec![
                joint("root", None, 0.0),
                joint("tip", Some(JointId(0)), 1.0),
            ],
        }),
        skin: Some(skin),
        materials: Vec::new(),
        images: Vec::new(),
        animations: Vec::new(),
        humanoid: Vec::new(),
        warnings: Vec::new(),
        source: SourceSummary::default(),
    }
}

pub fn import(args: &[String]) -> Result<(), String> {
    let mut triangles = 1_000_000usize;
    let mut runs = 5usize;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&v| v > 0)
                .ok_or(format!("{flag} needs a positive number"))
        };
        match arg.as_str() {
            "--triangles" => triangles = value("--triangles")?,
            "--runs" => runs = value("--runs")?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let character = grid_character(triangles);
    let glb =
        rigkit::export::export_glb(&character, &Default::default()).map_err(|e| e.to_string())?;
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let imported =
            rigkit::io::import(&glb, "grid.glb", &Limits::default()).map_err(|e| e.to_string())?;
        seconds.push(start.elapsed().as_secs_f64());
        std::hint::black_box(imported);
    }
    seconds.sort_by(f64::total_cmp);
    let median = seconds[seconds.len() / 2];
    println!(
        "import: {} triangles, {} vertices, {:.1} MB GLB: median {:.3} s over {runs} runs (min {:.3} s, max {:.3} s)",
        character.mesh.triangles.len(),
        character.mesh.vertex_count(),
        glb.len() as f64 / 1e6,
        median,
        seconds[0],
        seconds[seconds.len() - 1]
    );
    Ok(())
}

/// `rigkit bench skin FILE [--runs R] [--resolution N]`: median time of each skinning stage
/// on a rigged file, with its own skeleton.
pub fn skin(args: &[String]) -> Result<(), String> {
    let mut runs = 5usize;
    let mut options = rigkit::skin::SkinOptions::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&v| v > 0)
                .ok_or(format!("{flag} needs a positive number"))
        };
        match arg.as_str() {
            "--runs" => runs = value("--runs")?,
            "--resolution" => options.resolution = value("--resolution")? as u32,
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            f => file = Some(f.to_owned()),
        }
    }
    let file = file.ok_or("bench skin takes a rigged FILE")?;
    let character = super::load(&file)?;
    let skeleton = character
        .skeleton
        .as_ref()
        .ok_or("the file has no skeleton")?;
    let mut stages: Vec<[f64; 4]> = Vec::with_capacity(runs);
    let (mut solid, mut resolution) = (0, 0);
    for _ in 0..runs {
        let (skin, t) = rigkit::skin::geodesic_skin_timed(&character.mesh, skeleton, &options)
            .map_err(|e| e.to_string())?;
        std::hint::black_box(skin);
        (solid, resolution) = (t.solid_voxels, t.resolution);
        stages.push([
            t.voxelize,
            t.distances,
            t.weights,
            t.voxelize + t.distances + t.weights,
        ]);
    }
    let median = |i: usize| {
        let mut v: Vec<f64> = stages.iter().map(|s| s[i]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "skin {file}: {} vertices, {} joints, resolution {resolution} ({solid} solid voxels), medians over {runs} runs: voxelize {:.3} s, distances {:.3} s, weights {:.3} s, total {:.3} s",
        character.mesh.vertex_count(),
        skeleton.joints.len(),
        median(0),
        median(1),
        median(2),
        median(3),
    );
    Ok(())
}
