//! `rigkit recognise FILE…`: the body plan the shipped classifier sees in each file, with
//! its confidence and the runner-up, as `--template auto` would choose.

use super::CliError;
use rigkit::compute::cpu_device;
use rigkit::neural::PlanNet;
use rigkit::recognise::BodyClass;

pub fn recognise(args: &[String]) -> Result<(), CliError> {
    if args.is_empty() {
        return Err("recognise takes one or more mesh files".into());
    }
    let device = cpu_device();
    let model = PlanNet::bundled(&device)?;
    for file in args {
        let character = super::load(file)?;
        let recognition = model.recognise_mesh(&character.mesh, &device)?;
        let mut ranked: Vec<(BodyClass, f32)> = BodyClass::ALL
            .into_iter()
            .zip(recognition.probabilities.iter().copied())
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let template = ranked[0].0.template().unwrap_or("free-form skeleton");
        out!(
            "{file}: {} {:.2} (then {} {:.2}; template {template})",
            ranked[0].0.name(),
            ranked[0].1,
            ranked[1].0.name(),
            ranked[1].1,
        );
    }
    Ok(())
}
