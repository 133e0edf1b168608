//! The motions a character can play: its own clips, generated ones, and clips retargeted
//! from dropped captures or other characters' files.

use serde::Serialize;

use super::{Change, Document, missing};
use crate::anim::{Motion, RetargetOptions, procedural_clip, retarget};
use crate::rig::Clip;
use crate::{Error, Limits};

/// Where a playable motion comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MotionKind {
    /// One of the character's animations.
    Clip,
    /// A motion that can be generated for its skeleton.
    Procedural,
}

/// One playable motion, as a motion picker lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MotionInfo {
    pub name: String,
    pub kind: MotionKind,
    /// The clip's index among the character's animations, for [`MotionKind::Clip`].
    pub index: Option<usize>,
    pub duration: f32,
}

impl Document {
    /// The character's clips, then the generated motions its skeleton supports.
    pub fn motions(&self) -> Vec<MotionInfo> {
        let mut list = Vec::new();
        let Some(c) = &self.character else {
            return list;
        };
        let Some(skeleton) = &c.skeleton else {
            return list;
        };
        for (index, clip) in c.animations.iter().enumerate() {
            list.push(MotionInfo {
                name: clip.name.clone(),
                kind: MotionKind::Clip,
                index: Some(index),
                duration: clip.duration(),
            });
        }
        for motion in Motion::ALL {
            if let Ok(clip) = procedural_clip(skeleton, motion) {
                list.push(MotionInfo {
                    name: motion.name().to_owned(),
                    kind: MotionKind::Procedural,
                    index: None,
                    duration: clip.duration(),
                });
            }
        }
        list
    }

    /// Generates the motion `name` for the skeleton, adds it to the clips (so it is exported)
    /// and plays it; returns the clip's index.
    ///
    /// # Errors
    /// When there is no skeleton, no such motion, or the skeleton lacks the parts it moves.
    pub fn animate(&mut self, name: &str) -> Result<(usize, Change), Error> {
        let motion = Motion::from_name(name)
            .ok_or_else(|| Error::State(format!("'{name}' is not a motion rigkit can make")))?;
        let clip = procedural_clip(self.rigged()?, motion)?;
        self.add_clip(clip)
    }

    /// Retargets the motion in the file `name` (a BVH capture, or the first clip of a rigged
    /// GLB/glTF/VRM) onto the skeleton; adds and plays it; returns the clip's index.
    ///
    /// # Errors
    /// When there is no skeleton, the file holds no motion, or nothing in it matches.
    pub fn retarget_file(&mut self, bytes: &[u8], name: &str) -> Result<(usize, Change), Error> {
        let skeleton = self.rigged()?;
        let source = crate::read::motion(bytes, name, 0, &Limits::default())?;
        let clip = retarget(&source, skeleton, &RetargetOptions::default())?;
        self.add_clip(clip)
    }

    /// Adds `clip` to the animations (replacing one of the same name) and starts it.
    fn add_clip(&mut self, clip: Clip) -> Result<(usize, Change), Error> {
        let c = self
            .character
            .as_mut()
            .ok_or_else(|| missing("no character is loaded"))?;
        let index = match c.animations.iter().position(|a| a.name == clip.name) {
            Some(i) => {
                c.animations[i] = clip;
                i
            }
            None => {
                c.animations.push(clip);
                c.animations.len() - 1
            }
        };
        Ok((index, self.start_clip(index)))
    }
}
