//! The 3D viewport: the character's mesh, lit, with its skeleton drawn over it, and an orbit
//! camera. Browser-free — it renders into any three-d [`Context`]; the web shell makes one from
//! a WebGL2 canvas and forwards pointer input.

mod heatmap;
mod orbit_camera;
mod present;
mod skeleton_overlay;
mod skinned_mesh;
mod wireframe;

use std::rc::Rc;

use three_d::{
    AmbientLight, Context, CpuMaterial, CpuMesh, CpuTexture, DirectionalLight, Gm,
    PhysicalMaterial, RenderTarget, Srgba, TextureData, vec3,
};

pub use orbit_camera::OrbitCamera;
use skeleton_overlay::SkeletonOverlay;
use skinned_mesh::{SkinnedPart, SkinnedVertices, SurfaceData};

use crate::Character;
use crate::anim::PackedInfluences;
use crate::document::Shapes;
use crate::rig::JointId;

const BACKGROUND: [f32; 4] = [0.11, 0.12, 0.14, 1.0];
const SKIN_COLOR: Srgba = Srgba::new(186, 190, 198, 255);
/// The corrective offset, as a share of the character's size, the difference view paints
/// red.
pub const DIFFERENCE_FULL: f32 = 0.01;

/// What the viewport shows and how it is looked at.
pub struct Viewer {
    context: Context,
    camera: OrbitCamera,
    /// One drawable per mesh part, each with its part's material, all over one set of
    /// vertices skinned on the GPU.
    surface: Vec<Gm<SkinnedPart, PhysicalMaterial>>,
    vertices: Option<Rc<SkinnedVertices>>,
    /// The pose shown (each joint's skinning matrix); empty at bind. Kept so that repainting
    /// the surface (a heatmap) keeps the pose.
    skinning: Vec<glam::Mat4>,
    /// Each vertex's offset (before skinning) in the pose shown: its morph targets and
    /// correctives, and the correctives' part the difference view paints; empty without.
    shape: Shapes,
    /// The skin weights as the GPU draws them (at most 8 per vertex, renormalised), for
    /// skinning on the CPU what must match the picture: the wireframe, scripts, bakes.
    drawn_skin: crate::rig::SkinWeights,
    /// The joint whose weights the surface is painted with.
    weights_of: Option<JointId>,
    /// The surface is painted with how far correctives move each vertex in the pose shown
    /// (over its weights or materials).
    difference: bool,
    /// The surface holds vertices skinned on the CPU ([`Self::bake`]) rather than the bind pose.
    baked: bool,
    /// The character's size (its bind pose's bounding-box diagonal), which bones and joints
    /// are drawn in proportion to.
    scale: f32,
    skeleton: Option<SkeletonOverlay>,
    /// The skeleton shows through the mesh (x-ray) or is hidden by it.
    xray: bool,
    /// The mesh's edges, when the wireframe is on.
    wireframe: bool,
    edges: Option<Gm<three_d::InstancedMesh, three_d::ColorMaterial>>,
    /// Pose mode's rotation ring: its centre (the selected joint) and radius.
    gizmo: Option<(glam::Vec3, f32)>,
    key_light: DirectionalLight,
    fill_light: DirectionalLight,
    ambient: AmbientLight,
}

impl Viewer {
    pub fn new(context: Context) -> Self {
        Self {
            camera: OrbitCamera::default(),
            surface: Vec::new(),
            vertices: None,
            skinning: Vec::new(),
            shape: Shapes::default(),
            drawn_skin: crate::rig::SkinWeights::new(),
            weights_of: None,
            difference: false,
            baked: false,
            scale: 1.0,
            skeleton: None,
            xray: true,
            wireframe: false,
            edges: None,
            gizmo: None,
            key_light: DirectionalLight::new(&context, 2.0, Srgba::WHITE, vec3(-0.5, -1.0, -0.8)),
            fill_light: DirectionalLight::new(&context, 0.6, Srgba::WHITE, vec3(0.7, 0.3, 0.6)),
            ambient: AmbientLight::new(&context, 0.35, Srgba::WHITE),
            context,
        }
    }

    /// Replaces what is shown with `character` and frames it.
    pub fn show(&mut self, character: &Character) {
        self.skinning.clear();
        self.shape = Shapes::default();
        self.build_surface(character, None);
        self.show_skeleton(character.skeleton.as_ref());
        self.camera.frame(&character.mesh.bounds());
    }

    /// Shows `character` again after an edit, in heatmap colours of `weights_of` if given;
    /// the camera stays where it is.
    pub fn refresh(&mut self, character: &Character, weights_of: Option<JointId>) {
        self.skinning.clear();
        self.shape = Shapes::default();
        self.build_surface(character, weights_of);
        self.show_skeleton(character.skeleton.as_ref());
    }

