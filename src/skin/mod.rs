//! Skinning: weights that bind every vertex to the joints that should move it, for any
//! skeleton, by geodesic voxel binding (after Dionne & de Lasa 2013): voxelise the solid,
//! measure distances from each bone through the inside of the body, and turn them into
//! weights with a falloff, smoothing and normalisation.

mod bone_segments;
mod geodesic;
mod heat;
mod proxy;
mod weights;

pub use bone_segments::{BoneSegment, bone_segments, deforming_joints, is_end_tip};
pub use proxy::{PROXY_VERTICES, Proxy};

use crate::mesh::Mesh;
use crate::rig::{Skeleton, SkinWeights};
use crate::volume::capped_solid;

/// Settings of the geometric skinner. The defaults were chosen on the training set
/// (`rigkit lab eval` over Mesh2Motion and Quaternius training characters: bone heat with a source
/// strength of 4 and no extra smoothing gave the lowest mean L1 and deformation error; for the
/// falloff alone, 14 with one smoothing pass), never on the eval set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkinOptions {
    /// Voxels along the longest side of the mesh's bounds.
    pub resolution: u32,
    /// Most solid voxels to measure distances over; bulky shapes are voxelised more coarsely
    /// to stay within it (time and memory grow with it).
    pub max_solid_voxels: usize,
    /// Influences kept per vertex.
    pub max_influences: usize,
    /// Exponent of the inverse-distance falloff: higher binds more rigidly.
    pub falloff: f32,
    /// Surface smoothing passes over the weights.
    pub smoothing: usize,
    /// Diffuse the weights as bone heat over the surface (from each vertex's nearest joint
    /// through the volume) instead of the distance falloff alone; meshes of more than
    /// [`MAX_HEAT_VERTICES`] vertices keep the falloff.
    pub heat: bool,
    /// A separate piece of the mesh whose weights give one joint at least this share moves
    /// with that joint alone; above 1, pieces blend like the rest.
    pub rigid_share: f32,
}

impl Default for SkinOptions {
    fn default() -> Self {
        Self {
            resolution: 128,
            max_solid_voxels: 300_000,
            max_influences: 4,
            falloff: 14.0,
            smoothing: 0,
            heat: true,
            rigid_share: 0.7,
        }
    }
}

/// Seconds spent in each stage of [`geodesic_skin_timed`], for benchmarks and the progress
/// display.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SkinTimings {
    pub voxelize: f64,
    pub distances: f64,
    pub weights: f64,
    /// Solid voxels the distances were computed over, and the resolution that gave them.
    pub solid_voxels: usize,
    pub resolution: u32,
}

/// Why a skin could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkinError {
    #[error("the mesh has no triangles to skin")]
    EmptyMesh,
    #[error("the skeleton has no joints to bind to")]
    NoJoints,
    #[error("the mesh has {given} vertices, but it was prepared with {prepared}")]
    NotPrepared { given: usize, prepared: usize },
}

/// Geodesic voxel skin weights of `mesh` for `skeleton`: every vertex gets at most
/// `max_influences` non-negative weights summing to 1. Vertices the volume does not connect to
/// any bone (a separate prop, a part whose bones are all outside it) follow the nearest bones
/// in a straight line.
///
/// # Errors
/// [`SkinError`] for a mesh without triangles or a skeleton without joints.
pub fn geodesic_skin(
    mesh: &Mesh,
    skeleton: &Skeleton,
    options: &SkinOptions,
) -> Result<SkinWeights, SkinError> {
    geodesic_skin_timed(mesh, skeleton, options).map(|(skin, _)| skin)
}

/// [`geodesic_skin`], also reporting how long each stage took.
///
/// # Errors
/// As [`geodesic_skin`].
pub fn geodesic_skin_timed(
    mesh: &Mesh,
    skeleton: &Skeleton,
    options: &SkinOptions,
) -> Result<(SkinWeights, SkinTimings), SkinError> {
    if skeleton.joints.is_empty() {
        return Err(SkinError::NoJoints);
    }
    let clock = Clock::start();
    let prepared = PreparedMesh::new(mesh, options)?;
    let voxelize = clock.lap();
    let (skin, mut timings) = prepared.skin(mesh, skeleton, options, false)?;
    timings.voxelize = voxelize;
    Ok((skin, timings))
}

