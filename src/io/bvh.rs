//! BVH motion capture files (Biovision Hierarchy): a joint hierarchy with offsets and channel
//! orders, then frames of channel values. Used for motion and as skeleton templates.
//!
//! Rotations are Euler angles in degrees, applied in the order the channels are listed (the
//! first listed is the outermost: `Zrotation Xrotation Yrotation` means `Rz · Rx · Ry`).

use glam::{Mat4, Quat, Vec3};

use crate::rig::{Joint, JointId, Skeleton, forward_kinematics};

/// Caps that keep a hostile file from exhausting memory.
const MAX_JOINTS: usize = 1024;
const MAX_VALUES: usize = 64 * 1024 * 1024;

/// One animated degree of freedom of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    XPosition,
    YPosition,
    ZPosition,
    XRotation,
    YRotation,
    ZRotation,
}

/// A joint of the BVH hierarchy; `end_site` is the offset of its tip, if the file gives one.
#[derive(Debug, Clone, PartialEq)]
pub struct BvhJoint {
    pub name: String,
    pub parent: Option<usize>,
    pub offset: Vec3,
    pub channels: Vec<Channel>,
    pub end_site: Option<Vec3>,
}

/// A parsed BVH file.
#[derive(Debug, Clone, PartialEq)]
pub struct Bvh {
    /// Parents before children, in file order.
    pub joints: Vec<BvhJoint>,
    /// Seconds per frame.
    pub frame_time: f32,
    /// `frame_count × channel_count` values, frame-major.
    pub values: Vec<f32>,
    pub channel_count: usize,
}

/// Why a BVH file could not be read, with the line it was found on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("'{name}' is not a valid BVH file: line {line}: {reason}")]
pub struct BvhError {
    pub name: String,
    pub line: usize,
    pub reason: String,
}

struct Tokens<'a> {
    words: Vec<(usize, &'a str)>,
    at: usize,
    name: &'a str,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str, name: &'a str) -> Self {
        let words = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)))
            .collect();
        Self { words, at: 0, name }
    }

    fn line(&self) -> usize {
        self.words
            .get(self.at.min(self.words.len().saturating_sub(1)))
            .map_or(0, |w| w.0)
    }

    fn error(&self, reason: impl Into<String>) -> BvhError {
        BvhError {
            name: self.name.into(),
            line: self.line(),
            reason: reason.into(),
        }
    }

    fn next(&mut self) -> Result<&'a str, BvhError> {
        let word = self
            .words
            .get(self.at)
            .map(|w| w.1)
            .ok_or_else(|| self.error("unexpected end of file"))?;
        self.at += 1;
        Ok(word)
    }

    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).map(|w| w.1)
    }

    fn expect(&mut self, word: &str) -> Result<(), BvhError> {
        let got = self.next()?;
        if got.eq_ignore_ascii_case(word) {
            Ok(())
        } else {
            self.at -= 1;
            Err(self.error(format!("expected '{word}', found '{got}'")))
        }
    }

    fn number(&mut self) -> Result<f32, BvhError> {
        let word = self.next()?;
        match word.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => {
                self.at -= 1;
                Err(self.error(format!("'{word}' is not a finite number")))
            }
        }
    }

    fn vec3(&mut self) -> Result<Vec3, BvhError> {
        Ok(Vec3::new(self.number()?, self.number()?, self.number()?))
    }
}

