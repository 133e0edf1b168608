//! Network configs as JSON, kept beside each record (`models/<name>.json`) so that a record is
//! always rebuilt with the layer widths it was trained with (each network's config lives
//! beside its module: [`super::SkinNetConfig`], [`super::JointNetConfig`]).

use serde::{Deserialize, Serialize};

use super::NeuralError;

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
    use crate::neural::{JointNetConfig, SkinNetConfig};

    #[test]
    fn the_shipped_configs_are_the_defaults() {
        let skin: SkinNetConfig = config_from_json(super::super::SKIN_CONFIG).unwrap();
        let joints: JointNetConfig = config_from_json(super::super::JOINT_CONFIG).unwrap();
        assert_eq!(skin, SkinNetConfig::default());
        assert_eq!(joints, JointNetConfig::default());
        assert!(config_from_json::<SkinNetConfig>("{\"query\": 3}").is_err());
    }
}
