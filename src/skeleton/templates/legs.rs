//! Where a standing body's legs join, and a carried humanoid's hips moved there: a template
//! bent onto a short-legged character (a mascot, a chibi) covers the lower body with its long
//! legs, and no surface fit tells a thigh from a belly, but the fork between the legs does.

use std::collections::HashSet;

use glam::{IVec2, Vec3};

use crate::rig::{HumanoidRole, Side, Skeleton, humanoid_roles, role_joint};
use crate::volume::Solid;

/// The soles are looked for in this share of the body's height above its lowest point.
const SOLES: f32 = 0.15;
/// Two pieces stand as feet only when the smaller is at least this share of the larger (a
/// tail tip or a dangling hand beside one foot is not the other foot).
const BALANCE: f32 = 0.3;
/// Legs that have not joined below this share of the height are not legs (a robe, a tail).
const HIGHEST: f32 = 0.8;

/// Legs are at least this share of the body's height from the soles to the fork.
const SHORTEST: f32 = 0.08;

/// Hips are moved only down, and only when that shortens the legs by more than this share.
/// On the 55 real humanoids in the training packs whose forks are found, the thighs the fork
/// implies lie from 0.24 of the leg below their artists' to 0.54 above (bulky suits, skirts
/// join high): a fork says little about legs as long as the template's, but legs it makes
/// much shorter are a mascot's or a chibi's, under a belly a template's thighs would fill.
const SHORTER: f32 = 0.3;

/// Heights along a body's up direction: its lowest point and where its legs join.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::skeleton) struct Fork {
    pub ground: f32,
    pub crotch: f32,
}

/// The fork of `solid`'s legs along `up`: from the two pieces it stands on in its lowest
/// slices, each followed up slice by slice (a voxel thick) through the piece it overlaps most,
/// the height at which both are the same piece. `None` for a body that does not stand on two
/// feet, or whose legs do not join low enough.
pub(in crate::skeleton) fn fork(solid: &Solid, up: Vec3) -> Option<Fork> {
    let up = up.normalize_or_zero();
    if up == Vec3::ZERO {
        return None;
    }
    // Across the slices along the grid's axes where up is one: a lattice seen askew leaves
    // gaps between its cells that split a leg into pieces.
    let side = [Vec3::X, Vec3::Y, Vec3::Z]
        .into_iter()
        .min_by(|a, b| a.dot(up).abs().total_cmp(&b.dot(up).abs()))
        .unwrap_or(Vec3::X);
    let across = (side - up * side.dot(up)).normalize();
    let along = up.cross(across);
    let grid = &solid.grid;
    let voxel = grid.voxel;
    let centres: Vec<Vec3> = (solid.solid.iter().enumerate())
        .filter(|(_, s)| **s)
        .map(|(i, _)| grid.center(grid.cell_of_index(i)))
        .collect();
    let heights: Vec<f32> = centres.iter().map(|p| p.dot(up)).collect();
    let ground = heights.iter().copied().fold(f32::INFINITY, f32::min);
    let top = heights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !top.is_finite() || top <= ground {
        return None;
    }
    let bands = ((top - ground) / voxel) as usize + 1;
    let mut cells: Vec<HashSet<IVec2>> = vec![HashSet::new(); bands];
    for (p, h) in centres.iter().zip(&heights) {
        // Rounded: a voxel layer's centres are a whole number of voxels apart along an axis.
        let band = (((h - ground) / voxel).round() as usize).min(bands - 1);
        // From the grid's corner, where a centre lies half a voxel into its cell: measured
        // from anywhere else float noise can put two centres in one cell and none in the next.
        let from = *p - grid.origin;
        let at = IVec2::new(
            (from.dot(across) / voxel).floor() as i32,
            (from.dot(along) / voxel).floor() as i32,
        );
        cells[band].insert(at);
    }
    // Each slice's pieces, found once: every start below follows the same slices up.
    let slices: Vec<Vec<HashSet<IVec2>>> = cells.iter().map(pieces).collect();
    let soles = ((SOLES * bands as f32) as usize).min(bands - 1);
    let highest = (HIGHEST * bands as f32) as usize;
    let shortest = (SHORTEST * bands as f32).ceil() as usize;
    // Two balanced pieces low down that stay apart for a leg's length: two pieces of one
    // foot (a toe and a heel) join within it, and the search starts a slice higher.
    (0..=soles).find_map(|start| {
        let mut pieces: Vec<&HashSet<IVec2>> = slices[start].iter().collect();
        pieces.sort_by_key(|p| std::cmp::Reverse(p.len()));
        if pieces.len() < 2 || (pieces[1].len() as f32) < BALANCE * pieces[0].len() as f32 {
            return None;
        }
        let feet = [pieces[0].clone(), pieces[1].clone()];
        let joined = join(&slices[..highest.min(bands)], start, feet)?;
        (joined >= start + shortest).then_some(Fork {
            ground,
            crotch: ground + joined as f32 * voxel,
        })
    })
}

