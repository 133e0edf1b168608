//! Body plans: one per morphology, each laying down a skeleton with random proportions and the
//! flesh around it. Y is up, the creature faces +Z, its left is +X, sizes are in metres.

use std::f32::consts::{FRAC_PI_2, PI};

use glam::{Quat, Vec3};

use super::builder::{Build, Builder};
use super::parts::{
    Neck, arm, curl, hat, leg, neck_and_head, pair_on_head, prop, side_name, tail, tunic,
};

/// The kinds of creature the generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Morphology {
    Biped,
    Quadruped,
    Hexapod,
    Octopod,
    Bird,
    Fish,
    Snake,
    Tentacled,
    MultiHeaded,
    Robot,
    /// Two legs under a level body, a long tail and small arms (kaiju, theropods).
    TailedBiped,
    /// A quadruped with a pair of wings on its shoulders.
    Dragon,
}

impl Morphology {
    pub const ALL: [Morphology; 10] = [
        Morphology::Biped,
        Morphology::Quadruped,
        Morphology::Hexapod,
        Morphology::Octopod,
        Morphology::Bird,
        Morphology::Fish,
        Morphology::Snake,
        Morphology::Tentacled,
        Morphology::MultiHeaded,
        Morphology::Robot,
    ];

    /// Every morphology: [`Morphology::ALL`] and the body plans added after it. `ALL` is what
    /// [`super::generate`] draws from when none is asked for, kept as it was so that every
    /// seed still makes the creature the trained networks saw.
    pub const EVERY: [Morphology; 12] = [
        Morphology::Biped,
        Morphology::Quadruped,
        Morphology::Hexapod,
        Morphology::Octopod,
        Morphology::Bird,
        Morphology::Fish,
        Morphology::Snake,
        Morphology::Tentacled,
        Morphology::MultiHeaded,
        Morphology::Robot,
        Morphology::TailedBiped,
        Morphology::Dragon,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Morphology::Biped => "biped",
            Morphology::Quadruped => "quadruped",
            Morphology::Hexapod => "hexapod",
            Morphology::Octopod => "octopod",
            Morphology::Bird => "bird",
            Morphology::Fish => "fish",
            Morphology::Snake => "snake",
            Morphology::Tentacled => "tentacled",
            Morphology::MultiHeaded => "multiheaded",
            Morphology::Robot => "robot",
            Morphology::TailedBiped => "tailed-biped",
            Morphology::Dragon => "dragon",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::EVERY.into_iter().find(|m| m.name() == name)
    }

    pub(super) fn lay_out(self, b: &mut Builder) {
        match self {
            Morphology::Biped => biped(b, 1),
            Morphology::Quadruped => {
                quadruped(b, 1);
            }
            Morphology::Hexapod => arthropod(b, 3),
            Morphology::Octopod => arthropod(b, 4),
            Morphology::Bird => bird(b),
            Morphology::Fish => fish(b),
            Morphology::Snake => snake(b),
            Morphology::Tentacled => tentacled(b),
            Morphology::MultiHeaded => {
                let heads = if b.rng.unit() < 0.7 { 2 } else { 3 };
                if b.rng.unit() < 0.5 {
                    biped(b, heads)
                } else {
                    quadruped(b, heads);
                }
            }
            Morphology::Robot => {
                if b.rng.unit() < 0.6 {
                    biped(b, 1)
                } else {
                    quadruped(b, 1);
                }
            }
            Morphology::TailedBiped => tailed_biped(b),
            Morphology::Dragon => dragon(b),
        }
    }

    /// How flesh goes on this creature's bones.
    pub(super) fn build(self) -> Build {
        match self {
            Morphology::Robot => Build::Robot,
            _ => Build::Organic,
        }
    }
}

/// Heads spread sideways when there are several, on necks fanning out from one base.
fn heads(b: &mut Builder, parent: usize, neck: Neck, count: usize) -> Vec<[usize; 3]> {
    (0..count)
        .map(|k| {
            let spread = if count == 1 {
                0.0
            } else {
                (k as f32 / (count - 1) as f32 - 0.5) * 1.4
            };
            let dir = (neck.dir + Vec3::X * spread).normalize();
            let suffix = if count == 1 {
                String::new()
            } else {
                format!("_{}", k + 1)
            };
            neck_and_head(b, &suffix, parent, &Neck { dir, ..neck })
        })
        .collect()
}