/// What skinning needs of a mesh whatever its skeleton: its solid, its seam-welded surface and
/// the heat operator over it. Built once per mesh, it makes every re-skin after a joint edit
/// skip that work.
pub struct PreparedMesh {
    solid: crate::volume::Solid,
    resolution: u32,
    surface: weights::WeldedSurface,
    heat: Option<HeatPrep>,
    vertices: usize,
}

/// The heat operator over the welded surface's compacted vertices, and the last solve.
struct HeatPrep {
    operator: heat::HeatSurface,
    compact: Vec<usize>,
    of_vertex: Vec<u32>,
    cache: std::cell::RefCell<Option<HeatCache>>,
}

/// Each joint's heat target and solution from the last skin, with the conductance they were
/// solved under: after a joint moves, joints whose target and surroundings did not change keep
/// their solution and the others start from it.
struct HeatCache {
    conductance: Vec<f32>,
    solutions: std::collections::BTreeMap<u32, (Vec<f32>, Vec<f32>)>,
}

/// Most floats (vertices × joints) the heat cache keeps; bigger rigs re-solve every joint.
const MAX_CACHED_HEAT: usize = 4_000_000;
/// Heat below this is too faint to count (it is cut off as no weight anyway): a conductance
/// change where a joint's heat is fainter does not make it re-solve.
const REACH: f32 = 1e-3;

impl PreparedMesh {
    /// # Errors
    /// [`SkinError::EmptyMesh`] for a mesh without triangles.
    pub fn new(mesh: &Mesh, options: &SkinOptions) -> Result<Self, SkinError> {
        let (solid, resolution) = capped_solid(mesh, options.resolution, options.max_solid_voxels)
            .ok_or(SkinError::EmptyMesh)?;
        let surface = weights::WeldedSurface::new(&mesh.positions, &mesh.triangles);
        let heat = (options.heat && mesh.vertex_count() <= MAX_HEAT_VERTICES).then(|| {
            // Compact the welded vertices and remap the triangles onto them.
            let (compact, of_vertex) = surface.compact();
            let positions: Vec<glam::Vec3> = compact.iter().map(|&v| mesh.positions[v]).collect();
            let triangles: Vec<[u32; 3]> = mesh
                .triangles
                .iter()
                .filter_map(|t| {
                    let m = t.map(|i| of_vertex.get(i as usize).copied());
                    Some([m[0]?, m[1]?, m[2]?])
                })
                .collect();
            HeatPrep {
                operator: heat::HeatSurface::new(&positions, &triangles),
                compact,
                of_vertex,
                cache: std::cell::RefCell::new(None),
            }
        });
        Ok(Self {
            solid,
            resolution,
            surface,
            heat,
            vertices: mesh.vertex_count(),
        })
    }

