//! The template library: Mesh2Motion's CC0 rig templates, each on the body it was rigged on
//! (its motion library's character; the human rig on the hand-rigged male), so that a template
//! is fitted by carrying it on its body ([`super::carry`]) and its motion library plays on
//! the result by joint name.

use super::TemplateRig;
use crate::Limits;
use crate::io::ImportError;
use crate::rig::Skeleton;

/// Named rigged templates.
#[derive(Debug, Clone, Default)]
pub struct Library {
    entries: Vec<(String, TemplateRig)>,
}

/// The library's files, compiled in: `models/templates/` (see its README for sources and
/// licences). A name's first file is the template on its own body, the others more bodies
/// rigged with it.
#[cfg(feature = "templates")]
const BUNDLED: [(&str, &[u8]); 13] = [
    (
        "rig-human",
        include_bytes!("../../models/templates/rig-human.glb"),
    ),
    (
        "rig-human",
        include_bytes!("../../models/templates/rig-human-female.glb"),
    ),
    (
        "rig-human",
        include_bytes!("../../models/templates/rig-human-zombie.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../models/templates/rig-fox.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../models/templates/rig-fox-dog.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../models/templates/rig-fox-horse.glb"),
    ),
    (
        "rig-horse",
        include_bytes!("../../models/templates/rig-horse.glb"),
    ),
    (
        "rig-bird",
        include_bytes!("../../models/templates/rig-bird.glb"),
    ),
    (
        "rig-dragon",
        include_bytes!("../../models/templates/rig-dragon.glb"),
    ),
    (
        "rig-kaiju",
        include_bytes!("../../models/templates/rig-kaiju.glb"),
    ),
    (
        "rig-shark",
        include_bytes!("../../models/templates/rig-shark.glb"),
    ),
    (
        "rig-snake",
        include_bytes!("../../models/templates/rig-snake.glb"),
    ),
    (
        "rig-spider",
        include_bytes!("../../models/templates/rig-spider.glb"),
    ),
];

impl Library {
    /// The library compiled into this build.
    ///
    /// # Errors
    /// A bundled file's [`ImportError`] (a broken build).
    #[cfg(feature = "templates")]
    pub fn bundled() -> Result<Self, ImportError> {
        Self::from_files(&BUNDLED, &Limits::default())
    }

    /// A library of rigged files, named as given; each must hold a skeleton and a mesh. The
    /// first file of a name is that template on its own body; later files of the same name
    /// are more bodies rigged with it ([`TemplateRig::bodies`]).
    ///
    /// # Errors
    /// The first file's [`ImportError`] that is not a rigged mesh
    /// ([`ImportError::NoSkeleton`] for one without a skeleton).
    pub fn from_files(files: &[(&str, &[u8])], limits: &Limits) -> Result<Self, ImportError> {
        let mut entries: Vec<(String, TemplateRig)> = Vec::with_capacity(files.len());
        for (name, bytes) in files {
            let character = crate::io::import(bytes, &format!("{name}.glb"), limits)?;
            let skeleton = character.skeleton.ok_or_else(|| ImportError::NoSkeleton {
                name: (*name).to_owned(),
            })?;
            match entries.iter_mut().find(|(n, _)| n == name) {
                Some((_, rig)) => rig.bodies.push((skeleton, character.mesh)),
                None => entries.push((
                    (*name).to_owned(),
                    TemplateRig::new(skeleton, character.mesh),
                )),
            }
        }
        Ok(Self { entries })
    }

    /// The bundled library, read once per process; `None` if a bundled file does not read.
    #[cfg(feature = "templates")]
    pub fn shared() -> Option<&'static Self> {
        static LIBRARY: std::sync::OnceLock<Option<Library>> = std::sync::OnceLock::new();
        LIBRARY.get_or_init(|| Self::bundled().ok()).as_ref()
    }

    /// The template whose skeleton names every joint of `skeleton` and not many more (a
    /// skeleton-only copy of a library template, such as Mesh2Motion's `rig-fox.glb`).
    pub fn matching(&self, skeleton: &Skeleton) -> Option<&TemplateRig> {
        let n = skeleton.joints.len();
        self.entries.iter().map(|(_, rig)| rig).find(|rig| {
            let names: std::collections::HashSet<&str> = rig
                .skeleton
                .joints
                .iter()
                .map(|j| j.name.as_str())
                .collect();
            n > 0
                && skeleton
                    .joints
                    .iter()
                    .all(|j| names.contains(j.name.as_str()))
                && rig.skeleton.joints.len() * 10 <= n * 11
        })
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    pub fn get(&self, name: &str) -> Option<&TemplateRig> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, r)| r)
    }
}