    /// Redraws only the skeleton overlay (a joint being dragged), sized to the character
    /// shown; `None` hides it.
    pub fn show_skeleton(&mut self, skeleton: Option<&crate::rig::Skeleton>) {
        self.skeleton =
            skeleton.map(|s| SkeletonOverlay::new(&self.context, s, self.scale, self.xray));
    }

    /// Shows pose mode's rotation ring around `at` (facing the camera), or hides it.
    pub fn set_gizmo(&mut self, at: Option<glam::Vec3>, radius: f32) {
        self.gizmo = at.map(|p| (p, radius));
    }

    /// Whether a pose is shown rather than the bind pose.
    pub fn is_posed(&self) -> bool {
        !self.skinning.is_empty()
    }

    pub fn camera(&self) -> &OrbitCamera {
        &self.camera
    }

    /// Paints the surface with `joint`'s skin weights (a heatmap), or with its own materials
    /// again for `None`. The camera stays where it is.
    pub fn show_weights(&mut self, character: &Character, joint: Option<JointId>) {
        self.build_surface(character, joint);
    }

    /// The vertices as shown in the current pose, moved by their corrective shape and skinned
    /// on the CPU with the weights the GPU draws with; `None` at bind.
    pub fn posed_positions(&self, character: &Character) -> Option<Vec<glam::Vec3>> {
        if self.skinning.is_empty() {
            return None;
        }
        let rest = &character.mesh.positions;
        let shaped: Vec<glam::Vec3>;
        let rest = match self.shape.offsets.len() == rest.len() {
            true => {
                shaped = rest
                    .iter()
                    .zip(&self.shape.offsets)
                    .map(|(p, o)| *p + *o)
                    .collect();
                &shaped
            }
            false => rest,
        };
        Some(crate::anim::skin_positions(
            rest,
            &self.drawn_skin,
            &self.skinning,
        ))
    }

    /// Shows the current pose with vertices and normals skinned on the CPU instead of by the
    /// shader: the reference the GPU skinning is checked against. The next [`Self::pose`]
    /// goes back to the GPU. `false` when nothing is posed.
    pub fn bake(&mut self, character: &Character) -> bool {
        let Some(positions) = self.posed_positions(character) else {
            return false;
        };
        let normals =
            crate::anim::skin_normals(&character.mesh.normals, &self.drawn_skin, &self.skinning);
        self.build_surface_from(character, self.weights_of, Some((&positions, &normals)));
        true
    }

    /// One drawable per part: in its material, or in heatmap colours of `weights_of`; posed
    /// as last shown.
    fn build_surface(&mut self, character: &Character, weights_of: Option<JointId>) {
        self.build_surface_from(character, weights_of, None);
    }

    /// [`Self::build_surface`] from `baked` vertices and normals (not skinned again) if given.
    fn build_surface_from(
        &mut self,
        character: &Character,
        weights_of: Option<JointId>,
        baked: Option<(&[glam::Vec3], &[glam::Vec3])>,
    ) {
        let mesh = &character.mesh;
        self.scale = mesh.bounds().diagonal();
        let joint_count = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
        let influences =
            PackedInfluences::new(character.skin.as_ref(), mesh.vertex_count(), joint_count);
        self.drawn_skin = influences.skin_weights();
        self.weights_of = weights_of;
        self.baked = baked.is_some();
        // Baked vertices are already where the pose puts them: nothing moves them again.
        let unmoved;
        let influences = if self.baked {
            unmoved = PackedInfluences::new(None, mesh.vertex_count(), joint_count);
            &unmoved
        } else {
            &influences
        };
        let positions = baked.map_or(&mesh.positions[..], |b| b.0);
        let computed;
        let normals = match baked.map_or(&mesh.normals[..], |b| b.1) {
            n if n.len() == positions.len() => n,
            _ => {
                computed = crate::mesh::vertex_normals(positions, &mesh.triangles);
                &computed[..]
            }
        };
        let heat = match self.difference {
            true => Some(self.difference_colors(mesh.vertex_count())),
            false => weights_of.and_then(|joint| {
                let skin = character.skin.as_ref()?;
                Some(heatmap::joint_weight_colors(
                    skin,
                    joint,
                    mesh.vertex_count(),
                ))
            }),
        };
        // The mesh's own vertex colours (glTF's `COLOR_0`), under a heatmap's.
        let heat = heat.or_else(|| {
            (mesh.colors.len() == mesh.vertex_count())
                .then(|| mesh.colors.iter().map(|c| heatmap::srgba(*c)).collect())
        });
        let painted = self.difference || weights_of.is_some();
        let uvs = (mesh.uvs.len() == mesh.positions.len()).then_some(mesh.uvs.as_slice());
        let textures: Vec<Option<CpuTexture>> = match (&uvs, painted) {
            (Some(_), false) => character.images.iter().map(decode_texture).collect(),
            _ => Vec::new(),
        };
        let vertices = Rc::new(SkinnedVertices::new(
            &self.context,
            &SurfaceData {
                positions,
                normals,
                uvs,
                colors: heat.as_deref(),
                influences,
                joint_count,
            },
        ));
        if !self.baked {
            vertices.set_skinning(&self.skinning);
            vertices.set_shape(&self.shape.offsets);
        }
        self.surface.clear();
        for part in mesh.parts_or_whole() {
            let Some(triangles) = mesh
                .triangles
                .get(part.first_triangle..part.first_triangle + part.triangle_count)
            else {
                continue;
            };
            let indices: Vec<u32> = triangles.iter().flatten().copied().collect();
            let material = if painted {
                // White and matte, so the vertex colours show as they are.
                CpuMaterial {
                    albedo: Srgba::WHITE,
                    roughness: 1.0,
                    metallic: 0.0,
                    ..Default::default()
                }
            } else {
                let source = part.material.and_then(|m| character.materials.get(m));
                cpu_material(source, &textures)
            };
            let material = PhysicalMaterial::new_opaque(&self.context, &material);
            self.surface.push(Gm::new(
                SkinnedPart::new(Rc::clone(&vertices), &indices),
                material,
            ));
        }
        self.vertices = Some(vertices);
        self.build_edges(character);
    }