    /// Skin weights of `mesh` (the one this was prepared from) for `skeleton`. With `reuse`,
    /// the skeleton is the last one skinned with joints moved (same joints, same order): heat
    /// solves whose inputs did not change are kept, the others start from their last answer.
    ///
    /// # Errors
    /// [`SkinError`] for a skeleton without joints or a different mesh.
    pub fn skin(
        &self,
        mesh: &Mesh,
        skeleton: &Skeleton,
        options: &SkinOptions,
        reuse: bool,
    ) -> Result<(SkinWeights, SkinTimings), SkinError> {
        if skeleton.joints.is_empty() {
            return Err(SkinError::NoJoints);
        }
        if mesh.vertex_count() != self.vertices {
            return Err(SkinError::NotPrepared {
                given: mesh.vertex_count(),
                prepared: self.vertices,
            });
        }
        let k = options.max_influences.max(1);
        let segments = bone_segments(skeleton);
        let clock = Clock::start();
        let solid = &self.solid;
        let mut timings = SkinTimings {
            solid_voxels: solid.count(),
            resolution: self.resolution,
            ..SkinTimings::default()
        };
        // Bone heat needs each vertex's nearest joint (two labels keep its ties and a runner-up
        // for the vertices heat leaves unweighted: measured identical to five on the training
        // groups, 2.2x faster); the falloff alone blends more labels than influences, so that
        // smoothing has neighbours' second choices to blend.
        let labels = if self.heat.is_some() { 2 } else { k + 1 };
        let nearest = geodesic::nearest_joints(solid, &segments, labels);
        timings.distances = clock.lap();
        let floor = 0.5 * solid.grid.voxel;
        let distances: Vec<Vec<(u32, f32)>> = mesh
            .positions
            .iter()
            .map(|&p| {
                let cell = solid.grid.cell(p);
                let labels = if solid.grid.contains(cell) {
                    nearest.of(solid.grid.index(cell))
                } else {
                    Vec::new()
                };
                if labels.is_empty() {
                    straight_line_distances(p, &segments, k + 1)
                } else {
                    labels.iter().map(|l| (l.joint.0, l.distance)).collect()
                }
            })
            .collect();
        let raw: Vec<_> = distances
            .iter()
            .map(|d| weights::falloff(d, options.falloff, floor))
            .collect();
        let raw = match &self.heat {
            Some(heat) => heat_weights(mesh, heat, &distances, floor, raw, reuse),
            None => raw,
        };
        let skin = weights::smooth_and_limit(
            raw,
            &self.surface,
            &mesh.positions,
            options.rigid_share,
            options.smoothing,
            0.5,
            k,
        );
        timings.weights = clock.lap();
        Ok((skin, timings))
    }
}

/// Wall-clock laps where there is a clock: `std::time::Instant` panics in the browser, so
/// there stages report zero and the page times them itself.
struct Clock {
    #[cfg(not(target_arch = "wasm32"))]
    last: std::cell::Cell<std::time::Instant>,
}

impl Clock {
    fn start() -> Self {
        Self {
            #[cfg(not(target_arch = "wasm32"))]
            last: std::cell::Cell::new(std::time::Instant::now()),
        }
    }

    /// Seconds since the previous lap (or the start).
    fn lap(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let now = std::time::Instant::now();
            let seconds = now.duration_since(self.last.get()).as_secs_f64();
            self.last.set(now);
            seconds
        }
        #[cfg(target_arch = "wasm32")]
        0.0
    }
}

/// The `k` nearest joints of `p` by straight-line distance to their segments (to the joints
/// themselves when no joint owns a segment).
fn straight_line_distances(p: glam::Vec3, segments: &[BoneSegment], k: usize) -> Vec<(u32, f32)> {
    let mut best: Vec<(u32, f32)> = Vec::new();
    for s in segments {
        let d = s.distance(p);
        match best.iter_mut().find(|(j, _)| *j == s.joint.0) {
            Some(entry) => entry.1 = entry.1.min(d),
            None => best.push((s.joint.0, d)),
        }
    }
    best.sort_by(|a, b| a.1.total_cmp(&b.1));
    best.truncate(k);
    best
}

/// Above this many vertices the heat solve (one conjugate-gradient solve per joint) would take
/// far longer than the rest of the rig; such meshes keep the falloff weights.
pub const MAX_HEAT_VERTICES: usize = 200_000;

/// How strongly a joint's own flesh is held at its weight: higher keeps blends tighter.
/// Blender uses 1; 4 measured best on the training characters.
const HEAT_SOURCE: f32 = 4.0;

