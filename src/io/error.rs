/// Why a file could not be imported. Each message names the file and says what is wrong in
/// words a user can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    #[error("'{name}' is empty")]
    Empty { name: String },

    /// A file on disk that cannot be read (missing, a folder, no permission).
    #[error("cannot read '{path}': {reason}")]
    Unreadable { path: String, reason: String },

    #[error("'{name}' is {bytes} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        name: String,
        bytes: usize,
        limit: usize,
    },

    #[error(
        "'{name}' is not a file rigkit can read (extension '{extension}'); supported formats: .glb, .gltf (with its .bin files), .vrm, .fbx, .dae, .obj, and .bvh for skeletons and motion"
    )]
    UnsupportedFormat { name: String, extension: String },

    #[error("'{name}' is not a valid glTF/GLB file: {reason}")]
    Malformed { name: String, reason: String },

    #[error("'{name}' is not a valid FBX file: {reason}")]
    Fbx { name: String, reason: String },

    #[error("'{name}' is not a valid COLLADA file: {reason}")]
    Collada { name: String, reason: String },

    #[error("'{name}' needs the glTF extension {extension}, which is not supported yet{hint}")]
    UnsupportedExtension {
        name: String,
        extension: String,
        hint: &'static str,
    },

    #[error("'{name}' refers to the external file '{uri}', which was not given with it")]
    MissingExternalFile { name: String, uri: String },

    #[error("'{name}' has bad data in {place}: {reason}")]
    BadData {
        name: String,
        place: String,
        reason: String,
    },

    #[error("'{name}' has a non-finite (NaN or infinite) position at vertex {vertex} of {place}")]
    NonFinitePosition {
        name: String,
        place: String,
        vertex: usize,
    },

    #[error("'{name}' has {count} {what}, more than the limit of {limit}")]
    TooMany {
        name: String,
        what: &'static str,
        count: usize,
        limit: usize,
    },

    #[error("'{name}' contains no triangles to rig")]
    NoTriangles { name: String },
    #[error("'{name}' has no skeleton (no skin lists any joints)")]
    NoSkeleton { name: String },

    #[error(
        "'{name}' is a motion capture (BVH): a skeleton and its motion, no mesh to rig; load a character and retarget the capture onto it"
    )]
    MotionOnly { name: String },

    #[error("'{name}' is not a text {format} file")]
    NotText { name: String, format: &'static str },

    #[error(transparent)]
    Bvh(#[from] super::bvh::BvhError),

    #[error("'{name}' has no extent: all of its vertices are at one point")]
    Degenerate { name: String },
}

impl ImportError {
    /// [`ImportError::TooMany`] when `name` has `count` of `what`, more than `limit`.
    pub(crate) fn at_most(
        name: &str,
        what: &'static str,
        count: usize,
        limit: usize,
    ) -> Result<(), Self> {
        if count > limit {
            return Err(Self::TooMany {
                name: name.into(),
                what,
                count,
                limit,
            });
        }
        Ok(())
    }
}
