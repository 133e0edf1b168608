//! The curve skeleton of any body: level sets of geodesic distance through the voxelised body
//! ([`level_sets`]), their centres joined into a graph and turned into a joint hierarchy
//! ([`auto`]), and the path tools the templates fit along ([`curves`]).

pub(super) mod auto;
pub(super) mod curves;
pub(super) mod level_sets;
