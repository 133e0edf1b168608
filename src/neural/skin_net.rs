//! The skinning head: vertex–bone attention. Each vertex becomes a query (its position and
//! normal with the shape code), each joint a bone token (where its bone lies and how deep it
//! sits in the hierarchy, with the shape code); a scorer reads a query, the token of each
//! candidate bone and what relates the pair, and a softmax over the candidates gives the
//! vertex's skin weights.

use burn::module::Module;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::encoder::{EncoderConfig, ShapeEncoder};
use super::mlp::{Mlp, widths};
use super::shape::{POINT_FEATURES, SHAPE_POINTS};
use super::skin_inputs::{BONE_FEATURES, CANDIDATES, PAIR_FEATURES, SkinInputs, VERTEX_FEATURES};

/// Built by [`SkinNetConfig::init`].
#[derive(Module, Debug)]
pub struct SkinNet {
    pub(super) encoder: ShapeEncoder,
    pub(super) query: Mlp,
    pub(super) token: Mlp,
    pub(super) score: Mlp,
}

/// [`SkinInputs`] (or a subset of its vertices) as tensors on one device.
#[derive(Debug, Clone)]
pub struct SkinTensors {
    pub points: Tensor<2>,
    pub vertices: Tensor<2>,
    pub bones: Tensor<2>,
    pub candidates: Tensor<1, Int>,
    pub pairs: Tensor<2>,
    pub valid: Tensor<2>,
}

impl SkinTensors {
    /// The tensors for the vertices `rows` of `inputs` (all vertices when `None`).
    pub fn new(inputs: &SkinInputs, rows: Option<&[usize]>, device: &Device) -> Self {
        let all: Vec<usize>;
        let rows = match rows {
            Some(r) => r,
            None => {
                all = (0..inputs.vertex_count).collect();
                &all
            }
        };
        let pick = |data: &[f32], width: usize| -> Vec<f32> {
            rows.iter()
                .flat_map(|&v| data[v * width..(v + 1) * width].iter().copied())
                .collect()
        };
        let n = rows.len();
        let candidates: Vec<i32> = rows
            .iter()
            .flat_map(|&v| inputs.candidates[v * CANDIDATES..(v + 1) * CANDIDATES].iter())
            .map(|&j| j as i32)
            .collect();
        let f = |data: Vec<f32>, shape: [usize; 2]| {
            Tensor::<2>::from_data(TensorData::new(data, shape), device)
        };
        Self {
            points: f(inputs.shape.flat(), [SHAPE_POINTS, POINT_FEATURES]),
            vertices: f(
                pick(&inputs.vertices, VERTEX_FEATURES),
                [n, VERTEX_FEATURES],
            ),
            bones: f(inputs.bones.clone(), [inputs.joint_count, BONE_FEATURES]),
            candidates: Tensor::<1, Int>::from_data(
                TensorData::new(candidates, [n * CANDIDATES]),
                device,
            ),
            pairs: f(
                pick(&inputs.pairs, CANDIDATES * PAIR_FEATURES),
                [n * CANDIDATES, PAIR_FEATURES],
            ),
            valid: f(pick(&inputs.valid, CANDIDATES), [n, CANDIDATES]),
        }
    }
}

impl SkinNet {
    /// The shipped network's shape ([`SkinNetConfig::default`]).
    pub fn new(device: &Device) -> Self {
        SkinNetConfig::default().init(device)
    }

    /// Log skin weights over each vertex's candidate bones (padding gets −∞ in effect).
    ///
    /// # Shapes
    /// → `[vertices, CANDIDATES]`.
    pub fn forward(&self, x: SkinTensors) -> Tensor<2> {
        let code = self.encoder.forward(x.points); // [1, C]
        let [_, width] = code.dims();
        let [n, _] = x.vertices.dims();
        let [joints, _] = x.bones.dims();
        let with_code =
            |t: Tensor<2>, rows: usize| Tensor::cat(vec![t, code.clone().expand([rows, width])], 1);
        let query = self.query.forward(with_code(x.vertices, n)); // [n, Q]
        let tokens = self.token.forward(with_code(x.bones, joints)); // [J, T]
        let scores = self
            .score_pairs(query, tokens, x.candidates, x.pairs)
            .reshape([n, CANDIDATES]);
        // Padding slots: a large negative logit, so they get no weight.
        let masked = scores + x.valid.sub_scalar(1.0).mul_scalar(1e4);
        log_softmax(masked, 1)
    }
}

impl SkinNet {
    /// The scorer on every (vertex, candidate bone) pair: its input is the vertex's query,
    /// the bone's token and the pair's features side by side, so its first layer is the sum
    /// of the query's part (once per vertex), the token's (once per bone) and the pair's: the
    /// same logits as scoring the joined rows, for about a third of the multiplications.
    ///
    /// # Shapes
    /// `query` `[n, Q]`, `tokens` `[J, T]`, `candidates` `[n·K]`, `pairs` `[n·K, P]` → `[n·K, 1]`.
    fn score_pairs(
        &self,
        query: Tensor<2>,
        tokens: Tensor<2>,
        candidates: Tensor<1, Int>,
        pairs: Tensor<2>,
    ) -> Tensor<2> {
        let [n, q] = query.dims();
        let [_, t] = tokens.dims();
        let [_, p] = pairs.dims();
        let Some((weight, bias)) = self.score.first_layer() else {
            let query = query
                .unsqueeze_dim::<3>(1)
                .expand([n, CANDIDATES, q])
                .reshape([n * CANDIDATES, q]);
            let tokens = tokens.select(0, candidates);
            return Tensor::cat(vec![query, tokens, pairs], 1);
        };
        let [_, hidden] = weight.dims();
        let part = |start: usize, width: usize| weight.clone().narrow(0, start, width);
        let per_vertex = query.matmul(part(0, q)); // [n, H]
        let per_bone = tokens.matmul(part(q, t)); // [J, H]
        let mut first = pairs.matmul(part(q + t, p)) // [n·K, H]
            + per_bone.select(0, candidates)
            + per_vertex
                .unsqueeze_dim::<3>(1)
                .expand([n, CANDIDATES, hidden])
                .reshape([n * CANDIDATES, hidden]);
        if let Some(bias) = bias {
            first = first + bias.unsqueeze_dim(0);
        }
        self.score.forward_after_first(first)
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