/// The slice above `start` in which the pieces followed up from `feet` last became one:
/// legs that touch at the knees part again above them, a body does not. `None` if they
/// never join, or cannot be followed that far.
fn join(slices: &[Vec<HashSet<IVec2>>], start: usize, feet: [HashSet<IVec2>; 2]) -> Option<usize> {
    let mut legs = Some(feet);
    let mut joined: Option<(usize, HashSet<IVec2>)> = None;
    for (b, pieces) in slices.iter().enumerate().skip(start + 1) {
        // A slice between two voxel layers (an up askew of the grid) has nothing to follow.
        if pieces.is_empty() {
            continue;
        }
        if let Some(apart) = &legs {
            let next = [
                most_overlapping(pieces, &apart[0])?,
                most_overlapping(pieces, &apart[1])?,
            ];
            if next[0] == next[1] {
                joined = Some((b, pieces[next[0]].clone()));
                legs = None;
            } else {
                legs = Some(next.map(|i| pieces[i].clone()));
            }
        } else if let Some((at, body)) = &mut joined {
            // Two balanced pieces growing out of the joined one: it was knees touching.
            let mut parts: Vec<usize> = (0..pieces.len())
                .filter(|&i| overlap(&pieces[i], body) > 0)
                .collect();
            parts.sort_by_key(|&i| std::cmp::Reverse(pieces[i].len()));
            match parts[..] {
                [] => return Some(*at),
                [one, two, ..]
                    if pieces[two].len() as f32 >= BALANCE * pieces[one].len() as f32 =>
                {
                    legs = Some([pieces[one].clone(), pieces[two].clone()]);
                    joined = None;
                }
                [one, ..] => *body = pieces[one].clone(),
            }
        }
    }
    joined.map(|(at, _)| at)
}

/// The 8-connected pieces of a slice's cells, in the order of their first cells by x then
/// y: a set's own order changes from run to run, and ties between pieces must not.
fn pieces(cells: &HashSet<IVec2>) -> Vec<HashSet<IVec2>> {
    let mut order: Vec<IVec2> = cells.iter().copied().collect();
    order.sort_by_key(|c| (c.x, c.y));
    let mut seen: HashSet<IVec2> = HashSet::with_capacity(cells.len());
    let mut out = Vec::new();
    for start in order {
        if !seen.insert(start) {
            continue;
        }
        let mut piece = HashSet::new();
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            piece.insert(c);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let n = c + IVec2::new(dx, dy);
                    if cells.contains(&n) && seen.insert(n) {
                        stack.push(n);
                    }
                }
            }
        }
        out.push(piece);
    }
    out
}

/// The piece that overlaps `leg` (grown by a cell) most, if any does.
fn most_overlapping(pieces: &[HashSet<IVec2>], leg: &HashSet<IVec2>) -> Option<usize> {
    let (best, count) = (pieces.iter().enumerate())
        .map(|(i, p)| (i, overlap(p, leg)))
        .max_by_key(|&(_, n)| n)?;
    (count > 0).then_some(best)
}

/// How many cells of `piece` lie within a cell of `other`.
fn overlap(piece: &HashSet<IVec2>, other: &HashSet<IVec2>) -> usize {
    piece
        .iter()
        .filter(|c| {
            (-1..=1).any(|dx| (-1..=1).any(|dy| other.contains(&(**c + IVec2::new(dx, dy)))))
        })
        .count()
}