fn biped(b: &mut Builder, head_count: usize) {
    let height = b.rng.range(1.2, 2.1);
    let leg_length = height * b.rng.range(0.42, 0.52);
    let torso = height * b.rng.range(0.26, 0.32);
    let r = height * b.rng.range(0.07, 0.1);
    let hip_width = r * b.rng.range(0.8, 1.1);
    let hips = b.joint("hips", None, Vec3::new(0.0, leg_length, 0.0));
    let spine = b.joint(
        "spine",
        Some(hips),
        Vec3::new(0.0, leg_length + torso * 0.4, 0.0),
    );
    let chest = b.joint(
        "chest",
        Some(spine),
        Vec3::new(0.0, leg_length + torso * 0.75, 0.0),
    );
    let neck_base = Vec3::new(0.0, leg_length + torso, 0.0);
    let (waist, ribs) = (r * b.rng.range(0.85, 1.1), r * b.rng.range(1.0, 1.25));
    b.bone(hips, spine, r * 1.05, waist);
    b.bone(spine, chest, r, ribs);
    b.cone(chest, 0, b.position(chest), neck_base, r * 1.1, r * 0.6);
    let size = height * b.rng.range(0.06, 0.08);
    let neck = Neck {
        base: neck_base,
        dir: Vec3::Y,
        length: height * 0.06,
        radius: r * 0.4,
        head: size,
    };
    let heads = heads(b, chest, neck, head_count);
    let arm_length = height * b.rng.range(0.36, 0.44);
    let drop = b.rng.range(0.0, 0.8);
    let shoulder_y = neck_base.y - r * 0.5;
    let mut hands = Vec::new();
    for side in [1.0f32, -1.0] {
        let shoulder = Vec3::new(side * r * 1.6, shoulder_y, 0.0);
        let joints = arm(b, chest, shoulder, arm_length, r * 0.45, drop);
        hands.push((joints[3], joints[4]));
        let hip = Vec3::new(side * hip_width, leg_length - r * 0.3, 0.0);
        b.cone(hips, 0, b.position(hips), hip, r, r * 0.7);
        leg(b, "leg", hips, hip, Vec3::Z, 1.0, r * 0.65);
    }
    extras(b, hips, &heads, size, height);
    if b.rng.unit() < 0.35 {
        let (hand, end) = hands[1];
        let length = height * b.rng.range(0.4, 0.7);
        prop(b, hand, end, length);
    }
    if b.rng.unit() < 0.3 {
        let owners = [hips, spine, chest];
        tunic(b, &owners, r * 0.15, leg_length * 0.8, shoulder_y);
    }
}

/// What a body plan built on a quadruped needs of it.
struct Trunk {
    chest: usize,
    length: f32,
    r: f32,
}

fn quadruped(b: &mut Builder, head_count: usize) -> Trunk {
    let length = b.rng.range(0.6, 2.0);
    let leg_length = length * b.rng.range(0.4, 0.75);
    let r = length * b.rng.range(0.12, 0.2);
    let hips = b.joint("hips", None, Vec3::new(0.0, leg_length, -length * 0.5));
    let spine = b.joint(
        "spine",
        Some(hips),
        Vec3::new(0.0, leg_length + r * 0.1, 0.0),
    );
    let chest = b.joint(
        "chest",
        Some(spine),
        Vec3::new(0.0, leg_length, length * 0.45),
    );
    let neck_base = Vec3::new(0.0, leg_length + r * 0.4, length * 0.6);
    let (belly, ribs) = (r * b.rng.range(1.0, 1.2), r * b.rng.range(0.9, 1.15));
    b.bone(hips, spine, r, belly);
    b.bone(spine, chest, r, ribs);
    b.cone(chest, 0, b.position(chest), neck_base, r, r * 0.6);
    let size = r * b.rng.range(0.6, 0.9);
    let up = Vec3::new(0.0, b.rng.range(0.4, 1.2), 1.0).normalize();
    let neck = length * b.rng.range(0.2, 0.4);
    let neck = Neck {
        base: neck_base,
        dir: up,
        length: neck,
        radius: r * 0.5,
        head: size,
    };
    let heads = heads(b, chest, neck, head_count);
    let width = r * 0.7;
    for side in [1.0f32, -1.0] {
        let front = Vec3::new(side * width, leg_length - r * 0.4, length * 0.45);
        let back = Vec3::new(side * width, leg_length - r * 0.4, -length * 0.45);
        for (name, parent, at, knee) in [("front", chest, front, 1.0), ("hind", hips, back, -1.0)] {
            b.cone(parent, 0, b.position(parent), at, r * 0.8, r * 0.5);
            leg(b, name, parent, at, Vec3::Z, knee, r * 0.45);
        }
    }
    extras(b, hips, &heads, size, length);
    Trunk { chest, length, r }
}

