//! The layer widths of each network, kept beside its record (`models/<name>.json`) so that a
//! record is always rebuilt with the shape it was trained with. The defaults are the shipped
//! networks'; the inputs' widths are fixed by their feature code and are not configurable.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::NeuralError;
use super::encoder::ShapeEncoder;
use super::joint_inputs::{JOINT_FEATURES, NEIGHBOUR_FEATURES};
use super::joint_net::JointNet;
use super::mlp::Mlp;
use super::shape::POINT_FEATURES;
use super::skin_inputs::{BONE_FEATURES, PAIR_FEATURES, VERTEX_FEATURES};
use super::skin_net::SkinNet;

/// The shape encoder: a per-point MLP, a max over points, then an MLP to the shape code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncoderConfig {
    /// Hidden widths of the per-point MLP; the last is the pooled feature's width.
    pub per_point: Vec<usize>,
    /// Hidden widths of the MLP from the pooled feature to the code.
    pub hidden: Vec<usize>,
    /// Width of the shape code.
    pub code: usize,
}

impl Default for EncoderConfig {
    fn default() -> Self {
        Self {
            per_point: vec![64, 128],
            hidden: vec![64],
            code: 32,
        }
    }
}

impl EncoderConfig {
    pub fn init(&self, device: &Device) -> ShapeEncoder {
        let pooled = self.per_point.last().copied().unwrap_or(POINT_FEATURES);
        ShapeEncoder {
            per_point: Mlp::new(&widths(POINT_FEATURES, &self.per_point, None), device),
            code: Mlp::new(&widths(pooled, &self.hidden, Some(self.code)), device),
        }
    }
}

/// The skinning head ([`SkinNet`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkinNetConfig {
    pub encoder: EncoderConfig,
    /// Hidden widths and output width of the vertex query MLP.
    pub query_hidden: Vec<usize>,
    pub query: usize,
    /// Hidden widths and output width of the bone token MLP.
    pub token_hidden: Vec<usize>,
    pub token: usize,
    /// Hidden widths of the pair scorer (its output is one logit).
    pub score_hidden: Vec<usize>,
}

impl Default for SkinNetConfig {
    fn default() -> Self {
        Self {
            encoder: EncoderConfig::default(),
            query_hidden: vec![64],
            query: 64,
            token_hidden: vec![64],
            token: 32,
            score_hidden: vec![96, 48],
        }
    }
}

impl SkinNetConfig {
    pub fn init(&self, device: &Device) -> SkinNet {
        let code = self.encoder.code;
        SkinNet {
            encoder: self.encoder.init(device),
            query: Mlp::new(
                &widths(VERTEX_FEATURES + code, &self.query_hidden, Some(self.query)),
                device,
            ),
            token: Mlp::new(
                &widths(BONE_FEATURES + code, &self.token_hidden, Some(self.token)),
                device,
            ),
            score: Mlp::new(
                &widths(
                    self.query + self.token + PAIR_FEATURES,
                    &self.score_hidden,
                    Some(1),
                ),
                device,
            ),
        }
    }
}

/// The skeleton head ([`JointNet`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointNetConfig {
    pub encoder: EncoderConfig,
    /// Width of each neighbour's feature (and of the pooled ones).
    pub hidden: usize,
}

impl Default for JointNetConfig {
    fn default() -> Self {
        Self {
            encoder: EncoderConfig::default(),
            hidden: 64,
        }
    }
}

impl JointNetConfig {
    pub fn init(&self, device: &Device) -> JointNet {
        let h = self.hidden;
        JointNet {
            encoder: self.encoder.init(device),
            neighbour: Mlp::new(&[NEIGHBOUR_FEATURES + self.encoder.code, h, h], device),
            attend: burn::nn::LinearConfig::new(h, 1).init(device),
            offset: Mlp::new(&[2 * h + JOINT_FEATURES, h, 3], device),
        }
    }
}

/// `input`, the hidden widths, and `output` when given: an MLP's layer widths.
fn widths(input: usize, hidden: &[usize], output: Option<usize>) -> Vec<usize> {
    std::iter::once(input)
        .chain(hidden.iter().copied())
        .chain(output)
        .collect()
}

/// A network's config from its JSON.
///
/// # Errors
/// [`NeuralError::Model`] naming what is wrong with the JSON.
pub fn config_from_json<C: for<'de> Deserialize<'de>>(json: &str) -> Result<C, NeuralError> {
    serde_json::from_str(json).map_err(|e| NeuralError::Model(format!("bad network config: {e}")))
}

/// A network's config as the JSON saved beside its record.
pub fn config_to_json<C: Serialize>(config: &C) -> String {
    // A config of plain numbers always serialises.
    serde_json::to_string_pretty(config).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_configs_are_the_defaults() {
        let skin: SkinNetConfig = config_from_json(super::super::SKIN_CONFIG).unwrap();
        let joints: JointNetConfig = config_from_json(super::super::JOINT_CONFIG).unwrap();
        assert_eq!(skin, SkinNetConfig::default());
        assert_eq!(joints, JointNetConfig::default());
        assert!(config_from_json::<SkinNetConfig>("{\"query\": 3}").is_err());
    }
}