/// Moves a carried humanoid's hips and thighs along `up` to where its legs fork on the mesh
/// (`fork`), as high above the fork, for the length of its legs, as the template's thighs are
/// above its own (`template_fork`, its thighs in `template`, standing along +Y): the knees and
/// everything else on the legs keep their share of the way from the feet, the spine stretches
/// or shrinks to the neck, the arms and head stay. Only when that shortens the legs by more
/// than [`SHORTER`]; unchanged (and `false`) otherwise, or for a skeleton without named hips,
/// legs, feet and neck. Joints moved keep inside the mesh as `keep_inside` keeps them.
pub(in crate::skeleton) fn fit_hips(
    skeleton: &mut Skeleton,
    up: Vec3,
    fork: Fork,
    template: &Skeleton,
    template_fork: Fork,
    keep_inside: &dyn Fn(Vec3) -> Vec3,
) -> bool {
    let Some(legs) = Legs::of(skeleton) else {
        return false;
    };
    let Some(template_legs) = Legs::of(template) else {
        return false;
    };
    let up = up.normalize_or_zero();
    let height = |s: &Skeleton, j: usize, up: Vec3| s.joints[j].position().dot(up);
    // How far above its fork the template's thighs sit, as a share of its legs' length.
    let thighs = |s: &Skeleton, l: &Legs, up: Vec3| {
        0.5 * (height(s, l.thighs[0], up) + height(s, l.thighs[1], up))
    };
    let template_thighs = thighs(template, &template_legs, Vec3::Y);
    let above = (template_thighs - template_fork.crotch) / (template_thighs - template_fork.ground);
    if !above.is_finite() || above >= 1.0 {
        return false;
    }
    let target = (fork.crotch - above * fork.ground) / (1.0 - above);
    let now = thighs(skeleton, &legs, up);
    let shift = target - now;
    let feet = 0.5 * (height(skeleton, legs.feet[0], up) + height(skeleton, legs.feet[1], up));
    let shorter = shift < -SHORTER * (now - feet).abs();
    if !shorter {
        return false;
    }
    let neck = height(skeleton, legs.neck, up);
    let hips = height(skeleton, legs.hips, up);
    // Each joint's part, parents first: a leg, the spine from the hips to the neck, or
    // something else hanging off the hips (a tail, a skirt, an IK pole), which moves with them.
    let mut parts: Vec<Part> = Vec::with_capacity(skeleton.joints.len());
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let parent = joint.parent.map(|p| p.index());
        let part = if let Some(side) = legs.thighs.iter().position(|&t| t == j) {
            Part::Leg(side)
        } else if skeleton.is_at_or_below(legs.neck, j) && skeleton.is_at_or_below(j, legs.hips) {
            Part::Spine
        } else {
            match parent.map(|p| (p, parts[p])) {
                Some((_, Part::Leg(side))) => Part::Leg(side),
                Some((p, Part::Spine)) if p == legs.hips => Part::Hanging,
                Some((_, Part::Hanging)) => Part::Hanging,
                _ => Part::Still,
            }
        };
        parts.push(part);
    }
    let share = |h: f32, from: f32, to: f32| {
        let s = (h - from) / (to - from);
        if s.is_finite() {
            s.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let moves: Vec<f32> = (parts.iter().enumerate())
        .map(|(j, part)| {
            let h = height(skeleton, j, up);
            match *part {
                // Along a leg: the share of the way from its foot to its thigh.
                Part::Leg(side) => {
                    let foot = height(skeleton, legs.feet[side], up);
                    let thigh = height(skeleton, legs.thighs[side], up);
                    shift * share(h, foot, thigh)
                }
                // The spine from the hips (moved as much as they are) to the neck (not moved).
                Part::Spine => shift * share(h, neck, hips),
                Part::Hanging => shift,
                Part::Still => 0.0,
            }
        })
        .collect();
    for (joint, m) in skeleton.joints.iter_mut().zip(moves) {
        if m != 0.0 {
            let p = keep_inside(joint.position() + up * m);
            joint.world_bind.w_axis = p.extend(1.0);
        }
    }
    true
}

/// What a joint moves with in [`fit_hips`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum Part {
    Leg(usize),
    Spine,
    Hanging,
    Still,
}

/// Whether `skeleton` names the joints [`fit_hips`] moves by.
pub(in crate::skeleton) fn has_legs(skeleton: &Skeleton) -> bool {
    Legs::of(skeleton).is_some()
}

