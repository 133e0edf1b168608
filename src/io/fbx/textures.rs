//! FBX's embedded textures: a `Video` object carries the image file's bytes (`Content`: raw
//! bytes in binary files, base64 text in ASCII ones) and hangs under a `Texture`, which hangs
//! under a material's colour or normal slot.

use std::collections::HashMap;

use base64::Engine;

use super::Scene;
use super::objects::Key;
use super::tree::Value;
use crate::mesh::Image;

/// A material's textures by role.
#[derive(Debug, Default, Clone, Copy)]
pub struct Maps {
    pub base_color: Option<usize>,
    pub normal: Option<usize>,
}

impl Scene<'_> {
    /// Every embedded PNG or JPEG image, and each material's maps into them.
    pub(super) fn textures(&mut self) -> (Vec<Image>, HashMap<Key, Maps>) {
        let mut images = Vec::new();
        let mut image_of: HashMap<Key, Option<usize>> = HashMap::new();
        let mut maps: HashMap<Key, Maps> = HashMap::new();
        let mut unreadable = 0usize;
        for (texture, material, slot) in self.doc.property_links() {
            let is =
                |k: &Key, class: &str| self.doc.objects.get(k).is_some_and(|o| o.class == class);
            if !is(texture, "Texture") || !is(material, "Material") {
                continue;
            }
            let image = *image_of.entry(texture.clone()).or_insert_with(|| {
                let bytes = self
                    .doc
                    .children_of(texture, "Video")
                    .iter()
                    .find_map(|v| content(self.doc.objects[*v].node))?;
                match Image::sniff_mime_type(&bytes) {
                    Some(mime) => {
                        images.push(Image {
                            mime_type: mime.to_owned(),
                            bytes,
                        });
                        Some(images.len() - 1)
                    }
                    None => {
                        unreadable += 1;
                        None
                    }
                }
            });
            let Some(image) = image else { continue };
            let entry = maps.entry(material.clone()).or_default();
            let lower = slot.to_ascii_lowercase();
            if lower.contains("normal") || lower.contains("bump") {
                entry.normal.get_or_insert(image);
            } else if lower.contains("diffuse")
                || lower.contains("basecolor")
                || lower.contains("base_color")
            {
                entry.base_color.get_or_insert(image);
            }
        }
        let external = self
            .objects_of("Texture", None)
            .into_iter()
            .filter(|t| !matches!(image_of.get(*t), Some(Some(_))))
            .count()
            .saturating_sub(unreadable);
        if external > 0 {
            self.warnings.push(format!(
                "{external} FBX textures are image files outside the FBX (not embedded): their materials keep their colours"
            ));
        }
        if unreadable > 0 {
            self.warnings.push(format!(
                "{unreadable} embedded FBX textures are not PNG or JPEG and were left out"
            ));
        }
        (images, maps)
    }
}

/// The bytes a `Video` embeds, if any. ASCII files split long content into several strings,
/// each base64 on its own (with its own padding).
fn content(video: &super::tree::Node) -> Option<Vec<u8>> {
    let node = video.find("Content")?;
    let mut chunks = Vec::new();
    for v in &node.values {
        match v {
            Value::Raw(bytes) if !bytes.is_empty() => return Some(bytes.clone()),
            Value::Str(s) if !s.trim().is_empty() => chunks.push(s.trim()),
            _ => {}
        }
    }
    let engine = base64::engine::general_purpose::STANDARD;
    let mut bytes = Vec::new();
    for chunk in &chunks {
        bytes.extend(engine.decode(chunk).ok()?);
    }
    (!bytes.is_empty()).then_some(bytes)
}