    /// The mesh's edges where the surface is drawn (skinned on the CPU when posed), if the
    /// wireframe is on.
    fn build_edges(&mut self, character: &Character) {
        self.edges = None;
        if !self.wireframe {
            return;
        }
        let posed = self.posed_positions(character);
        let positions = posed.as_deref().unwrap_or(&character.mesh.positions);
        let scale = crate::mesh::Aabb::from_points(positions).diagonal();
        self.edges =
            wireframe::wireframe(&self.context, positions, &character.mesh.triangles, scale);
    }

    /// Draws the mesh's edges over it (as posed), or not.
    pub fn set_wireframe(&mut self, on: bool, character: &Character) {
        self.wireframe = on;
        self.build_edges(character);
    }

    /// Shows the skeleton through the mesh (x-ray), or lets the mesh hide it.
    pub fn set_xray(&mut self, on: bool, skeleton: Option<&crate::rig::Skeleton>) {
        self.xray = on;
        self.show_skeleton(skeleton);
    }

    /// Paints the surface with how far correctives move each vertex in the pose shown (red at
    /// [`DIFFERENCE_FULL`] of the character's size), or with what it showed before.
    pub fn show_difference(&mut self, on: bool, character: &Character) {
        self.difference = on;
        self.build_surface(character, self.weights_of);
    }

    /// The colours of the corrective offsets shown, one per vertex.
    fn difference_colors(&self, vertices: usize) -> Vec<Srgba> {
        heatmap::offset_colors(
            &self.shape.correctives,
            DIFFERENCE_FULL * self.scale,
            vertices,
        )
    }

    /// Shows the character at rest moved by `shape` (its morph targets at their weights).
    pub fn shape_at_rest(&mut self, character: &Character, shape: &Shapes) {
        if !self.baked {
            self.set_shape(character, shape);
            self.build_edges(character);
        }
    }

    /// Moves the vertices drawn by `shape` before skinning (and repaints the difference view).
    fn set_shape(&mut self, character: &Character, shape: &Shapes) {
        let had_shape = !self.shape.offsets.is_empty();
        self.shape = shape.clone();
        let Some(vertices) = &self.vertices else {
            return;
        };
        if had_shape || !self.shape.offsets.is_empty() {
            vertices.set_shape(&self.shape.offsets);
            if self.difference {
                let colors = self.difference_colors(character.mesh.vertex_count());
                if !vertices.set_colors(&colors) {
                    self.build_surface(character, self.weights_of);
                }
            }
        }
    }

    /// Shows the character posed: `skinning` holds each joint's skinning matrix (posed world
    /// times inverse bind), `shape` each vertex's offset before skinning in the pose (its
    /// morph targets and correctives) and `skeleton` its joints in the pose.
    /// Only the matrices and offsets go to the GPU, which skins the surface; materials,
    /// heatmap and camera stay.
    pub fn pose(
        &mut self,
        character: &Character,
        skinning: &[glam::Mat4],
        shape: &Shapes,
        skeleton: &crate::rig::Skeleton,
    ) {
        self.skinning = skinning.to_vec();
        if self.baked {
            // Back from the CPU reference to the GPU: the bind pose again, and its influences.
            self.shape = shape.clone();
            self.build_surface(character, self.weights_of);
        } else {
            if let Some(vertices) = &self.vertices {
                vertices.set_skinning(skinning);
            }
            self.set_shape(character, shape);
            self.build_edges(character);
        }
        let moved = self
            .skeleton
            .as_mut()
            .is_some_and(|overlay| overlay.set_pose(skeleton, self.scale));
        if !moved {
            self.skeleton = Some(SkeletonOverlay::new(
                &self.context,
                skeleton,
                self.scale,
                self.xray,
            ));
        }
    }

