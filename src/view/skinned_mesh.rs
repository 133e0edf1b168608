//! The character's surface, skinned on the GPU: vertices, normals and influences are uploaded
//! once, and a pose only uploads one matrix per joint — so playing a motion or turning a joint
//! costs the same for 5k vertices as for 500k.

use std::cell::RefCell;
use std::rc::Rc;

use three_d::{
    AxisAlignedBoundingBox, Context, Effect, ElementBuffer, Geometry, GeometryId, Interpolation,
    Light, Material, Program, RenderStates, Srgba, Texture2D, Vec2, Vec3, Vec4, VertexBuffer,
    Viewer, Wrapping, render_with_effect, render_with_material, vec2, vec3, vec4,
};

use crate::anim::{PACKED_INFLUENCES, PackedInfluences, skinning_texels};

/// The vertex data every part of the surface draws from, and the joints' skinning matrices.
pub struct SkinnedVertices {
    context: Context,
    positions: VertexBuffer<Vec3>,
    /// Each vertex's corrective offset in the pose shown (zero without correctives).
    shape: RefCell<VertexBuffer<Vec3>>,
    normals: VertexBuffer<Vec3>,
    uvs: Option<VertexBuffer<Vec2>>,
    colors: Option<RefCell<VertexBuffer<Vec4>>>,
    /// Joint indices and weights, slots 0–3 and 4–7.
    joints: [VertexBuffer<Vec4>; 2],
    weights: [VertexBuffer<Vec4>; 2],
    /// One row of four RGBA32F texels (a column-major matrix) per joint.
    skinning: Texture2D,
}

/// What the surface is drawn from, in the mesh's bind pose.
pub struct SurfaceData<'a> {
    pub positions: &'a [glam::Vec3],
    pub normals: &'a [glam::Vec3],
    pub uvs: Option<&'a [glam::Vec2]>,
    pub colors: Option<&'a [Srgba]>,
    pub influences: &'a PackedInfluences,
    /// Joints the influences index (at least one row is kept).
    pub joint_count: usize,
}

impl SkinnedVertices {
    /// Uploads `data`, every joint at its bind pose (identity skinning).
    pub fn new(context: &Context, data: &SurfaceData) -> Self {
        let to_vec3 = |p: &glam::Vec3| vec3(p.x, p.y, p.z);
        let half = |rows: &[[f32; PACKED_INFLUENCES]], k: usize| -> Vec<Vec4> {
            rows.iter()
                .map(|r| vec4(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]))
                .collect()
        };
        let buffer = |data: Vec<Vec4>| VertexBuffer::new_with_data(context, &data);
        let influences = data.influences;
        let rows = data.joint_count.max(1) as u32;
        let vertices = Self {
            positions: VertexBuffer::new_with_data(
                context,
                &data.positions.iter().map(to_vec3).collect::<Vec<_>>(),
            ),
            shape: RefCell::new(VertexBuffer::new_with_data(
                context,
                &vec![vec3(0.0, 0.0, 0.0); data.positions.len()],
            )),
            normals: VertexBuffer::new_with_data(
                context,
                &data.normals.iter().map(to_vec3).collect::<Vec<_>>(),
            ),
            // three-d's materials sample with v pointing down.
            uvs: data.uvs.map(|uvs| {
                let flipped: Vec<Vec2> = uvs.iter().map(|t| vec2(t.x, 1.0 - t.y)).collect();
                VertexBuffer::new_with_data(context, &flipped)
            }),
            colors: data.colors.map(|colors| {
                let linear: Vec<Vec4> = colors.iter().map(Srgba::to_linear_srgb).collect();
                RefCell::new(VertexBuffer::new_with_data(context, &linear))
            }),
            joints: [
                buffer(half(&influences.joints, 0)),
                buffer(half(&influences.joints, 1)),
            ],
            weights: [
                buffer(half(&influences.weights, 0)),
                buffer(half(&influences.weights, 1)),
            ],
            skinning: Texture2D::new_empty::<[f32; 4]>(
                context,
                4,
                rows,
                Interpolation::Nearest,
                Interpolation::Nearest,
                None,
                Wrapping::ClampToEdge,
                Wrapping::ClampToEdge,
            ),
            context: context.clone(),
        };
        vertices.set_skinning(&vec![glam::Mat4::IDENTITY; rows as usize]);
        vertices
    }

    /// Poses the surface: `skinning[j]` is joint `j`'s posed world transform times its inverse
    /// bind matrix. Missing joints stay at bind; extra matrices are ignored.
    pub fn set_skinning(&self, skinning: &[glam::Mat4]) {
        let rows = self.skinning.height() as usize;
        self.skinning.fill(&skinning_texels(skinning, rows));
    }

    /// Repaints the vertex colours in place; `false` when the surface was built without them
    /// or `colors` does not have one per vertex.
    pub fn set_colors(&self, colors: &[Srgba]) -> bool {
        let Some(buffer) = &self.colors else {
            return false;
        };
        if colors.len() != self.positions.vertex_count() as usize {
            return false;
        }
        let linear: Vec<Vec4> = colors.iter().map(Srgba::to_linear_srgb).collect();
        buffer.borrow_mut().fill(&linear);
        true
    }

    /// Moves each vertex by `offsets` before skinning (the corrective shapes in the pose
    /// shown); empty puts every vertex back at its bind position.
    pub fn set_shape(&self, offsets: &[glam::Vec3]) {
        let n = self.positions.vertex_count() as usize;
        let shape: Vec<Vec3> = match offsets.len() == n {
            true => offsets.iter().map(|p| vec3(p.x, p.y, p.z)).collect(),
            false => vec![vec3(0.0, 0.0, 0.0); n],
        };
        self.shape.borrow_mut().fill(&shape);
    }
}

