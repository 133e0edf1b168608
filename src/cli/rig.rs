//! `rigkit skin`: new weights for an existing skeleton, written as a GLB that keeps the input's
//! joints, names, bind pose and animations.

use super::CliError;
use std::time::Instant;

use rigkit::compute::cpu_device;
use rigkit::export::ExportOptions;
use rigkit::neural::Networks;
use rigkit::pipeline::{Method, Methods, RigRequest, Stage, rig_character};
use rigkit::skin::{SkinOptions, geodesic_skin};

pub fn skin(args: &[String]) -> Result<(), CliError> {
    let mut input = None;
    let mut output = None;
    let mut options = SkinOptions::default();
    let mut export = ExportOptions::default();
    let mut method = Methods::BEST.skin;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "-o" | "--output" => output = Some(value("-o")?),
            "--method" => method = value("--method")?.parse()?,
            "--resolution" => {
                let v = value("--resolution")?;
                options.resolution =
                    v.parse()
                        .ok()
                        .filter(|r| (16..=512).contains(r))
                        .ok_or(format!(
                            "--resolution: '{v}' is not a number from 16 to 512"
                        ))?;
            }
            "--max-influences" => {
                export.max_influences = influences(&value("--max-influences")?)?;
                options.max_influences = export.max_influences;
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'").into()),
            file => input = Some(file.to_owned()),
        }
    }
    let (Some(input), Some(output)) = (input, output) else {
        return Err("skin takes RIGGED.glb -o OUT.glb|OUT.fbx".into());
    };
    super::output_format(&output)?;
    if method == Method::Neural && options.resolution != SkinOptions::default().resolution {
        return Err(
            "--resolution applies to --method geometric: the skinning head reads \
                    geometric weights at the resolution it was trained with"
                .into(),
        );
    }
    let mut character = super::load(&input)?;
    let skeleton = character.skeleton.as_ref().ok_or(format!(
        "'{input}' has no skeleton to skin to; use 'rigkit rig'"
    ))?;
    let started = Instant::now();
    let skin = match method {
        Method::Geometric => geodesic_skin(&character.mesh, skeleton, &options)?,
        Method::Neural => Networks::bundled(&cpu_device())?.skin(
            &character.mesh,
            skeleton,
            options.max_influences,
        )?,
    };
    let seconds = started.elapsed().as_secs_f32();
    character.skin = Some(skin);
    super::save(&character, &export, &output)?;
    out!(
        "wrote {output}: {} vertices skinned to {} joints in {seconds:.3} s",
        character.mesh.vertex_count(),
        skeleton.joints.len()
    );
    Ok(())
}

/// `rigkit rig MESH -o OUT.glb [--template auto|free|humanoid|rig-NAME|FILE.glb|FILE.bvh]
/// [--method geometric]`: a skeleton fitted to the mesh (by default the library template of
/// the body plan recognised, else the free-form one) and skin weights for it, written as a
/// rigged GLB in the input's frame.
pub fn rig(args: &[String]) -> Result<(), CliError> {
    let mut input = None;
    let mut output = None;
    let mut export = ExportOptions::default();
    let mut template = "auto".to_owned();
    let mut methods = Methods::BEST;
    let mut bone_names = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "-o" | "--output" => output = Some(value("-o")?),
            "--template" => template = value("--template")?,
            "--method" => methods = value("--method")?.parse()?,
            "--bone-names" => bone_names = Some(value("--bone-names")?.parse()?),
            "--max-influences" => export.max_influences = influences(&value("--max-influences")?)?,
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'").into()),
            file => input = Some(file.to_owned()),
        }
    }
    let (Some(input), Some(output)) = (input, output) else {
        return Err("rig takes MESH -o OUT.glb|OUT.fbx".into());
    };
    super::output_format(&output)?;
    let mut character = super::load(&input)?;
    let request = RigRequest {
        source: skeleton_source(&template)?,
        methods,
        max_influences: export.max_influences,
    };
    let started = Instant::now();
    let mut fitted = 0.0;
    let report = rig_character(&mut character, &request, |stage| {
        if stage == Stage::Skin {
            fitted = started.elapsed().as_secs_f32();
        }
    })?;
    if let Some(recognised) = &report.recognised {
        out!("{}", describe_choice(recognised));
    }
    let total = started.elapsed().as_secs_f32();
    if let (Some(names), Some(skeleton)) = (bone_names, character.skeleton.as_mut()) {
        rigkit::rig::rename_humanoid(skeleton, names);
    }
    let joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
    super::save(&character, &export, &output)?;
    out!(
        "wrote {output}: {} vertices, {joints} joints (skeleton {fitted:.3} s, total {total:.3} s)",
        character.mesh.vertex_count(),
    );
    Ok(())
}

/// A template's name (`auto`, `free`, ours, or one of the library's: `rig-fox`, …; see
/// [`rigkit::skeleton::SkeletonSource::named`]), or a file whose skeleton to adapt: a rigged
/// GLB/glTF/VRM/FBX/COLLADA file (carried on its body) or a BVH.
pub(super) fn skeleton_source(
    template: &str,
) -> Result<rigkit::skeleton::SkeletonSource, CliError> {
    use rigkit::skeleton::SkeletonSource;
    match SkeletonSource::named(template) {
        Ok(source) => Ok(source),
        // A word that names no template and no file: say which templates there are.
        Err(unknown) if !template.contains('.') && !std::path::Path::new(template).is_file() => {
            Err(unknown.into())
        }
        Err(_) => {
            let bytes = rigkit::io::read_capped(
                std::path::Path::new(template),
                &rigkit::Limits::default(),
            )?;
            Ok(SkeletonSource::from_file(
                &bytes,
                template,
                &rigkit::Limits::default(),
            )?)
        }
    }
}

/// What `--template auto` chose, for the user: the plan, how sure, the runner-up and the
/// template fitted.
pub(super) fn describe_choice(recognised: &rigkit::pipeline::Recognised) -> String {
    use rigkit::recognise::BodyClass;
    let ranked = recognised.recognition.ranked();
    let (best, p) = ranked[0];
    let fitted = match (recognised.template, recognised.by_fit) {
        (Some(name), false) => format!("fitted {name}"),
        (Some(name), true) => format!(
            "less sure than {}, so the likeliest plans' templates were fitted: {name} as {}",
            rigkit::recognise::AUTO_CONFIDENCE,
            recognised.class.name()
        ),
        (None, true) if best != BodyClass::Other => format!(
            "free-form skeleton: less sure than {}, and no likely plan's template fitted",
            rigkit::recognise::AUTO_CONFIDENCE
        ),
        (None, _) => "free-form skeleton".to_owned(),
    };
    format!(
        "recognised {} {p:.2} (then {} {:.2}); {fitted}",
        best.name(),
        ranked[1].0.name(),
        ranked[1].1
    )
}

/// The value of `--max-influences`: 4 or 8, what glTF's `JOINTS_n` sets hold.
pub(super) fn influences(value: &str) -> Result<usize, CliError> {
    match value {
        "4" => Ok(4),
        "8" => Ok(8),
        _ => Err(format!("--max-influences: '{value}' is not 4 or 8").into()),
    }
}
