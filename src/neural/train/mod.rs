//! Training the networks natively with burn's autodiff on the CPU backend: the data each head
//! learns from, the shared loop with checkpoints, loss-curve plots and int8 quantization.

pub mod corpus;
pub mod joints;
pub mod log;
pub mod plans;
pub mod plot;
pub mod quantize;
pub mod run;
pub mod skin;

pub use corpus::CorpusPlan;
pub use log::LogEntry;
pub use run::{TrainOptions, checkpoint_path, train};
