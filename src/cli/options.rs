//! Options several commands share — how a rig is made, how it is written — and the value
//! checks that turn their words into typed values before any work is done.

use clap::Args;

use super::CliError;
use rigkit::Character;
use rigkit::export::{ExportOptions, OutputFormat};
use rigkit::pipeline::{Methods, RigRequest};
use rigkit::rig::BoneNames;
use rigkit::skeleton::SkeletonSource;

/// Where the skeleton comes from and which method makes each stage.
#[derive(Args)]
pub struct RigChoice {
    /// auto: the recognised body plan's library template carried on the body, else the
    /// free-form skeleton; free: the curve skeleton of the volume; humanoid (Mixamo names),
    /// quadruped, bird, chain (one line of joints for long bodies); rig-human, rig-fox,
    /// rig-horse, rig-bird, rig-dragon, rig-kaiju, rig-shark, rig-snake, rig-spider:
    /// Mesh2Motion's template carried on the body; a rigged file (carried on its body) or a
    /// BVH skeleton (adapted), names and hierarchy kept
    #[arg(long, value_name = "TEMPLATE|FILE", default_value = "auto")]
    pub template: String,
    /// best: per stage what measured better on the validation and eval sets; geometric;
    /// neural (both networks)
    #[arg(
        long = "method",
        value_name = "best|geometric|neural",
        default_value = "best"
    )]
    pub methods: Methods,
}

impl RigChoice {
    /// The request `rig_character` takes, the template read (a file is read here).
    pub fn request(&self, max_influences: usize) -> Result<RigRequest, CliError> {
        Ok(RigRequest {
            source: skeleton_source(&self.template)?,
            methods: self.methods,
            max_influences,
        })
    }
}

/// How the rigged character is written.
#[derive(Args)]
pub struct Export {
    /// Joint influences kept per vertex (glTF's JOINTS_0, or JOINTS_0 and JOINTS_1)
    #[arg(long, value_name = "4|8", default_value = "4", value_parser = influences)]
    pub max_influences: usize,
    /// Standard humanoid joint names on export (Mixamo, Unity humanoid, Unreal mannequin or
    /// VRM), so that clips and engines find them
    #[arg(long, value_name = "mixamo|unity|unreal|vrm")]
    pub bone_names: Option<BoneNames>,
    /// Add corrective morph targets (up to 32) that keep bent elbows and knees and twisted
    /// forearms from collapsing, their weights keyed in every clip
    #[arg(long)]
    pub correctives: bool,
}

impl Export {
    pub fn options(&self) -> ExportOptions {
        ExportOptions {
            max_influences: self.max_influences,
            ..ExportOptions::default()
        }
    }

    /// Renames the character's humanoid joints as `--bone-names` asks, then adds correctives
    /// if `--correctives` asks (named after the joints as written); returns how many.
    pub fn prepare(&self, character: &mut Character) -> Result<Option<usize>, CliError> {
        if let (Some(names), Some(skeleton)) = (self.bone_names, character.skeleton.as_mut()) {
            rigkit::rig::rename_humanoid(skeleton, names);
        }
        correct(character, self.correctives, self.max_influences)
    }
}

/// Adds correctives to `character` when `wanted` ([`rigkit::correctives::add_correctives`]),
/// fitted to the skinning a file with `max_influences` per vertex plays; how many targets
/// were added.
pub fn correct(
    character: &mut Character,
    wanted: bool,
    max_influences: usize,
) -> Result<Option<usize>, CliError> {
    if !wanted {
        return Ok(None);
    }
    let options = rigkit::document::fit_options(character, max_influences);
    let correctives = rigkit::correctives::add_correctives(character, &options)?;
    Ok(Some(correctives.shapes.len()))
}

/// A template's name (`auto`, `free`, ours, or one of the library's: `rig-fox`, …; see
/// [`SkeletonSource::named`]), or a file whose skeleton to adapt: a rigged
/// GLB/glTF/VRM/FBX/COLLADA file (carried on its body) or a BVH.
pub fn skeleton_source(template: &str) -> Result<SkeletonSource, CliError> {
    match SkeletonSource::named(template) {
        Ok(source) => Ok(source),
        // A word that names no template and no file: say which templates there are.
        Err(unknown) if !template.contains('.') && !std::path::Path::new(template).is_file() => {
            Err(unknown.into())
        }
        Err(_) => {
            let limits = rigkit::Limits::default();
            let bytes = rigkit::io::read_capped(std::path::Path::new(template), &limits)?;
            Ok(rigkit::read::skeleton_source(&bytes, template, &limits)?)
        }
    }
}

/// `, N corrective targets` for a command's summary line, when correctives were added.
pub fn corrective_count(added: Option<usize>) -> String {
    added.map_or(String::new(), |n| format!(", {n} corrective targets"))
}

/// An output file rigkit can write, told by its extension.
pub fn output_file(path: &str) -> Result<String, String> {
    match OutputFormat::from_file_name(path) {
        Some(_) => Ok(path.to_owned()),
        None => Err("rigkit writes .glb (the default), .fbx and .vrm files".to_owned()),
    }
}

/// 4 or 8 influences per vertex: what glTF's `JOINTS_n` sets hold.
pub fn influences(value: &str) -> Result<usize, String> {
    match value {
        "4" => Ok(4),
        "8" => Ok(8),
        _ => Err("rigkit writes 4 or 8 influences per vertex".to_owned()),
    }
}

/// A count of at least one (runs, samples, threads).
pub fn positive(value: &str) -> Result<usize, String> {
    value
        .parse()
        .ok()
        .filter(|&n: &usize| n > 0)
        .ok_or_else(|| "needs a positive whole number".to_owned())
}

/// A whole number up to `max`, for counts with a ceiling (subdivisions, jobs).
pub fn at_most<const MAX: usize>(value: &str) -> Result<usize, String> {
    value
        .parse()
        .ok()
        .filter(|&n: &usize| n <= MAX)
        .ok_or_else(|| format!("needs a whole number from 0 to {MAX}"))
}

/// A share, from 0 to 1.
pub fn share(value: &str) -> Result<f32, String> {
    value
        .parse()
        .ok()
        .filter(|s: &f32| (0.0..=1.0).contains(s))
        .ok_or_else(|| "takes a number from 0 to 1".to_owned())
}
