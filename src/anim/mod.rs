//! Motion: clips of joint-local transforms over time, sampled from files and written back out.

mod clip;
mod transform;

pub use clip::{Clip, rest_locals};
pub use transform::Transform;
