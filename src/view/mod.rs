//! The 3D viewport: the character's mesh, lit, with its skeleton drawn over it, and an orbit
//! camera. Browser-free — it renders into any three-d [`Context`]; the web shell makes one from
//! a WebGL2 canvas and forwards pointer input.

mod orbit_camera;
mod skeleton_overlay;

use three_d::{
    AmbientLight, Context, CpuMaterial, CpuMesh, DirectionalLight, Gm, Indices, Mesh,
    PhysicalMaterial, Positions, RenderTarget, Srgba, vec3,
};

pub use orbit_camera::OrbitCamera;
use skeleton_overlay::SkeletonOverlay;

use crate::Character;

const BACKGROUND: [f32; 4] = [0.11, 0.12, 0.14, 1.0];
const SKIN_COLOR: Srgba = Srgba::new(186, 190, 198, 255);

/// What the viewport shows and how it is looked at.
pub struct Viewer {
    context: Context,
    camera: OrbitCamera,
    surface: Option<Gm<Mesh, PhysicalMaterial>>,
    skeleton: Option<SkeletonOverlay>,
    key_light: DirectionalLight,
    fill_light: DirectionalLight,
    ambient: AmbientLight,
}

impl Viewer {
    pub fn new(context: Context) -> Self {
        Self {
            camera: OrbitCamera::default(),
            surface: None,
            skeleton: None,
            key_light: DirectionalLight::new(&context, 2.0, Srgba::WHITE, vec3(-0.5, -1.0, -0.8)),
            fill_light: DirectionalLight::new(&context, 0.6, Srgba::WHITE, vec3(0.7, 0.3, 0.6)),
            ambient: AmbientLight::new(&context, 0.35, Srgba::WHITE),
            context,
        }
    }

    /// Replaces what is shown with `character` and frames it.
    pub fn show(&mut self, character: &Character) {
        let mesh = &character.mesh;
        let cpu_mesh = CpuMesh {
            positions: Positions::F32(mesh.positions.iter().map(|p| vec3(p.x, p.y, p.z)).collect()),
            indices: Indices::U32(mesh.triangles.iter().flatten().copied().collect()),
            normals: Some(mesh.normals.iter().map(|n| vec3(n.x, n.y, n.z)).collect()),
            ..Default::default()
        };
        let material = PhysicalMaterial::new_opaque(
            &self.context,
            &CpuMaterial {
                albedo: SKIN_COLOR,
                roughness: 0.7,
                metallic: 0.0,
                ..Default::default()
            },
        );
        self.surface = Some(Gm::new(Mesh::new(&self.context, &cpu_mesh), material));
        let bounds = mesh.bounds();
        self.skeleton = character
            .skeleton
            .as_ref()
            .map(|s| SkeletonOverlay::new(&self.context, s, bounds.diagonal()));
        self.camera.frame(&bounds);
    }

    /// Draws one frame into the default framebuffer of `width` × `height` pixels.
    pub fn render(&mut self, width: u32, height: u32) {
        let camera = self.camera.camera(width.max(1), height.max(1));
        let [r, g, b, a] = BACKGROUND;
        let target = RenderTarget::screen(&self.context, width, height);
        target.clear(three_d::ClearState::color_and_depth(r, g, b, a, 1.0));
        if let Some(surface) = &self.surface {
            target.render(
                &camera,
                surface,
                &[&self.key_light, &self.fill_light, &self.ambient],
            );
        }
        if let Some(skeleton) = &self.skeleton {
            target.render(&camera, skeleton.objects(), &[]);
        }
    }

    pub fn camera_mut(&mut self) -> &mut OrbitCamera {
        &mut self.camera
    }
}
