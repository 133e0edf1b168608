//! What a rig is asked for — where the skeleton comes from, how each stage is computed, how
//! many weights a vertex keeps — and the names the shells give them by.

use super::refines;
use crate::skeleton::SkeletonSource;

/// How one stage is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Skeleton: curve skeleton of the voxelised body; skin: geodesic (bone heat) weights.
    Geometric,
    /// The geometric result refined by a trained network (see [`crate::neural`]): joints of
    /// automatic skeletons moved by the skeleton head, weights from the skinning head.
    Neural,
}

crate::choice::named_choice!(Method, "method", {
    Geometric => "geometric",
    Neural => "neural",
});

/// The method of each stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Methods {
    pub skeleton: Method,
    pub skin: Method,
}

impl Methods {
    /// What measured better per stage on the validation characters and on
    /// `../shared/data/eval` (models/README.md): the networks for both — the skeleton head's
    /// joints and the skinning head's weights blended with the geometric ones.
    pub const BEST: Self = Self {
        skeleton: Method::Neural,
        skin: Method::Neural,
    };

    /// Both stages by `method`.
    pub const fn all(method: Method) -> Self {
        Self {
            skeleton: method,
            skin: method,
        }
    }

    /// Whether rigging with the template named `template` (or a skeleton file, when
    /// `skeleton_given`) by the method named `method` runs a network; unknown names run none.
    pub fn named_run_networks(template: &str, method: &str, skeleton_given: bool) -> bool {
        let source = if skeleton_given {
            Ok(SkeletonSource::Given(crate::rig::Skeleton::default()))
        } else {
            SkeletonSource::named(template)
        };
        match (method.parse::<Self>(), source) {
            (Ok(methods), Ok(source)) => methods.runs_for(&source),
            _ => false,
        }
    }

    /// Whether any learned stage runs, for a skeleton that is `automatic` (the only kind the
    /// skeleton head refines; see [`refines`]) or not.
    pub fn runs_networks(self, automatic: bool) -> bool {
        (self.skeleton == Method::Neural && automatic) || self.skin == Method::Neural
    }

    /// Whether any learned stage runs for a skeleton from `source`: recognising a body plan
    /// always does (the classifier is a network).
    pub fn runs_for(self, source: &SkeletonSource) -> bool {
        matches!(source, SkeletonSource::Recognise) || self.runs_networks(refines(source))
    }
}

impl Default for Methods {
    fn default() -> Self {
        Self::BEST
    }
}

/// `best` ([`Methods::BEST`]), `geometric` or `neural` (both stages).
impl std::str::FromStr for Methods {
    type Err = crate::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "best" => Ok(Self::BEST),
            other => other.parse().map(Self::all).map_err(|_| {
                let available = std::iter::once("best").chain(Method::NAMES.iter().copied());
                crate::UnknownName::new("method", other, available)
            }),
        }
    }
}

/// What to rig: where the skeleton comes from, how each stage is computed and how many
/// weights a vertex keeps.
#[derive(Debug, Clone)]
pub struct RigRequest {
    pub source: SkeletonSource,
    pub methods: Methods,
    /// 4 or 8: what glTF's `JOINTS_n` sets hold.
    pub max_influences: usize,
}

impl Default for RigRequest {
    fn default() -> Self {
        Self {
            source: SkeletonSource::Recognise,
            methods: Methods::BEST,
            max_influences: 4,
        }
    }
}

impl RigRequest {
    /// A request as shells receive one, by name: a template ("auto", "free", "humanoid",
    /// "rig-fox", …; see [`SkeletonSource::named`]) or, when
    /// `skeleton_file` (name and bytes) is given, that file's skeleton (a rigged GLB, glTF or
    /// VRM, or a BVH) adapted to the mesh; a method ("best", "geometric", "neural").
    ///
    /// # Errors
    /// [`crate::Error::Unknown`] for an unknown template or method, or the skeleton file's
    /// import error.
    pub fn named(
        template: &str,
        method: &str,
        max_influences: usize,
        skeleton_file: Option<(&str, &[u8])>,
    ) -> Result<Self, crate::Error> {
        let source = match skeleton_file {
            Some((name, bytes)) => {
                crate::read::skeleton_source(bytes, name, &crate::Limits::default())?
            }
            None => SkeletonSource::named(template)?,
        };
        Ok(Self {
            source,
            methods: method.parse()?,
            max_influences,
        })
    }

    /// Whether any learned stage runs for this request (the caller need not start a device
    /// otherwise).
    pub fn runs_networks(&self) -> bool {
        self.methods.runs_for(&self.source)
    }
}