impl Bvh {
    /// Parses the text of a BVH file named `name`.
    pub fn parse(text: &str, name: &str) -> Result<Self, BvhError> {
        let mut t = Tokens::new(text, name);
        if t.peek().is_none() {
            return Err(t.error("the file is empty"));
        }
        t.expect("HIERARCHY")?;
        let mut joints = Vec::new();
        while t.peek().is_some_and(|w| w.eq_ignore_ascii_case("ROOT")) {
            t.next()?;
            parse_joint(&mut t, None, &mut joints)?;
        }
        if joints.is_empty() {
            return Err(t.error("no ROOT joint"));
        }
        t.expect("MOTION")?;
        t.expect("Frames:")?;
        let frames_word = t.next()?;
        let frames: usize = frames_word
            .parse()
            .map_err(|_| t.error(format!("'{frames_word}' is not a frame count")))?;
        t.expect("Frame")?;
        t.expect("Time:")?;
        let frame_time = t.number()?;
        if frame_time <= 0.0 {
            return Err(t.error("the frame time must be positive"));
        }
        let channel_count: usize = joints.iter().map(|j: &BvhJoint| j.channels.len()).sum();
        let total = frames
            .checked_mul(channel_count)
            .filter(|&n| n <= MAX_VALUES)
            .ok_or_else(|| t.error(format!("{frames} frames is more than rigkit reads")))?;
        let mut values = Vec::with_capacity(total);
        for _ in 0..total {
            values.push(t.number()?);
        }
        if t.peek().is_some() {
            return Err(t.error("more values than frames × channels"));
        }
        Ok(Self {
            joints,
            frame_time,
            values,
            channel_count,
        })
    }

    pub fn frame_count(&self) -> usize {
        self.values
            .len()
            .checked_div(self.channel_count)
            .unwrap_or(0)
    }

    /// The rest pose as a skeleton: offsets accumulated, no rotation. End sites become leaf
    /// joints named `<parent>_end`, so limb tips have a position.
    pub fn to_skeleton(&self) -> Skeleton {
        let mut joints: Vec<Joint> = Vec::with_capacity(self.joints.len() * 2);
        let mut id_of = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let parent = j.parent.and_then(|p| id_of.get(p).copied());
            let base = parent.map_or(Mat4::IDENTITY, |p: JointId| joints[p.index()].world_bind);
            let id = JointId(joints.len() as u32);
            let world = base * Mat4::from_translation(j.offset);
            joints.push(Joint {
                name: j.name.clone(),
                parent,
                world_bind: world,
            });
            id_of.push(id);
            if let Some(tip) = j.end_site {
                joints.push(Joint {
                    name: format!("{}_end", j.name),
                    parent: Some(id),
                    world_bind: world * Mat4::from_translation(tip),
                });
            }
        }
        // End sites were pushed right after their joint, before later siblings' children,
        // which keeps parents first.
        Skeleton { joints }
    }

    /// World transforms of the BVH joints (not end sites) at `frame`; `None` past the end.
    pub fn world_transforms(&self, frame: usize) -> Option<Vec<Mat4>> {
        let start = frame.checked_mul(self.channel_count)?;
        let values = self.values.get(start..start + self.channel_count)?;
        let mut at = 0;
        let mut locals = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let mut translation = j.offset;
            let mut rotation = Quat::IDENTITY;
            for (channel, value) in j.channels.iter().zip(&values[at..]) {
                match channel {
                    Channel::XPosition => translation.x = *value,
                    Channel::YPosition => translation.y = *value,
                    Channel::ZPosition => translation.z = *value,
                    Channel::XRotation => rotation *= Quat::from_rotation_x(value.to_radians()),
                    Channel::YRotation => rotation *= Quat::from_rotation_y(value.to_radians()),
                    Channel::ZRotation => rotation *= Quat::from_rotation_z(value.to_radians()),
                }
            }
            at += j.channels.len();
            locals.push(Mat4::from_rotation_translation(rotation, translation));
        }
        let count = self.joints.len();
        Some(forward_kinematics(
            count,
            0..count,
            |j| self.joints[j].parent,
            |j, parent| parent * locals[j],
        ))
    }
}