    /// Draws one frame into the default framebuffer of `width` × `height` pixels.
    pub fn render(&mut self, width: u32, height: u32) {
        let camera = self.camera.camera(width.max(1), height.max(1));
        let [r, g, b, a] = BACKGROUND;
        let target = RenderTarget::screen(&self.context, width, height);
        target.clear(three_d::ClearState::color_and_depth(r, g, b, a, 1.0));
        target.render(
            &camera,
            &self.surface,
            &[&self.key_light, &self.fill_light, &self.ambient],
        );
        if let Some(edges) = &self.edges {
            target.render(&camera, std::iter::once(edges), &[]);
        }
        if let Some(ring) = self
            .gizmo
            .and_then(|(at, r)| gizmo_ring(&self.context, at, r, self.camera.view_direction()))
        {
            target.render(&camera, std::iter::once(&ring), &[]);
        }
        if let Some(skeleton) = &self.skeleton {
            target.render(&camera, skeleton.objects(), &[]);
        }
    }

    pub fn camera_mut(&mut self) -> &mut OrbitCamera {
        &mut self.camera
    }
}

/// The largest texture side the viewport uploads; WebGL2 guarantees 2048, most give 8192+.
const MAX_TEXTURE_SIDE: u32 = 8192;

/// Decodes a PNG/JPEG for display; `None` (untextured) when it cannot be decoded or is huge.
fn decode_texture(image: &crate::mesh::Image) -> Option<CpuTexture> {
    let decoded = image::load_from_memory(&image.bytes).ok()?.to_rgba8();
    let (width, height) = decoded.dimensions();
    if width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE {
        return None;
    }
    let pixels = decoded
        .as_raw()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    Some(CpuTexture {
        data: TextureData::RgbaU8(pixels),
        width,
        height,
        ..Default::default()
    })
}

/// The viewport's material for a part: the file's base colour and texture, or a neutral grey
/// that keeps the skeleton overlay readable.
fn cpu_material(
    source: Option<&crate::mesh::Material>,
    textures: &[Option<CpuTexture>],
) -> CpuMaterial {
    let Some(m) = source else {
        return CpuMaterial {
            albedo: SKIN_COLOR,
            roughness: 0.7,
            metallic: 0.0,
            ..Default::default()
        };
    };
    let [r, g, b, _] = m.base_color;
    // glTF factors are linear; three-d's albedo is sRGB.
    let to_srgb = |c: f32| (c.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0).round() as u8;
    CpuMaterial {
        albedo: Srgba::new(to_srgb(r), to_srgb(g), to_srgb(b), 255),
        albedo_texture: m
            .base_color_image
            .and_then(|i| textures.get(i).cloned().flatten()),
        roughness: m.roughness.clamp(0.05, 1.0),
        metallic: m.metallic.clamp(0.0, 1.0),
        ..Default::default()
    }
}

/// A ring of `radius` around `at` in the plane facing the camera: the handle pose mode turns a
/// joint with (dragging sideways turns it about the view axis, up and down about the
/// horizontal), drawn over everything.
fn gizmo_ring(
    context: &Context,
    at: glam::Vec3,
    radius: f32,
    view: glam::Vec3,
) -> Option<Gm<three_d::InstancedMesh, three_d::ColorMaterial>> {
    const SEGMENTS: usize = 48;
    let u = view.any_orthonormal_vector();
    let v = view.cross(u);
    let point = |k: usize| {
        let a = k as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
        let p = at + (u * a.cos() + v * a.sin()) * radius;
        vec3(p.x, p.y, p.z)
    };
    let transformations: Vec<_> = (0..SEGMENTS)
        .filter_map(|k| skeleton_overlay::cylinder_between(point(k), point(k + 1), radius * 0.03))
        .collect();
    (!transformations.is_empty()).then(|| {
        Gm::new(
            three_d::InstancedMesh::new(
                context,
                &three_d::Instances {
                    transformations,
                    ..Default::default()
                },
                &CpuMesh::cylinder(6),
            ),
            three_d::ColorMaterial {
                color: Srgba::new(90, 200, 255, 255),
                render_states: three_d::RenderStates {
                    depth_test: three_d::DepthTest::Always,
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    })
}
