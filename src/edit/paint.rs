//! Weight painting: a round brush that gives one joint more or less of the vertices under it,
//! or evens out their weights, while every vertex's weights keep summing to one. An X-mirror
//! paints the joint on the other side of the body the same way.

use std::collections::BTreeMap;

use glam::Vec3;

use super::{EditError, MirrorPlane};
use crate::mesh::Mesh;
use crate::rig::{Influence, JointId, Skeleton, SkinWeights, top_influences};

/// Most joints a painted vertex keeps; the export narrows them to 4 or 8 again.
pub const MAX_PAINTED_INFLUENCES: usize = 8;

/// What a dab of the brush does to the vertices under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BrushMode {
    /// The joint takes more of each vertex, up to all of it.
    Add,
    /// The joint gives up some of each vertex to the other joints moving it (or to its parent
    /// where it was the only one).
    Subtract,
    /// The joint's share moves toward the average of the neighbouring vertices' shares.
    Smooth,
    /// Every joint's share moves toward the neighbours' average: softens seams between joints.
    Blur,
}

impl BrushMode {
    /// Parses the page's and the CLI's names: add, subtract, smooth, blur.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "add" => Some(Self::Add),
            "subtract" => Some(Self::Subtract),
            "smooth" => Some(Self::Smooth),
            "blur" => Some(Self::Blur),
            _ => None,
        }
    }
}

/// One dab of the brush.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Brush {
    /// The joint painted.
    pub joint: JointId,
    pub mode: BrushMode,
    /// Where the brush touches the surface, in the mesh's space.
    pub center: Vec3,
    /// Vertices farther than this from `center` are untouched.
    pub radius: f32,
    /// How much one dab changes a vertex under the brush's centre, 0 to 1; it falls off
    /// smoothly to nothing at the rim.
    pub strength: f32,
    /// Paint the mirror image too: across the body's middle ([`MirrorPlane`]), on the joint's
    /// twin there.
    pub mirror: bool,
}

impl Brush {
    fn check(&self, skeleton: &Skeleton) -> Result<(), EditError> {
        if self.joint.index() >= skeleton.joints.len() {
            return Err(EditError::NoSuchJoint(self.joint.0));
        }
        if !self.center.is_finite() {
            return Err(EditError::NotFinite);
        }
        if !(self.radius.is_finite() && self.radius > 0.0) {
            return Err(EditError::Brush(format!(
                "the radius must be a positive distance, not {}",
                self.radius
            )));
        }
        if !(self.strength.is_finite() && (0.0..=1.0).contains(&self.strength)) {
            return Err(EditError::Brush(format!(
                "the strength must be between 0 and 1, not {}",
                self.strength
            )));
        }
        Ok(())
    }

    /// The same dab on the other side of the body, on `joint`'s twin there (itself when it
    /// has none).
    fn mirrored(&self, skeleton: &Skeleton, plane: &MirrorPlane) -> Brush {
        Brush {
            joint: plane.twin(skeleton, self.joint).unwrap_or(self.joint),
            center: plane.reflect(self.center),
            mirror: false,
            ..*self
        }
    }
}

/// Paints one dab (and its mirror image) into `skin`; returns how many vertices changed.
///
/// # Errors
/// When the joint does not exist, the brush is not finite, the radius is not positive, the
/// strength is outside 0..=1, or the weights do not cover the mesh.
pub fn paint(
    mesh: &Mesh,
    skeleton: &Skeleton,
    skin: &mut SkinWeights,
    brush: &Brush,
) -> Result<usize, EditError> {
    brush.check(skeleton)?;
    if skin.vertex_count() != mesh.positions.len() {
        return Err(EditError::Brush(format!(
            "the skin covers {} vertices but the mesh has {}",
            skin.vertex_count(),
            mesh.positions.len()
        )));
    }
    let mut changed = dab(mesh, skeleton, skin, brush);
    if brush.mirror {
        let other = brush.mirrored(skeleton, &MirrorPlane::of(mesh));
        changed += dab(mesh, skeleton, skin, &other);
    }
    Ok(changed)
}

/// How strongly a dab acts at `distance` from its centre: `strength` there, falling smoothly
/// to zero at the rim.
fn falloff(distance: f32, radius: f32, strength: f32) -> f32 {
    let t = (distance / radius).clamp(0.0, 1.0);
    let s = 1.0 - t * t;
    strength * s * s
}

