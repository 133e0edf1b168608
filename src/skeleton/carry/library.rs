//! The template library: Mesh2Motion's CC0 rig templates, each on the body it was rigged on
//! (its motion library's character; the human rig on the hand-rigged male), so that a template
//! is fitted by carrying it on its body ([`super::carry`]) and its motion library plays on
//! the result by joint name.

use crate::anim::proportions::{chibi, lower_arms};
use crate::io::ImportError;
use crate::mesh::Mesh;
use crate::rig::Skeleton;
use crate::skeleton::{TemplateBody, TemplateRig};
use crate::{Character, Limits};

/// Arms lowered from a humanoid body's T-pose by these angles (degrees): most characters come
/// in A-poses, onto which a T-posed body overlays sideways and cannot bend its arms down.
const A_POSES: [f32; 2] = [30.0, 55.0];
/// Chibi proportions of a humanoid body: its head this many times its size, its legs this
/// many times their length.
const CHIBIS: [(f32, f32); 2] = [(1.8, 0.75), (2.2, 0.5)];

/// A rigged body as its artist made it, then — for a humanoid with a skin — in the stances
/// and proportions characters come in that its own does not cover: arms lowered into A-poses
/// ([`A_POSES`]) and chibis ([`CHIBIS`]), each baked into the rest pose. A template carries
/// all of them and blends the ones that fit best ([`super::carry`]), so an A-posed or
/// big-headed mesh gets the body it resembles.
pub fn stances(character: &Character) -> Vec<(Skeleton, Mesh)> {
    let Some(skeleton) = character.skeleton.clone() else {
        return Vec::new();
    };
    // What a stance changes, without the file's images and clips.
    let body = Character {
        mesh: character.mesh.clone(),
        skeleton: Some(skeleton.clone()),
        skin: character.skin.clone(),
        ..Character::default()
    };
    let mut bodies = vec![(skeleton, character.mesh.clone())];
    let mut vary = |change: &dyn Fn(&mut Character) -> bool| {
        let mut varied = body.clone();
        if change(&mut varied)
            && let Some(skeleton) = varied.skeleton
        {
            bodies.push((skeleton, varied.mesh));
        }
    };
    for degrees in A_POSES {
        vary(&|c| lower_arms(c, degrees));
    }
    for (head, legs) in CHIBIS {
        vary(&|c| chibi(c, head, legs));
    }
    bodies
}

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
        include_bytes!("../../../models/templates/rig-human.glb"),
    ),
    (
        "rig-human",
        include_bytes!("../../../models/templates/rig-human-female.glb"),
    ),
    (
        "rig-human",
        include_bytes!("../../../models/templates/rig-human-zombie.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../../models/templates/rig-fox.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../../models/templates/rig-fox-dog.glb"),
    ),
    (
        "rig-fox",
        include_bytes!("../../../models/templates/rig-fox-horse.glb"),
    ),
    (
        "rig-horse",
        include_bytes!("../../../models/templates/rig-horse.glb"),
    ),
    (
        "rig-bird",
        include_bytes!("../../../models/templates/rig-bird.glb"),
    ),
    (
        "rig-dragon",
        include_bytes!("../../../models/templates/rig-dragon.glb"),
    ),
    (
        "rig-kaiju",
        include_bytes!("../../../models/templates/rig-kaiju.glb"),
    ),
    (
        "rig-shark",
        include_bytes!("../../../models/templates/rig-shark.glb"),
    ),
    (
        "rig-snake",
        include_bytes!("../../../models/templates/rig-snake.glb"),
    ),
    (
        "rig-spider",
        include_bytes!("../../../models/templates/rig-spider.glb"),
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
    /// first file of a name is that template on its own body; later files of the same name,
    /// and every file's humanoid [`stances`], are more bodies rigged with it
    /// ([`TemplateRig::bodies`]).
    ///
    /// # Errors
    /// The first file's [`ImportError`] that is not a rigged mesh
    /// ([`ImportError::NoSkeleton`] for one without a skeleton).
    pub fn from_files(files: &[(&str, &[u8])], limits: &Limits) -> Result<Self, ImportError> {
        let mut entries: Vec<(String, TemplateRig)> = Vec::with_capacity(files.len());
        for (name, bytes) in files {
            let character = crate::io::import(bytes, &format!("{name}.glb"), limits)?;
            let mut bodies = stances(&character).into_iter();
            let Some((skeleton, mesh)) = bodies.next() else {
                return Err(ImportError::NoSkeleton {
                    name: (*name).to_owned(),
                });
            };
            let rig = match entries.iter().position(|(n, _)| n == name) {
                Some(i) => {
                    entries[i].1.add_bodies([TemplateBody {
                        skeleton,
                        mesh,
                        stance: false,
                    }]);
                    &mut entries[i].1
                }
                None => {
                    let last = entries.len();
                    entries.push(((*name).to_owned(), TemplateRig::new(skeleton, mesh)));
                    &mut entries[last].1
                }
            };
            rig.add_bodies(bodies.map(|(skeleton, mesh)| TemplateBody {
                skeleton,
                mesh,
                stance: true,
            }));
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
            let names: std::collections::HashSet<&str> = (rig.skeleton().joints)
                .iter()
                .map(|j| j.name.as_str())
                .collect();
            n > 0
                && skeleton
                    .joints
                    .iter()
                    .all(|j| names.contains(j.name.as_str()))
                && rig.skeleton().joints.len() * 10 <= n * 11
        })
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    pub fn get(&self, name: &str) -> Option<&TemplateRig> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, r)| r)
    }
}
