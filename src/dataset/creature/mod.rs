//! The procedural creature generator: random skeletons across morphologies, a surface grown
//! around them from blended implicit primitives, and ground-truth weights from the
//! construction. The same seed gives the same creature, bit for bit.

mod builder;
mod isosurface;
mod parts;
mod plans;
mod shape;
mod weights;

pub use plans::Morphology;

use glam::{Mat4, Vec3};

use builder::{BODY, Builder, PlannedJoint};
use shape::{Shape, ShapeKind};

use crate::Character;
use crate::mesh::{Material, Mesh, MeshPart, vertex_normals};
use crate::random::Rng;
use crate::rig::{Joint, JointId, Skeleton, SkinWeights};

/// Grid cells along a creature's longest side: fine enough for fingers of the surface to
/// survive, coarse enough for a creature in a few milliseconds.
pub const RESOLUTION: f32 = 72.0;

/// Generates the creature of `seed`, of `morphology` or of one chosen by the seed.
pub fn generate(seed: u64, morphology: Option<Morphology>) -> Character {
    let mut rng = Rng::new(seed ^ 0x5EED_C0DE_0000_0000);
    let morphology = morphology.unwrap_or_else(|| {
        Morphology::ALL[(rng.next_u64() % Morphology::ALL.len() as u64) as usize]
    });
    let mut builder = Builder::new(&mut rng, morphology.build());
    morphology.lay_out(&mut builder);
    let Builder {
        joints,
        mut shapes,
        shells,
        ..
    } = builder;
    let voxel = extent(&shapes) / RESOLUTION;
    thicken(&mut shapes, 1.1 * voxel);
    let (mesh, skin) = flesh(&shapes, &shells, voxel, morphology);
    Character {
        name: format!("{}-{seed}", morphology.name()),
        mesh,
        skeleton: Some(skeleton(&joints)),
        skin: Some(skin),
        materials: materials(&mut rng, morphology),
        images: Vec::new(),
        animations: Vec::new(),
        humanoid: Vec::new(),
        vrm: None,
        warnings: Vec::new(),
        source: crate::SourceSummary {
            materials: 2,
            skins: 1,
            ..Default::default()
        },
    }
}

/// The longest side of the box around every primitive.
fn extent(shapes: &[Shape]) -> f32 {
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for shape in shapes {
        let (a, b) = shape.bounds();
        lo = lo.min(a);
        hi = hi.max(b);
    }
    (hi - lo).max_element().max(1e-3)
}

/// Makes every primitive at least `min` thick, so that none falls between grid samples.
fn thicken(shapes: &mut [Shape], min: f32) {
    for shape in shapes {
        match &mut shape.kind {
            ShapeKind::Cone { ra, rb, .. } => {
                *ra = ra.max(min);
                *rb = rb.max(min);
            }
            ShapeKind::Ellipsoid { radii, .. } => *radii = radii.max(glam::Vec3::splat(min)),
            ShapeKind::Block { half, round, .. } => {
                *half = half.max(glam::Vec2::splat(min));
                *round = round.min(half.min_element() * 0.5);
            }
        }
    }
}

/// Every group's surface, merged into one mesh with its weights: the blended body and clothing
/// weighted by the body's primitives, rigid parts all on their joint. Body first, then the
/// clothing and parts, each group a mesh part (material 0 for the body, 1 for the rest).
fn flesh(
    shapes: &[Shape],
    shells: &[(usize, f32, f32)],
    voxel: f32,
    morphology: Morphology,
) -> (Mesh, SkinWeights) {
    let body: Vec<Shape> = shapes.iter().filter(|s| s.group == BODY).copied().collect();
    let groups = shapes.iter().map(|s| s.group).max().map_or(0, |g| g + 1);
    let mut mesh = Mesh::default();
    let mut skin = SkinWeights::new();
    for group in 0..groups {
        let members: Vec<Shape> = shapes
            .iter()
            .filter(|s| s.group == group)
            .copied()
            .collect();
        let Some(first) = members.first() else {
            continue;
        };
        let shell = shells.iter().find(|s| s.0 == group);
        let blend = if group == BODY || shell.is_some() {
            2.5 * voxel
        } else {
            0.0
        };
        let mut surface = isosurface::isosurface(&members, blend, voxel);
        if let Some(&(_, hem, collar)) = shell {
            surface.triangles.retain(|t| {
                let y = t
                    .iter()
                    .map(|&i| surface.positions[i as usize].y)
                    .sum::<f32>()
                    / 3.0;
                (hem..collar).contains(&y)
            });
        }
        let offset = mesh.positions.len() as u32;
        let first_triangle = mesh.triangles.len();
        for p in &surface.positions {
            let influences = if group == BODY || shell.is_some() {
                weights::blended_weights(*p, &body, voxel)
            } else {
                weights::rigid_weights(first.owner)
            };
            skin.push_vertex(influences);
            mesh.positions.push(*p);
        }
        mesh.triangles
            .extend(surface.triangles.iter().map(|t| t.map(|i| i + offset)));
        let robot_body = morphology == Morphology::Robot;
        mesh.parts.push(MeshPart {
            first_triangle,
            triangle_count: surface.triangles.len(),
            material: Some(usize::from(group != BODY && !robot_body || shell.is_some())),
        });
    }
    mesh.parts.retain(|p| p.triangle_count > 0);
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
    (mesh, skin)
}

fn skeleton(joints: &[PlannedJoint]) -> Skeleton {
    Skeleton {
        joints: joints
            .iter()
            .map(|j| Joint {
                name: j.name.clone(),
                parent: j.parent.map(|p| JointId(p as u32)),
                world_bind: Mat4::from_translation(j.position),
            })
            .collect(),
    }
}

/// A skin colour and an accessory colour, varied by seed.
fn materials(rng: &mut Rng, morphology: Morphology) -> Vec<Material> {
    let tint = |rng: &mut Rng, base: [f32; 3]| {
        let v = rng.range(0.75, 1.15);
        [base[0] * v, base[1] * v, base[2] * v, 1.0].map(|c| c.min(1.0))
    };
    let skin = match morphology {
        Morphology::Robot => [0.55, 0.58, 0.62],
        Morphology::Fish | Morphology::Tentacled => [0.35, 0.5, 0.7],
        Morphology::Bird => [0.75, 0.55, 0.3],
        Morphology::Hexapod | Morphology::Octopod => [0.3, 0.3, 0.28],
        Morphology::Snake => [0.35, 0.55, 0.25],
        _ => [0.75, 0.55, 0.45],
    };
    vec![
        Material {
            name: Some("skin".into()),
            base_color: tint(rng, skin),
            metallic: if morphology == Morphology::Robot {
                0.6
            } else {
                0.0
            },
            ..Material::default()
        },
        Material {
            name: Some("accessory".into()),
            base_color: tint(rng, [0.45, 0.3, 0.6]),
            ..Material::default()
        },
    ]
}
