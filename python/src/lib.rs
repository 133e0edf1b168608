//! The Python package's native module, `rigkit._rigkit`: the core's rig, skin, animate,
//! convert and info on a path or bytes. Each call releases the GIL while it reads and works,
//! so threads (and Ray's workers) run side by side; every failure is raised as
//! `rigkit.RigkitError` with the core's message. `rigkit/__init__.py` is the documented API.

use std::path::PathBuf;
use std::time::Instant;

use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use rigkit::Limits;
use rigkit::blocking::block_on;
use rigkit::export::OutputFormat;
use rigkit::io::{InputFile, read_with_references};
use rigkit::pipeline::{
    MotionSource, RigRequest, StageTimes, animate_files, bundled_on_cpu, convert_files, rig_files,
    skin_files,
};
use rigkit::rig::BoneNames;

pyo3::create_exception!(
    rigkit,
    RigkitError,
    PyException,
    "A file rigkit cannot read, a rig that does not fit, or a request it cannot carry out; the message names the problem."
);

/// Any core error as the exception Python sees.
fn failed(e: impl std::fmt::Display) -> PyErr {
    RigkitError::new_err(e.to_string())
}

/// Where a model comes from: a file on disk (read with the files it refers to) or bytes
/// named by the caller (the name's extension picks the format).
enum Source {
    Path(PathBuf),
    Bytes(String, Vec<u8>),
}

