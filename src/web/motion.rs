//! Motion in the page: the motions a character can play (its own clips, generated ones, and
//! clips retargeted from dropped BVH or GLB files), and posing it at a time for playback.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::App;
use crate::Limits;
use crate::anim::{Clip, Motion, RetargetOptions, SourceMotion, procedural_clip, retarget};
use crate::io::bvh::Bvh;
use crate::rig::Skeleton;

/// One playable motion, as the motion picker lists it.
#[derive(Serialize)]
struct MotionInfo {
    name: String,
    /// `clip` for one of the character's animations (`index` says which), `procedural` for a
    /// motion that can be made for its skeleton.
    kind: &'static str,
    index: Option<usize>,
    duration: f32,
}

#[wasm_bindgen]
impl App {
    /// The character's clips and the generated motions its skeleton supports.
    pub fn motions(&self) -> Result<JsValue, JsError> {
        let mut list = Vec::new();
        if let Some(c) = &self.character
            && let Some(skeleton) = &c.skeleton
        {
            for (index, clip) in c.animations.iter().enumerate() {
                list.push(MotionInfo {
                    name: clip.name.clone(),
                    kind: "clip",
                    index: Some(index),
                    duration: clip.duration(),
                });
            }
            for motion in Motion::ALL {
                if let Ok(clip) = procedural_clip(skeleton, motion) {
                    list.push(MotionInfo {
                        name: motion.name().to_owned(),
                        kind: "procedural",
                        index: None,
                        duration: clip.duration(),
                    });
                }
            }
        }
        Ok(serde_wasm_bindgen::to_value(&list)?)
    }

    /// Makes the generated motion `name` for the character, adds it to its clips (so it is
    /// exported) and plays it; returns the clip's index.
    pub fn animate(&mut self, name: &str) -> Result<usize, JsError> {
        let skeleton = self.skeleton()?;
        let motion = Motion::from_name(name)
            .ok_or_else(|| JsError::new(&format!("'{name}' is not a motion rigkit can make")))?;
        let clip = procedural_clip(&skeleton, motion).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(self.add_clip(clip))
    }

    /// Retargets a dropped BVH capture, or the first clip of a rigged GLB/glTF/VRM, onto the
    /// character; adds and plays it; returns the clip's index.
    #[wasm_bindgen(js_name = retargetFile)]
    pub fn retarget_file(&mut self, bytes: &[u8], name: &str) -> Result<usize, JsError> {
        let skeleton = self.skeleton()?;
        let error = |e: &dyn std::fmt::Display| JsError::new(&e.to_string());
        let source = if name.to_ascii_lowercase().ends_with(".bvh") {
            let limits = Limits::default();
            if bytes.len() > limits.max_file_bytes {
                return Err(JsError::new(&format!(
                    "'{name}' is larger than {} bytes",
                    limits.max_file_bytes
                )));
            }
            let text = std::str::from_utf8(bytes)
                .map_err(|_| JsError::new(&format!("'{name}' is not a text BVH file")))?;
            let bvh = Bvh::parse(text, name).map_err(|e| error(&e))?;
            SourceMotion::from_bvh(&bvh, name.trim_end_matches(".bvh")).map_err(|e| error(&e))?
        } else {
            let other =
                crate::io::import(bytes, name, &Limits::default()).map_err(|e| error(&e))?;
            let (Some(other_skeleton), Some(clip)) = (&other.skeleton, other.animations.first())
            else {
                return Err(JsError::new(&format!(
                    "'{name}' has no animation clip to retarget"
                )));
            };
            SourceMotion::from_clip(other_skeleton, clip).map_err(|e| error(&e))?
        };
        let clip =
            retarget(&source, &skeleton, &RetargetOptions::default()).map_err(|e| error(&e))?;
        Ok(self.add_clip(clip))
    }

    /// Plays the character's clip `index` from its start.
    pub fn play(&mut self, index: usize) -> Result<f32, JsError> {
        let c = self
            .character
            .as_ref()
            .ok_or_else(|| JsError::new("no character is loaded"))?;
        let clip = c
            .animations
            .get(index)
            .ok_or_else(|| JsError::new(&format!("there is no clip {index}")))?;
        let duration = clip.duration();
        self.playing = Some(index);
        self.pose(0.0);
        Ok(duration)
    }

    /// Shows the playing clip at `time` seconds from its start: the mesh skinned, the skeleton
    /// posed. Without a clip, nothing changes.
    pub fn pose(&mut self, time: f32) {
        let (Some(index), Some(c)) = (self.playing, &self.character) else {
            return;
        };
        let (Some(skeleton), Some(_), Some(clip)) = (&c.skeleton, &c.skin, c.animations.get(index))
        else {
            return;
        };
        if !clip.fits(skeleton) {
            return;
        }
        self.time = time;
        let start = clip.times.first().copied().unwrap_or(0.0);
        let world = clip.world_at(skeleton, start + time);
        let skeleton = skeleton.clone();
        self.show_posed(&skeleton, &world);
    }

    /// Stops playback, leaves pose mode's turns and shows the rest pose.
    #[wasm_bindgen(js_name = restPose)]
    pub fn rest_pose(&mut self) {
        self.playing = None;
        self.reset_pose();
    }

    /// The vertices as last posed, flat `x, y, z, …`; empty at rest. Skinned on the CPU
    /// with the weights and matrices the viewport's shader uses.
    #[wasm_bindgen(js_name = posedPositions)]
    pub fn posed_positions(&self) -> Vec<f32> {
        self.posed_vertices()
            .unwrap_or_default()
            .iter()
            .flat_map(|p| p.to_array())
            .collect()
    }

    /// Shows the current pose skinned on the CPU (vertices and normals) instead of by the
    /// viewport's shader — the reference the GPU skinning is tested against. The next pose
    /// goes back to the GPU.
    #[wasm_bindgen(js_name = bakePose)]
    pub fn bake_pose(&mut self) -> Result<(), JsError> {
        let c = self
            .character
            .as_ref()
            .ok_or_else(|| JsError::new("no character is loaded"))?;
        if self.viewer.bake(c) {
            Ok(())
        } else {
            Err(JsError::new("nothing is posed"))
        }
    }
}

impl App {
    pub(super) fn skeleton(&self) -> Result<Skeleton, JsError> {
        self.character
            .as_ref()
            .and_then(|c| c.skeleton.clone())
            .ok_or_else(|| JsError::new("the character has no skeleton yet: rig it first"))
    }

    /// Adds `clip` to the character's animations (replacing one of the same name), starts it.
    fn add_clip(&mut self, clip: Clip) -> usize {
        let Some(c) = self.character.as_mut() else {
            return 0;
        };
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
        self.playing = Some(index);
        self.pose(0.0);
        index
    }
}