/// Theropods and kaiju: two legs under a body held between level and upright, balanced by a
/// long tail, with small arms.
fn tailed_biped(b: &mut Builder) {
    let length = b.rng.range(1.0, 3.0);
    let leg_length = length * b.rng.range(0.35, 0.6);
    let r = length * b.rng.range(0.12, 0.18);
    let body = Vec3::new(0.0, b.rng.range(0.0, 0.8), 1.0).normalize();
    let hips = b.joint("hips", None, Vec3::new(0.0, leg_length + r * 0.3, 0.0));
    let spine = b.joint("spine", Some(hips), b.position(hips) + body * length * 0.3);
    let chest = b.joint("chest", Some(spine), b.position(hips) + body * length * 0.6);
    b.bone(hips, spine, r * 1.1, r);
    b.bone(spine, chest, r, r * 0.85);
    let size = r * b.rng.range(0.6, 0.9);
    let neck = Neck {
        base: b.position(chest) + body * r * 0.5,
        dir: Vec3::new(0.0, b.rng.range(0.3, 1.0), 1.0),
        length: length * b.rng.range(0.12, 0.3),
        radius: r * 0.55,
        head: size,
    };
    heads(b, chest, neck, 1);
    let arm_length = length * b.rng.range(0.15, 0.35);
    let drop = b.rng.range(0.6, 1.2);
    for side in [1.0f32, -1.0] {
        let shoulder = b.position(chest) + Vec3::new(side * r * 0.9, -r * 0.3, 0.0);
        arm(b, chest, shoulder, arm_length, r * 0.22, drop);
        let hip = Vec3::new(side * r * 0.7, leg_length, 0.0);
        b.cone(hips, 0, b.position(hips), hip, r, r * 0.7);
        leg(b, "leg", hips, hip, Vec3::Z, -1.0, r * 0.6);
    }
    let n = 6 + (b.rng.unit() * 6.0) as usize;
    let reach = length * b.rng.range(0.8, 1.6);
    let start = b.position(hips) - Vec3::Z * r * 0.5;
    let dir = Vec3::new(0.0, b.rng.range(-0.5, 0.1), -1.0);
    let turn = Quat::from_axis_angle(Vec3::X, b.rng.range(-0.08, 0.08));
    let points = curl(start, dir, n, reach / n as f32, turn);
    tail(b, "tail", hips, &points, r * 0.9, r * 0.15);
}

/// Dragons: a quadruped with membrane wings on its shoulders.
fn dragon(b: &mut Builder) {
    let Trunk { chest, length, r } = quadruped(b, 1);
    let span = length * b.rng.range(0.8, 1.6);
    let chord = length * b.rng.range(0.3, 0.5);
    let lift = b.rng.range(-0.7, 0.1);
    for side in [1.0f32, -1.0] {
        let shoulder = b.position(chest) + Vec3::new(side * r * 0.8, r * 0.7, 0.0);
        let joints = arm(b, chest, shoulder, span, r * 0.2, lift);
        // The membrane: a thin blade trailing behind each wing bone.
        wing_blades(b, &joints, chord, r * 0.05);
    }
}

/// A blade `thickness` thick and `chord` deep trailing behind each bone of a wing (`joints`
/// from the shoulder out), bound to the bone's first joint.
fn wing_blades(b: &mut Builder, joints: &[usize], chord: f32, thickness: f32) {
    for pair in joints[1..].windows(2) {
        let (a, c) = (b.position(pair[0]), b.position(pair[1]));
        let mid = (a + c) * 0.5 - Vec3::Z * chord * 0.4;
        let rotation = Quat::from_rotation_arc(Vec3::X, (c - a).normalize());
        let half = (c - a).length() * 0.55;
        b.blob(
            pair[0],
            mid,
            Vec3::new(half, thickness, chord * 0.5),
            rotation,
        );
    }
}