impl Source {
    /// `input` is bytes, a bytearray, a str or an `os.PathLike`; `name` names bytes.
    fn of(input: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Self> {
        if let Ok(bytes) = input.cast::<PyBytes>() {
            return Ok(Self::Bytes(named(name), bytes.as_bytes().to_vec()));
        }
        if let Ok(bytes) = input.cast::<PyByteArray>() {
            return Ok(Self::Bytes(named(name), bytes.to_vec()));
        }
        input.extract::<PathBuf>().map(Self::Path).map_err(|_| {
            PyTypeError::new_err("expected a path (str or os.PathLike) or the file's bytes")
        })
    }

    /// The files to import: the model first, then what it refers to.
    fn read(self) -> PyResult<Vec<(String, Vec<u8>)>> {
        match self {
            Self::Path(path) => read_with_references(&path, &Limits::default()).map_err(failed),
            Self::Bytes(name, bytes) => Ok(vec![(name, bytes)]),
        }
    }
}

fn named(name: Option<String>) -> String {
    name.unwrap_or_else(|| "character.glb".to_owned())
}

fn influences(max_influences: usize) -> PyResult<usize> {
    match max_influences {
        4 | 8 => Ok(max_influences),
        n => Err(failed(format!("max_influences must be 4 or 8, not {n}"))),
    }
}

/// Rigs a mesh: `(glb, report_json)`. See `rigkit.rig`.
#[pyfunction]
#[pyo3(signature = (input, name, template, method, max_influences, skeleton, skeleton_name))]
#[allow(clippy::too_many_arguments)]
fn rig(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    name: Option<String>,
    template: String,
    method: String,
    max_influences: usize,
    skeleton: Option<&Bound<'_, PyAny>>,
    skeleton_name: Option<String>,
) -> PyResult<(Py<PyBytes>, String)> {
    let source = Source::of(input, name)?;
    let skeleton = skeleton
        .map(|s| Source::of(s, skeleton_name.or(Some("skeleton.glb".to_owned()))))
        .transpose()?;
    let max_influences = influences(max_influences)?;
    let (glb, report) = py.detach(move || -> PyResult<_> {
        let files = source.read()?;
        let skeleton = skeleton.map(Source::read).transpose()?;
        let skeleton_file = skeleton
            .as_ref()
            .and_then(|files| files.first())
            .map(|(name, bytes)| (name.as_str(), bytes.as_slice()));
        let request =
            RigRequest::named(&template, &method, max_influences, skeleton_file).map_err(failed)?;
        let started = Instant::now();
        let mut times = StageTimes::default();
        let clock = || started.elapsed().as_secs_f64();
        let rigged = block_on(rig_files(
            &InputFile::list(&files),
            &request,
            bundled_on_cpu,
            None,
            |stage| times.begin(stage, clock()),
        ))
        .map_err(failed)?;
        let seconds: serde_json::Map<_, _> = (times.durations(clock()).iter())
            .map(|(stage, s)| (stage.name().to_owned(), (*s).into()))
            .collect();
        let recognised = rigged.report.recognised.map(|r| {
            let (plan, confidence) = r.recognition.best();
            serde_json::json!({
                "plan": plan.name(),
                "confidence": confidence,
                "rigged_as": r.class.name(),
                "template": r.template,
                "bend": r.bend,
            })
        });
        let character = &rigged.character;
        let names = (character.skeleton.as_ref()).map_or_else(Vec::new, |s| s.names().to_vec());
        let report = serde_json::json!({
            "joints": names.len(),
            "names": names,
            "vertices": character.mesh.vertex_count(),
            "recognised": recognised,
            "seconds": seconds,
        });
        Ok((rigged.glb, report.to_string()))
    })?;
    Ok((PyBytes::new(py, &glb).unbind(), report))
}

/// New weights for the skeleton a rigged file has. See `rigkit.skin`.
#[pyfunction]
#[pyo3(signature = (input, name, method, max_influences))]
fn skin(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    name: Option<String>,
    method: String,
    max_influences: usize,
) -> PyResult<Py<PyBytes>> {
    let source = Source::of(input, name)?;
    let max_influences = influences(max_influences)?;
    let glb = py.detach(move || -> PyResult<_> {
        let method = method.parse().map_err(failed)?;
        let files = source.read()?;
        block_on(skin_files(
            &InputFile::list(&files),
            method,
            max_influences,
            bundled_on_cpu,
            |_| {},
        ))
        .map_err(failed)
    })?;
    Ok(PyBytes::new(py, &glb).unbind())
}

/// A rigged file with a motion added. See `rigkit.animate`.
#[pyfunction]
#[pyo3(signature = (input, name, motion, motion_name, max_influences))]
fn animate(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    name: Option<String>,
    motion: &Bound<'_, PyAny>,
    motion_name: Option<String>,
    max_influences: usize,
) -> PyResult<Py<PyBytes>> {
    let source = Source::of(input, name)?;
    let max_influences = influences(max_influences)?;
    // A str without a dot is a generated motion's name; anything else is a capture file.
    let generated = motion
        .extract::<String>()
        .ok()
        .filter(|m| !m.contains('.') && !m.contains('/'));
    let capture = match generated {
        Some(_) => None,
        None => Some(Source::of(
            motion,
            motion_name.or(Some("motion.bvh".to_owned())),
        )?),
    };
    let glb = py.detach(move || -> PyResult<_> {
        let files = source.read()?;
        let capture = capture.map(Source::read).transpose()?;
        let motion = match (&generated, &capture) {
            (Some(name), _) => MotionSource::Named(name),
            (None, Some(files)) => {
                let (name, bytes) = files.first().ok_or_else(|| failed("no motion file"))?;
                MotionSource::File(InputFile { name, bytes })
            }
            (None, None) => return Err(failed("no motion given")),
        };
        animate_files(&InputFile::list(&files), motion, max_influences).map_err(failed)
    })?;
    Ok(PyBytes::new(py, &glb).unbind())
}

/// A rigged file written in another format. See `rigkit.convert`.
#[pyfunction]
#[pyo3(signature = (input, name, format, bone_names, max_influences, correctives))]
fn convert(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    name: Option<String>,
    format: String,
    bone_names: Option<String>,
    max_influences: usize,
    correctives: bool,
) -> PyResult<Py<PyBytes>> {
    let source = Source::of(input, name)?;
    let max_influences = influences(max_influences)?;
    let format: OutputFormat = format.parse().map_err(failed)?;
    let bone_names: Option<BoneNames> =
        bone_names.map(|n| n.parse().map_err(failed)).transpose()?;
    let bytes = py.detach(move || -> PyResult<_> {
        let files = source.read()?;
        let files = InputFile::list(&files);
        convert_files(&files, format, max_influences, bone_names, correctives).map_err(failed)
    })?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// What a file holds, as JSON (the CLI's `info --json`). See `rigkit.info`.
#[pyfunction]
#[pyo3(signature = (input, name))]
fn info(py: Python<'_>, input: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<String> {
    let source = Source::of(input, name)?;
    py.detach(move || -> PyResult<_> {
        let files = source.read()?;
        let character = rigkit::io::import_files(&InputFile::list(&files), &Limits::default())
            .map_err(failed)?;
        serde_json::to_string(&character.info()).map_err(failed)
    })
}

#[pymodule]
fn _rigkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RigkitError", m.py().get_type::<RigkitError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(rig, m)?)?;
    m.add_function(wrap_pyfunction!(skin, m)?)?;
    m.add_function(wrap_pyfunction!(animate, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    Ok(())
}