fn dab(mesh: &Mesh, skeleton: &Skeleton, skin: &mut SkinWeights, brush: &Brush) -> usize {
    let under: BTreeMap<usize, f32> = mesh
        .positions
        .iter()
        .enumerate()
        .filter_map(|(v, p)| {
            let d = p.distance(brush.center);
            (d < brush.radius).then(|| (v, falloff(d, brush.radius, brush.strength)))
        })
        .filter(|&(_, amount)| amount > 0.0)
        .collect();
    if under.is_empty() {
        return 0;
    }
    let neighbours = match brush.mode {
        BrushMode::Smooth | BrushMode::Blur => neighbours_of(mesh, &under),
        BrushMode::Add | BrushMode::Subtract => BTreeMap::new(),
    };
    let joint = brush.joint;
    let fallback = skeleton.joints[joint.index()].parent;
    let mut painted: BTreeMap<usize, Vec<Influence>> = BTreeMap::new();
    for (&v, &amount) in &under {
        let old = skin.influences(v);
        let share = share_of(old, joint);
        let new = match brush.mode {
            BrushMode::Add => with_share(old, joint, share + amount * (1.0 - share), fallback),
            BrushMode::Subtract => with_share(old, joint, share * (1.0 - amount), fallback),
            BrushMode::Smooth => {
                let around = &neighbours[&v];
                let mean = around
                    .iter()
                    .map(|&n| share_of(skin.influences(n), joint))
                    .sum::<f32>()
                    / around.len().max(1) as f32;
                let target = if around.is_empty() { share } else { mean };
                with_share(old, joint, share + amount * (target - share), fallback)
            }
            BrushMode::Blur => blurred(skin, v, &neighbours[&v], amount),
        };
        if new.as_slice() != old {
            painted.insert(v, new);
        }
    }
    let changed = painted.len();
    if changed > 0 {
        let mut next = SkinWeights::new();
        for v in 0..skin.vertex_count() {
            match painted.remove(&v) {
                Some(influences) => next.push_vertex(influences),
                None => next.push_vertex(skin.influences(v).iter().copied()),
            }
        }
        *skin = next;
    }
    changed
}

/// The share of a vertex's weight that `joint` has.
fn share_of(influences: &[Influence], joint: JointId) -> f32 {
    influences
        .iter()
        .filter(|i| i.joint == joint)
        .map(|i| i.weight)
        .sum()
}

/// The vertex's weights with `joint` holding `share` (clamped to 0..=1) and the other joints
/// scaled to fill the rest; where `joint` was the only one, the rest goes to `fallback` (its
/// parent), and a root joint keeps all of it.
fn with_share(
    influences: &[Influence],
    joint: JointId,
    share: f32,
    fallback: Option<JointId>,
) -> Vec<Influence> {
    let share = share.clamp(0.0, 1.0);
    let others: f32 = influences
        .iter()
        .filter(|i| i.joint != joint)
        .map(|i| i.weight)
        .sum();
    let mut out: Vec<Influence> = Vec::with_capacity(influences.len() + 1);
    if others > 1e-6 {
        let scale = (1.0 - share) / others;
        out.extend(
            influences
                .iter()
                .filter(|i| i.joint != joint)
                .map(|i| Influence {
                    joint: i.joint,
                    weight: i.weight * scale,
                }),
        );
        out.push(Influence {
            joint,
            weight: share,
        });
    } else if let Some(parent) = fallback {
        out.push(Influence {
            joint,
            weight: share,
        });
        out.push(Influence {
            joint: parent,
            weight: 1.0 - share,
        });
    } else {
        out.push(Influence { joint, weight: 1.0 });
    }
    tidy(out)
}

/// Every joint's share moved by `amount` toward the mean over the vertex's neighbours.
fn blurred(skin: &SkinWeights, v: usize, around: &[usize], amount: f32) -> Vec<Influence> {
    let old = skin.influences(v);
    if around.is_empty() {
        return old.to_vec();
    }
    let mut sums: BTreeMap<JointId, f32> = BTreeMap::new();
    for &n in around {
        for i in skin.influences(n) {
            *sums.entry(i.joint).or_default() += i.weight / around.len() as f32;
        }
    }
    for i in old {
        sums.entry(i.joint).or_default();
    }
    let out = sums
        .into_iter()
        .map(|(joint, mean)| Influence {
            joint,
            weight: (1.0 - amount) * share_of(old, joint) + amount * mean,
        })
        .collect();
    tidy(out)
}

/// Drops influences too small to matter, keeps the largest few, and normalises.
fn tidy(influences: Vec<Influence>) -> Vec<Influence> {
    let kept: Vec<Influence> = influences.into_iter().filter(|i| i.weight > 1e-4).collect();
    top_influences(&kept, MAX_PAINTED_INFLUENCES)
}

/// The vertices sharing a triangle with each vertex under the brush.
fn neighbours_of(mesh: &Mesh, under: &BTreeMap<usize, f32>) -> BTreeMap<usize, Vec<usize>> {
    let mut around: BTreeMap<usize, Vec<usize>> = under.keys().map(|&v| (v, Vec::new())).collect();
    for t in &mesh.triangles {
        for (k, &a) in t.iter().enumerate() {
            if let Some(list) = around.get_mut(&(a as usize)) {
                list.extend([t[(k + 1) % 3] as usize, t[(k + 2) % 3] as usize]);
            }
        }
    }
    for list in around.values_mut() {
        list.sort_unstable();
        list.dedup();
    }
    around
}