/// Optional tail, ears, horns and hat: what separates a dog from a goat from a dragon.
fn extras(b: &mut Builder, hips: usize, heads: &[[usize; 3]], size: f32, scale: f32) {
    if b.rng.unit() < 0.5 {
        let n = 3 + (b.rng.unit() * 4.0) as usize;
        let start = b.position(hips) - Vec3::Z * scale * 0.05;
        let dir = Vec3::new(0.0, b.rng.range(-0.6, 0.4), -1.0);
        let turn = Quat::from_axis_angle(Vec3::X, b.rng.range(-0.3, 0.3));
        let points = curl(start, dir, n, scale * b.rng.range(0.06, 0.12), turn);
        let r = size * b.rng.range(0.3, 0.6);
        tail(b, "tail", hips, &points, r, r * 0.3);
    }
    for &[_, head, end] in heads {
        if b.rng.unit() < 0.4 {
            let length = size * b.rng.range(0.8, 1.6);
            pair_on_head(b, "ear", head, size, Vec3::new(0.7, 1.0, -0.2), length);
        }
        if b.rng.unit() < 0.3 {
            let length = size * b.rng.range(1.0, 2.0);
            pair_on_head(b, "horn", head, size, Vec3::new(0.4, 1.0, 0.6), length);
        }
        if b.rng.unit() < 0.15 {
            hat(b, head, end, size);
        }
    }
}

/// Insects and spiders: a thorax with `pairs` pairs of legs, a head and an abdomen.
fn arthropod(b: &mut Builder, pairs: usize) {
    let length = b.rng.range(0.3, 1.5);
    let height = length * b.rng.range(0.3, 0.6);
    let r = length * b.rng.range(0.12, 0.2);
    let thorax = b.joint("thorax", None, Vec3::new(0.0, height, 0.0));
    let abdomen = b.joint("abdomen", Some(thorax), Vec3::new(0.0, height, -r * 1.1));
    let abdomen_end = b.joint(
        "abdomen_end",
        Some(abdomen),
        Vec3::new(0.0, height * 1.05, -r * 1.1 - length * 0.45),
    );
    b.blob(
        thorax,
        Vec3::new(0.0, height, 0.0),
        Vec3::new(r, r * 0.8, r * 1.2),
        Quat::IDENTITY,
    );
    let belly = (b.position(abdomen) + b.position(abdomen_end)) * 0.5;
    let along = (b.position(abdomen_end) - b.position(abdomen)).length() * 0.55;
    b.blob(abdomen, belly, Vec3::new(r * 1.2, r, along), Quat::IDENTITY);
    let head_at = Vec3::new(0.0, height, r * 1.1);
    let head = b.joint("head", Some(thorax), head_at);
    let head_end = b.joint("head_end", Some(head), head_at + Vec3::Z * r * 1.2);
    b.bone(head, head_end, r * 0.6, r * 0.35);
    if b.rng.unit() < 0.5 {
        pair_on_head(
            b,
            "antenna",
            head,
            r * 0.6,
            Vec3::new(0.4, 0.6, 1.0),
            length * 0.4,
        );
    }
    let reach = length * b.rng.range(0.5, 0.9);
    let leg_r = r * b.rng.range(0.15, 0.25);
    for k in 0..pairs {
        let z = r * (0.8 - 1.6 * k as f32 / (pairs - 1) as f32);
        let fan = (k as f32 / (pairs - 1) as f32 - 0.5) * 1.2;
        for side in [1.0f32, -1.0] {
            let out = Quat::from_rotation_y(-fan * side) * Vec3::X * side;
            let base = Vec3::new(side * r * 0.6, height, z);
            let knee = base + out * reach * 0.4 + Vec3::Y * height * 0.35;
            let foot = knee + out * reach * 0.5 - Vec3::Y * (knee.y - leg_r);
            let tip = foot + out * reach * 0.1;
            let name = format!("leg{}", k + 1);
            let s = side_name(side);
            let names: Vec<String> = (1..=4).map(|i| format!("{name}_{i}{s}")).collect();
            let radii = [1.0, 0.8, 0.6, 0.4].map(|f| leg_r * f);
            b.limb(thorax, &names, &[base, knee, foot, tip], &radii);
        }
    }
}

