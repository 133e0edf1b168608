//! Explicit caps on what an input may contain, so that a hostile or broken file gets a clear
//! error instead of exhausting memory (which in a browser tab means a crash).

/// Most morph targets (blend shapes) a character may carry: faces carry tens, and each costs
/// a vertex buffer.
pub const MAX_MORPH_TARGETS: usize = 256;

/// Upper bounds checked while importing, before anything large is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Size of one input file in bytes.
    pub max_file_bytes: usize,
    /// Vertices of the whole character, all primitives together.
    pub max_vertices: usize,
    /// Triangles of the whole character.
    pub max_triangles: usize,
    /// Joints of the skeleton.
    pub max_joints: usize,
    /// Scene graph nodes.
    pub max_nodes: usize,
    /// Joint transforms kept over all animation clips (frames × joints); longer clips are
    /// resampled to fit.
    pub max_animation_keys: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_file_bytes: 512 * 1024 * 1024,
            max_vertices: 2_000_000,
            max_triangles: 4_000_000,
            max_joints: 1024,
            max_nodes: 100_000,
            max_animation_keys: 4_000_000,
        }
    }
}