/// One part of the surface (one material's triangles) over the shared [`SkinnedVertices`].
pub struct SkinnedPart {
    vertices: Rc<SkinnedVertices>,
    indices: ElementBuffer<u32>,
}

impl SkinnedPart {
    pub fn new(vertices: Rc<SkinnedVertices>, indices: &[u32]) -> Self {
        let indices = ElementBuffer::new_with_data(&vertices.context, indices);
        Self { vertices, indices }
    }
}

/// Our geometry's shader ids, in three-d's public range; bit 0: UVs, bit 1: colours.
const SKINNED_MESH_ID: u16 = 0x0100;

impl Geometry for SkinnedPart {
    fn draw(&self, viewer: &dyn Viewer, program: &Program, render_states: RenderStates) {
        let v = &*self.vertices;
        program.use_uniform("viewProjection", viewer.projection() * viewer.view());
        program.use_texture("skinningMatrices", &v.skinning);
        program.use_vertex_attribute("position", &v.positions);
        if program.requires_attribute("shape") {
            program.use_vertex_attribute("shape", &v.shape.borrow());
        }
        if program.requires_attribute("normal") {
            program.use_vertex_attribute("normal", &v.normals);
        }
        for (name, buffer) in [
            ("joints0", &v.joints[0]),
            ("joints1", &v.joints[1]),
            ("weights0", &v.weights[0]),
            ("weights1", &v.weights[1]),
        ] {
            if program.requires_attribute(name) {
                program.use_vertex_attribute(name, buffer);
            }
        }
        if let Some(uvs) = v
            .uvs
            .as_ref()
            .filter(|_| program.requires_attribute("uv_coordinates"))
        {
            program.use_vertex_attribute("uv_coordinates", uvs);
        }
        if let Some(colors) = v
            .colors
            .as_ref()
            .filter(|_| program.requires_attribute("color"))
        {
            program.use_vertex_attribute("color", &colors.borrow());
        }
        program.draw_elements(render_states, viewer.viewport(), &self.indices);
    }

    fn vertex_shader_source(&self) -> String {
        let v = &*self.vertices;
        format!(
            "{}{}{}",
            if v.uvs.is_some() {
                "#define USE_UVS\n"
            } else {
                ""
            },
            if v.colors.is_some() {
                "#define USE_VERTEX_COLORS\n"
            } else {
                ""
            },
            include_str!("shaders/skinned_mesh.vert"),
        )
    }

    fn id(&self) -> GeometryId {
        let v = &*self.vertices;
        GeometryId(
            SKINNED_MESH_ID | u16::from(v.uvs.is_some()) | (u16::from(v.colors.is_some()) << 1),
        )
    }

    fn render_with_material(
        &self,
        material: &dyn Material,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
    ) {
        // Only a shader that fails to compile errs, which is a bug in this crate.
        if let Err(e) = render_with_material(&self.vertices.context, viewer, self, material, lights)
        {
            panic!("the skinned mesh shader failed: {e}");
        }
    }

    fn render_with_effect(
        &self,
        effect: &dyn Effect,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
        color_texture: Option<three_d::ColorTexture>,
        depth_texture: Option<three_d::DepthTexture>,
    ) {
        if let Err(e) = render_with_effect(
            &self.vertices.context,
            viewer,
            self,
            effect,
            lights,
            color_texture,
            depth_texture,
        ) {
            panic!("the skinned mesh shader failed: {e}");
        }
    }

    /// Posed vertices can be anywhere, so the surface is never culled.
    fn aabb(&self) -> AxisAlignedBoundingBox {
        AxisAlignedBoundingBox::INFINITE
    }
}
