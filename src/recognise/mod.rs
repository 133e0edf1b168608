//! Body-plan recognition: which kind of creature a mesh is, so that the matching template
//! from the library can be fitted (`--template auto`). The mesh is summarised by numbers that
//! do not depend on its placement ([`describe`]), and a small network
//! ([`crate::neural::PlanNet`]) reads them.

mod choose;
mod classes;
mod descriptor;

pub use choose::{Choice, FITS, PLAUSIBLE, TRIED, choose};
pub use classes::{AUTO_CONFIDENCE, BodyClass, Recognition};
pub use descriptor::{DescribeError, FEATURES, describe, describe_samples, describe_with};