fn bird(b: &mut Builder) {
    let length = b.rng.range(0.3, 1.2);
    let leg_length = length * b.rng.range(0.25, 0.5);
    let r = length * b.rng.range(0.18, 0.25);
    let hips = b.joint(
        "hips",
        None,
        Vec3::new(0.0, leg_length + r * 0.5, -length * 0.15),
    );
    let chest = b.joint(
        "chest",
        Some(hips),
        Vec3::new(0.0, leg_length + r * 0.8, length * 0.2),
    );
    let body = (b.position(hips) + b.position(chest)) * 0.5;
    let tilt = Quat::from_rotation_arc(Vec3::Z, (b.position(chest) - b.position(hips)).normalize());
    b.blob(hips, body, Vec3::new(r, r * 1.05, length * 0.4), tilt);
    let neck_base = b.position(chest) + Vec3::new(0.0, r * 0.6, r * 0.3);
    let size = r * b.rng.range(0.45, 0.65);
    let up = Vec3::new(0.0, 1.0, b.rng.range(0.2, 0.8));
    let neck = length * b.rng.range(0.15, 0.35);
    let neck = Neck {
        base: neck_base,
        dir: up,
        length: neck,
        radius: r * 0.35,
        head: size,
    };
    let [_, head, _] = neck_and_head(b, "", chest, &neck);
    let beak_at = b.position(head) + Vec3::new(0.0, size * 0.3, size * 1.6);
    let beak = b.joint("beak", Some(head), beak_at);
    let beak_length = size * b.rng.range(0.6, 1.5);
    let beak_end = b.joint(
        "beak_end",
        Some(beak),
        beak_at + Vec3::new(0.0, -size * 0.2, beak_length),
    );
    b.bone(beak, beak_end, size * 0.3, size * 0.08);
    let span = length * b.rng.range(0.7, 1.4);
    let chord = length * b.rng.range(0.2, 0.35);
    let droop = b.rng.range(-0.3, 0.3);
    for side in [1.0f32, -1.0] {
        let shoulder = b.position(chest) + Vec3::new(side * r * 0.7, r * 0.3, 0.0);
        let dir = Vec3::new(side, droop.sin(), 0.0);
        let joints = arm(b, chest, shoulder + dir * 0.0, span, r * 0.25, -droop);
        // Feathers: a flat blade trailing behind each wing bone.
        wing_blades(b, &joints, chord, r * 0.06);
        let hip = Vec3::new(side * r * 0.5, leg_length, -length * 0.05);
        leg(b, "leg", hips, hip, Vec3::Z, -1.0, r * 0.2);
    }
    let tail_at = b.position(hips) - Vec3::Z * length * 0.35;
    let tail_joint = b.joint("tail", Some(hips), tail_at);
    let tail_length = length * b.rng.range(0.2, 0.5);
    let tail_end = b.joint(
        "tail_end",
        Some(tail_joint),
        tail_at - Vec3::Z * tail_length,
    );
    let fan = (b.position(tail_joint) + b.position(tail_end)) * 0.5;
    b.blob(
        tail_joint,
        fan,
        Vec3::new(
            r * 0.7,
            r * 0.08,
            (tail_at - b.position(tail_end)).length() * 0.55,
        ),
        Quat::IDENTITY,
    );
    b.bone(tail_joint, tail_end, r * 0.25, r * 0.1);
}

fn fish(b: &mut Builder) {
    let length = b.rng.range(0.3, 2.5);
    let depth = length * b.rng.range(0.12, 0.25);
    let width = depth * b.rng.range(0.4, 0.7);
    let y = depth * 2.0;
    let body = b.joint("body", None, Vec3::new(0.0, y, 0.0));
    let head = b.joint("head", Some(body), Vec3::new(0.0, y, length * 0.2));
    let head_end = b.joint("head_end", Some(head), Vec3::new(0.0, y, length * 0.4));
    b.blob(
        head,
        Vec3::new(0.0, y, length * 0.3),
        Vec3::new(width * 0.85, depth * 0.8, length * 0.15),
        Quat::IDENTITY,
    );
    b.blob(
        body,
        Vec3::new(0.0, y, length * 0.05),
        Vec3::new(width, depth, length * 0.22),
        Quat::IDENTITY,
    );
    let _ = head_end;
    let n = 3 + (b.rng.unit() * 3.0) as usize;
    let step = length * 0.5 / n as f32;
    let mut up = body;
    for k in 0..n {
        let z = -step * (k as f32 + 0.3);
        let j = b.joint(format!("tail{}", k + 1), Some(up), Vec3::new(0.0, y, z));
        let taper = 1.0 - 0.75 * (k as f32 + 0.5) / n as f32;
        b.blob(
            j,
            Vec3::new(0.0, y, z - step * 0.5),
            Vec3::new(width * taper, depth * taper, step * 0.75),
            Quat::IDENTITY,
        );
        up = j;
    }
    let fin_at = Vec3::new(0.0, y, -length * 0.5);
    let fin = b.joint("tail_fin", Some(up), fin_at);
    let fin_end = b.joint("tail_fin_end", Some(fin), fin_at - Vec3::Z * length * 0.2);
    b.bone(fin, fin_end, width * 0.2, width * 0.15);
    let fin_height = depth * b.rng.range(0.8, 1.4);
    b.blob(
        fin,
        fin_at - Vec3::Z * length * 0.1,
        Vec3::new(width * 0.12, fin_height, length * 0.11),
        Quat::IDENTITY,
    );
    b.blob(
        body,
        Vec3::new(0.0, y + depth * 0.9, 0.0),
        Vec3::new(width * 0.12, depth * 0.5, length * 0.12),
        Quat::from_rotation_x(0.4),
    );
    for side in [1.0f32, -1.0] {
        let at = Vec3::new(side * width * 0.7, y - depth * 0.3, length * 0.15);
        let fin = b.joint(format!("fin{}", side_name(side)), Some(body), at);
        let tip = at + Vec3::new(side * depth * 0.8, -depth * 0.4, -depth * 0.5);
        let end = b.joint(format!("fin_end{}", side_name(side)), Some(fin), tip);
        b.bone(fin, end, width * 0.15, width * 0.1);
        b.blob(
            fin,
            (at + tip) * 0.5,
            Vec3::new(depth * 0.45, width * 0.08, depth * 0.3),
            Quat::IDENTITY,
        );
    }
}