/// Bone-heat weights: each joint nearest (through the volume) to some vertex is solved for
/// over the welded surface; vertices the solve leaves without weight keep `fallback`.
fn heat_weights(
    mesh: &Mesh,
    heat: &HeatPrep,
    distances: &[Vec<(u32, f32)>],
    floor: f32,
    fallback: Vec<Vec<crate::rig::Influence>>,
    reuse: bool,
) -> Vec<Vec<crate::rig::Influence>> {
    use crate::rig::{Influence, JointId};
    let HeatPrep {
        operator,
        compact,
        of_vertex,
        ..
    } = heat;
    let n = compact.len();
    let mut conductance = vec![0.0f32; n];
    let mut nearest: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (c, &v) in compact.iter().enumerate() {
        let d = &distances[v];
        let d0 = d.iter().map(|x| x.1).fold(f32::INFINITY, f32::min);
        if !d0.is_finite() {
            continue;
        }
        conductance[c] = HEAT_SOURCE / d0.max(floor).powi(2);
        nearest[c] = d
            .iter()
            .filter(|x| x.1 <= d0 * 1.0001)
            .map(|x| x.0)
            .collect();
    }
    let mut joints: Vec<u32> = nearest.iter().flatten().copied().collect();
    joints.sort_unstable();
    joints.dedup();
    // What changed since the cached solve: where the conductance moved, a joint's solution
    // cannot be reused if it reaches there.
    let mut cache = heat.cache.borrow_mut();
    let reusable = cache
        .as_ref()
        .filter(|c| reuse && c.conductance.len() == n)
        .map(|c| {
            c.conductance
                .iter()
                .zip(&conductance)
                .map(|(a, b)| (a - b).abs() > 1e-4 * a.abs().max(b.abs()))
                .collect::<Vec<bool>>()
        });
    let keep = n.saturating_mul(joints.len()) <= MAX_CACHED_HEAT;
    let targets: Vec<Vec<f32>> = joints
        .iter()
        .map(|j| {
            nearest
                .iter()
                .map(|near| {
                    if near.contains(j) {
                        1.0 / near.len() as f32
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    // Per joint: its last solution, kept if nothing it reaches changed, else the start of a
    // new solve; the solves run together.
    let previous: Vec<Option<(&Vec<f32>, &Vec<f32>)>> = joints
        .iter()
        .map(|j| {
            reusable.as_ref()?;
            let (old_target, old) = cache.as_ref()?.solutions.get(j)?;
            Some((old_target, old))
        })
        .collect();
    let unchanged = |k: usize| match (&reusable, previous[k]) {
        (Some(changed), Some((old_target, old))) => {
            *old_target == targets[k] && !changed.iter().zip(old).any(|(c, w)| *c && *w > REACH)
        }
        _ => false,
    };
    let to_solve: Vec<usize> = (0..joints.len()).filter(|&k| !unchanged(k)).collect();
    let solutions = operator.solve_many(
        &conductance,
        &to_solve
            .iter()
            .map(|&k| targets[k].as_slice())
            .collect::<Vec<_>>(),
        &to_solve
            .iter()
            .map(|&k| previous[k].map(|(_, old)| old.as_slice()))
            .collect::<Vec<_>>(),
    );
    let mut fresh: Vec<Option<Vec<f32>>> = vec![None; joints.len()];
    for (&k, w) in to_solve.iter().zip(solutions) {
        fresh[k] = Some(w);
    }
    let mut solved = std::collections::BTreeMap::new();
    let mut weights: Vec<Vec<Influence>> = vec![Vec::new(); n];
    for (k, (&j, target)) in joints.iter().zip(targets).enumerate() {
        let w = fresh[k]
            .take()
            .or_else(|| previous[k].map(|(_, old)| old.clone()))
            .unwrap_or_default();
        for (c, &value) in w.iter().enumerate() {
            // Blender's cut-off: faint heat is no weight, with a ramp so nothing jumps.
            let weight = if value < 0.025 {
                0.0
            } else if value < 0.05 {
                (value - 0.025) * 2.0
            } else {
                value
            };
            if weight > 0.0 {
                weights[c].push(Influence {
                    joint: JointId(j),
                    weight,
                });
            }
        }
        if keep {
            solved.insert(j, (target, w));
        }
    }
    *cache = keep.then_some(HeatCache {
        conductance,
        solutions: solved,
    });
    (0..mesh.vertex_count())
        .map(|v| match of_vertex.get(v) {
            Some(&c) if !weights[c as usize].is_empty() => weights[c as usize].clone(),
            _ => fallback[v].clone(),
        })
        .collect()
}