/// The joints [`fit_hips`] moves by.
struct Legs {
    hips: usize,
    neck: usize,
    thighs: [usize; 2],
    feet: [usize; 2],
}

impl Legs {
    fn of(skeleton: &Skeleton) -> Option<Self> {
        let roles = humanoid_roles(skeleton);
        let find = |role| role_joint(&roles, role);
        Some(Self {
            hips: find(HumanoidRole::Hips)?,
            neck: find(HumanoidRole::Neck)?,
            thighs: [
                find(HumanoidRole::UpperLeg(Side::Left))?,
                find(HumanoidRole::UpperLeg(Side::Right))?,
            ],
            feet: [
                find(HumanoidRole::Foot(Side::Left))?,
                find(HumanoidRole::Foot(Side::Right))?,
            ],
        })
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Quat};

    use super::*;
    use crate::mesh::boxes;
    use crate::rig::{Joint, JointId};
    use crate::volume::voxelize;

    /// A body on two legs of `legs` height, the legs `gap` apart, optionally bridged at the
    /// knees, each box turned by `turn`.
    fn standing(legs: f32, gap: f32, knees: bool, turn: Quat) -> Solid {
        let b = |lo: [f32; 3], hi: [f32; 3]| (turn * Vec3::from(lo), turn * Vec3::from(hi));
        let half = 0.5 * gap;
        let mut parts = vec![
            b([-half - 0.2, 0.0, -0.1], [-half, legs, 0.1]),
            b([half, 0.0, -0.1], [half + 0.2, legs, 0.1]),
            b([-half - 0.25, legs, -0.15], [half + 0.25, 1.0, 0.15]),
        ];
        if knees {
            parts.push(b(
                [-half, 0.5 * legs, -0.05],
                [half, 0.5 * legs + 0.05, 0.05],
            ));
        }
        // Boxes turned a quarter keep their corners' order only as a set: sort each per axis.
        let parts: Vec<(Vec3, Vec3)> = parts.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        let mesh = boxes(&parts, 0);
        voxelize(&mesh.positions, &mesh.triangles, 64)
    }

    fn close(a: f32, b: f32, solid: &Solid) -> bool {
        (a - b).abs() <= 2.0 * solid.grid.voxel
    }

    #[test]
    fn a_body_on_two_legs_forks_where_they_join() {
        for legs in [0.2, 0.45] {
            let solid = standing(legs, 0.2, false, Quat::IDENTITY);
            let f = fork(&solid, Vec3::Y).expect("two legs");
            assert!(close(f.ground, 0.0, &solid), "{legs}: ground {f:?}");
            assert!(close(f.crotch, legs, &solid), "{legs}: crotch {f:?}");
        }
    }

    #[test]
    fn knees_touching_do_not_end_the_legs() {
        let solid = standing(0.45, 0.1, true, Quat::IDENTITY);
        let f = fork(&solid, Vec3::Y).expect("two legs");
        assert!(close(f.crotch, 0.45, &solid), "crotch {f:?}");
    }

    #[test]
    fn the_fork_follows_the_up_it_is_given() {
        let turn = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        let solid = standing(0.3, 0.2, false, turn);
        let up = turn * Vec3::Y;
        let f = fork(&solid, up).expect("two legs along +Z");
        assert!(close(f.crotch - f.ground, 0.3, &solid), "{f:?}");
        // Seen along another axis the same body stands on no two feet.
        assert_eq!(fork(&solid, Vec3::X), None);
    }

    #[test]
    fn one_column_or_a_tail_beside_a_foot_is_not_two_legs() {
        let column = boxes(&[(Vec3::new(-0.2, 0.0, -0.2), Vec3::new(0.2, 1.0, 0.2))], 0);
        let solid = voxelize(&column.positions, &column.triangles, 64);
        assert_eq!(fork(&solid, Vec3::Y), None);
        // A thin tail tip touching the ground beside a wide foot.
        let tailed = boxes(
            &[
                (Vec3::new(-0.3, 0.0, -0.3), Vec3::new(0.3, 1.0, 0.3)),
                (Vec3::new(0.5, 0.0, -0.03), Vec3::new(0.56, 0.3, 0.03)),
                (Vec3::new(0.3, 0.3, -0.03), Vec3::new(0.56, 0.36, 0.03)),
            ],
            0,
        );
        let solid = voxelize(&tailed.positions, &tailed.triangles, 64);
        assert_eq!(fork(&solid, Vec3::Y), None);
    }

