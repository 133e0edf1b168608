//! Materials and their textures, as the viewer shows them and the exporter writes them back.

use std::collections::HashMap;

use super::SceneReader;
use crate::io::{InputFile, resources};
use crate::mesh::{AlphaMode, Image, Material};

impl SceneReader<'_> {
    /// Materials and the images their base colour textures use. An image that cannot be
    /// found is dropped with a warning: the geometry is what rigging needs.
    pub(super) fn materials(
        &self,
        files: &[InputFile<'_>],
        warnings: &mut Vec<String>,
    ) -> (Vec<Material>, Vec<Image>) {
        let mut images: Vec<Image> = Vec::new();
        let mut image_of: HashMap<usize, Option<usize>> = HashMap::new();
        let mut load_image = |image: gltf::Image<'_>| -> Option<usize> {
            *image_of.entry(image.index()).or_insert_with(|| {
                let bytes = match image.source() {
                    gltf::image::Source::View { view, .. } => {
                        let data = self.buffers.get(view.buffer().index())?;
                        data.get(view.offset()..view.offset().checked_add(view.length())?)
                            .map(<[u8]>::to_vec)
                    }
                    gltf::image::Source::Uri { uri, .. } => resources::resolve(uri, files).ok(),
                };
                let Some(bytes) = bytes else {
                    warnings.push(format!(
                        "image {} could not be found; its texture is left out",
                        image.index()
                    ));
                    return None;
                };
                let Some(mime) = Image::sniff_mime_type(&bytes) else {
                    warnings.push(format!(
                        "image {} is not PNG or JPEG; its texture is left out",
                        image.index()
                    ));
                    return None;
                };
                images.push(Image {
                    mime_type: mime.into(),
                    bytes,
                });
                Some(images.len() - 1)
            })
        };
        let materials = self
            .document
            .materials()
            .map(|m| {
                let pbr = m.pbr_metallic_roughness();
                Material {
                    name: m.name().map(str::to_owned),
                    base_color: pbr.base_color_factor(),
                    base_color_image: pbr
                        .base_color_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    metallic: pbr.metallic_factor(),
                    roughness: pbr.roughness_factor(),
                    metallic_roughness_image: pbr
                        .metallic_roughness_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    normal_image: m
                        .normal_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    normal_scale: m.normal_texture().map_or(1.0, |t| t.scale()),
                    occlusion_image: m
                        .occlusion_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    occlusion_strength: m.occlusion_texture().map_or(1.0, |t| t.strength()),
                    emissive: m.emissive_factor(),
                    emissive_image: m
                        .emissive_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    alpha: match m.alpha_mode() {
                        gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
                        gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                            cutoff: m.alpha_cutoff().unwrap_or(0.5),
                        },
                        gltf::material::AlphaMode::Blend => AlphaMode::Blend,
                    },
                    double_sided: m.double_sided(),
                }
            })
            .collect();
        (materials, images)
    }
}