fn parse_joint(
    t: &mut Tokens<'_>,
    parent: Option<usize>,
    joints: &mut Vec<BvhJoint>,
) -> Result<(), BvhError> {
    if joints.len() >= MAX_JOINTS {
        return Err(t.error(format!("more than {MAX_JOINTS} joints")));
    }
    let name = t.next()?.to_owned();
    t.expect("{")?;
    t.expect("OFFSET")?;
    let offset = t.vec3()?;
    let mut channels = Vec::new();
    if t.peek().is_some_and(|w| w.eq_ignore_ascii_case("CHANNELS")) {
        t.next()?;
        let count_word = t.next()?;
        let count: usize = count_word
            .parse()
            .ok()
            .filter(|&n| n <= 6)
            .ok_or_else(|| t.error(format!("'{count_word}' is not a channel count (0–6)")))?;
        for _ in 0..count {
            let word = t.next()?;
            channels.push(match word.to_ascii_lowercase().as_str() {
                "xposition" => Channel::XPosition,
                "yposition" => Channel::YPosition,
                "zposition" => Channel::ZPosition,
                "xrotation" => Channel::XRotation,
                "yrotation" => Channel::YRotation,
                "zrotation" => Channel::ZRotation,
                _ => {
                    t.at -= 1;
                    return Err(t.error(format!("unknown channel '{word}'")));
                }
            });
        }
    }
    let index = joints.len();
    joints.push(BvhJoint {
        name,
        parent,
        offset,
        channels,
        end_site: None,
    });
    loop {
        let word = t.next()?;
        match word.to_ascii_uppercase().as_str() {
            "JOINT" => parse_joint(t, Some(index), joints)?,
            "END" => {
                t.expect("Site")?;
                t.expect("{")?;
                t.expect("OFFSET")?;
                joints[index].end_site = Some(t.vec3()?);
                t.expect("}")?;
            }
            "}" => return Ok(()),
            _ => {
                t.at -= 1;
                return Err(t.error(format!(
                    "unexpected '{word}' in joint '{}'",
                    joints[index].name
                )));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_JOINTS: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
0 90 0 0 0 0 0 0 0
1 90 0 90 0 0 0 0 0
";

    #[test]
    fn parses_hierarchy_channels_and_frames() {
        let bvh = Bvh::parse(TWO_JOINTS, "t.bvh").unwrap();
        assert_eq!(bvh.joints.len(), 2);
        assert_eq!(bvh.joints[1].parent, Some(0));
        assert_eq!(bvh.channel_count, 9);
        assert_eq!(bvh.frame_count(), 2);
        assert_eq!(bvh.frame_time, 0.5);
        let skeleton = bvh.to_skeleton();
        let names: Vec<&str> = skeleton.joints.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["Hips", "Spine", "Spine_end"]);
        assert_eq!(skeleton.joints[2].position(), Vec3::new(0.0, 15.0, 0.0));
    }

    #[test]
    fn channels_pose_the_hierarchy() {
        let bvh = Bvh::parse(TWO_JOINTS, "t.bvh").unwrap();
        let rest = bvh.world_transforms(0).unwrap();
        assert!((rest[1].w_axis.truncate() - Vec3::new(0.0, 100.0, 0.0)).length() < 1e-4);
        // Frame 1 turns the root 90° about Z: the spine, 10 up, now points to -X.
        let posed = bvh.world_transforms(1).unwrap();
        let spine = posed[1].w_axis.truncate();
        assert!(
            (spine - Vec3::new(-9.0, 90.0, 0.0)).length() < 1e-4,
            "{spine}"
        );
        assert!(bvh.world_transforms(2).is_none());
    }

    #[test]
    fn broken_files_name_the_line() {
        let cut = &TWO_JOINTS[..TWO_JOINTS.len() - 10];
        let err = Bvh::parse(cut, "cut.bvh").unwrap_err();
        assert!(err.to_string().contains("cut.bvh"), "{err}");
        let err = Bvh::parse(
            &TWO_JOINTS.replace(
                "Zrotation Xrotation Yrotation\n    End",
                "Wobble Xrotation Yrotation\n    End",
            ),
            "w.bvh",
        )
        .unwrap_err();
        assert_eq!(err.line, 9, "{err}");
        for n in 0..TWO_JOINTS.len() {
            let _ = Bvh::parse(&TWO_JOINTS[..n], "prefix.bvh");
        }
        let huge = TWO_JOINTS.replace("Frames: 2", "Frames: 99999999999");
        assert!(Bvh::parse(&huge, "huge.bvh").is_err());
    }
}