    /// A stick figure standing along +Y with its thighs at `thighs`.
    fn figure(thighs: f32) -> Skeleton {
        let mut joints: Vec<Joint> = Vec::new();
        let mut add = |name: &str, parent: Option<u32>, at: [f32; 3]| {
            joints.push(Joint {
                name: name.into(),
                parent: parent.map(JointId),
                world_bind: Mat4::from_translation(Vec3::from(at)),
            });
        };
        add("Hips", None, [0.0, thighs, 0.0]);
        add("Spine", Some(0), [0.0, 0.7, 0.0]);
        add("Neck", Some(1), [0.0, 0.9, 0.0]);
        add("Head", Some(2), [0.0, 1.0, 0.0]);
        add("LeftArm", Some(1), [0.3, 0.85, 0.0]);
        add("LeftUpLeg", Some(0), [0.1, thighs, 0.0]);
        add("LeftLeg", Some(5), [0.1, 0.25, 0.0]);
        add("LeftFoot", Some(6), [0.1, 0.02, 0.0]);
        add("RightUpLeg", Some(0), [-0.1, thighs, 0.0]);
        add("RightLeg", Some(8), [-0.1, 0.25, 0.0]);
        add("RightFoot", Some(9), [-0.1, 0.02, 0.0]);
        add("Tail", Some(0), [0.0, thighs, -0.2]);
        Skeleton { joints }
    }

    /// Fits `fitted` (a copy of [`template`]'s figure) to legs forking at `crotch` above the ground.
    fn fit_to(fitted: &mut Skeleton, crotch: f32) -> bool {
        let (template, template_fork) = template();
        let fork = Fork {
            ground: 0.0,
            crotch,
        };
        fit_hips(fitted, Vec3::Y, fork, &template, template_fork, &|p| p)
    }

    /// The stick figure standing with its thighs at 0.5, its legs forking at 0.45.
    fn template() -> (Skeleton, Fork) {
        let fork = Fork {
            ground: 0.0,
            crotch: 0.45,
        };
        (figure(0.5), fork)
    }

    #[test]
    fn hips_move_to_the_fork_and_the_legs_and_spine_follow() {
        let (template, _) = template();
        let mut fitted = template.clone();
        // The mesh's legs fork at 0.2: its thighs belong a tenth of the legs above that.
        assert!(fit_to(&mut fitted, 0.2));
        let y = |name: &str| {
            let j = fitted.joints.iter().find(|j| j.name == name).unwrap();
            j.position().y
        };
        let thighs = 0.2 / 0.9;
        assert!((y("Hips") - thighs).abs() < 1e-4, "hips {}", y("Hips"));
        assert!((y("LeftUpLeg") - thighs).abs() < 1e-4);
        assert!(
            (y("Tail") - thighs).abs() < 1e-4,
            "the tail hangs off the hips"
        );
        // The knee keeps its share of the way up the leg, the spine halfway to the neck.
        let knee = 0.02 + (0.25 - 0.02) / (0.5 - 0.02) * (thighs - 0.02);
        assert!(
            (y("RightLeg") - knee).abs() < 1e-4,
            "knee {}",
            y("RightLeg")
        );
        assert!((y("Spine") - 0.5 * (0.9 + thighs)).abs() < 1e-4);
        for still in ["Neck", "Head", "LeftArm", "LeftFoot"] {
            let before = template.joints.iter().find(|j| j.name == still).unwrap();
            assert!(
                (y(still) - before.position().y).abs() < 1e-5,
                "{still} moved"
            );
        }
    }

    #[test]
    fn legs_like_the_templates_keep_its_hips() {
        let (template, _) = template();
        let mut fitted = template.clone();
        // A fork a little lower, or higher (a bulky suit, a skirt), says little about legs.
        for crotch in [0.42, 0.6, 0.8] {
            assert!(!fit_to(&mut fitted, crotch));
            assert_eq!(fitted, template);
        }
    }
}