fn snake(b: &mut Builder) {
    let length = b.rng.range(1.0, 4.0);
    let r = length * b.rng.range(0.02, 0.04);
    let n = 10 + (b.rng.unit() * 7.0) as usize;
    let waves = b.rng.range(0.5, 2.0);
    let amplitude = length * b.rng.range(0.03, 0.1);
    let points: Vec<Vec3> = (0..=n)
        .map(|k| {
            let t = k as f32 / n as f32;
            Vec3::new(
                (t * waves * 2.0 * PI).sin() * amplitude,
                r,
                (0.5 - t) * length,
            )
        })
        .collect();
    let head = b.joint("head", None, points[0] + Vec3::Z * r * 2.5);
    let head_end = b.joint("head_end", Some(head), points[0] + Vec3::Z * r * 5.0);
    b.bone(head, head_end, r * 1.2, r * 0.6);
    let chain = b.chain("spine", Some(head), &points, r, r * 0.25);
    b.cone(head, 0, b.position(head), b.position(chain[0]), r * 1.2, r);
}

fn tentacled(b: &mut Builder) {
    let size = b.rng.range(0.4, 2.0);
    let r = size * b.rng.range(0.2, 0.3);
    let height = size * b.rng.range(0.6, 1.0);
    let body = b.joint("body", None, Vec3::new(0.0, height, 0.0));
    let top = b.joint(
        "mantle",
        Some(body),
        Vec3::new(0.0, height + r * 1.2, -r * 0.3),
    );
    let top_end = b.joint(
        "mantle_end",
        Some(top),
        Vec3::new(0.0, height + r * 2.6, -r * 0.8),
    );
    b.blob(
        body,
        Vec3::new(0.0, height, 0.0),
        Vec3::splat(r),
        Quat::IDENTITY,
    );
    b.bone(top, top_end, r * 0.9, r * 0.4);
    let arms = 4 + (b.rng.unit() * 5.0) as usize;
    let segments = 5 + (b.rng.unit() * 3.0) as usize;
    let reach = height * b.rng.range(1.2, 2.0) / segments as f32;
    for k in 0..arms {
        let angle = k as f32 / arms as f32 * 2.0 * PI + 0.3;
        let out = Vec3::new(angle.cos(), 0.0, angle.sin());
        let start = Vec3::new(0.0, height - r * 0.6, 0.0) + out * r * 0.5;
        let dir = (out * 0.5 - Vec3::Y).normalize();
        let curl_axis = out.cross(Vec3::Y).normalize();
        let turn = Quat::from_axis_angle(
            curl_axis,
            -FRAC_PI_2 / segments as f32 * b.rng.range(0.5, 1.5),
        );
        let points = curl(start, dir, segments, reach, turn);
        tail(
            b,
            &format!("tentacle{}_", k + 1),
            body,
            &points,
            r * 0.3,
            r * 0.06,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_morphology_starts_with_the_ones_generation_draws_from() {
        assert!(Morphology::EVERY.starts_with(&Morphology::ALL));
    }
}
