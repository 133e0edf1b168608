/// How a surface looks, as glTF's metallic-roughness model says it; kept from the input so the
/// viewport and the exported file show the character as its author made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub name: Option<String>,
    /// Linear RGBA multiplier of the base colour.
    pub base_color: [f32; 4],
    /// Index into [`crate::Character::images`].
    pub base_color_image: Option<usize>,
    pub metallic: f32,
    pub roughness: f32,
    /// Metalness (blue) and roughness (green) per texel.
    pub metallic_roughness_image: Option<usize>,
    /// Tangent-space normal map and its strength.
    pub normal_image: Option<usize>,
    pub normal_scale: f32,
    /// Ambient occlusion (red) and how much of it applies.
    pub occlusion_image: Option<usize>,
    pub occlusion_strength: f32,
    /// Linear RGB light the surface emits, multiplied by the emissive texture.
    pub emissive: [f32; 3],
    pub emissive_image: Option<usize>,
    pub alpha: AlphaMode,
    pub double_sided: bool,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: None,
            base_color: [0.8, 0.8, 0.8, 1.0],
            base_color_image: None,
            metallic: 0.0,
            roughness: 0.7,
            metallic_roughness_image: None,
            normal_image: None,
            normal_scale: 1.0,
            occlusion_image: None,
            occlusion_strength: 1.0,
            emissive: [0.0; 3],
            emissive_image: None,
            alpha: AlphaMode::Opaque,
            double_sided: false,
        }
    }
}

/// glTF's alpha modes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AlphaMode {
    Opaque,
    Mask { cutoff: f32 },
    Blend,
}

/// An encoded image (PNG or JPEG) as the file carried it; decoded only where it is displayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub mime_type: String,
    pub bytes: Vec<u8>,
}

impl Image {
    /// The MIME type from the bytes' signature, for PNG and JPEG (all glTF core allows).
    pub fn sniff_mime_type(bytes: &[u8]) -> Option<&'static str> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some("image/png")
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some("image/jpeg")
        } else {
            None
        }
    }
}
