use super::JointId;

/// One joint's pull on one vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influence {
    pub joint: JointId,
    pub weight: f32,
}

/// Sparse per-vertex skin weights, any number of influences per vertex (compressed rows).
///
/// Kept as read: the importer drops non-finite and non-positive weights but does not
/// renormalise, so that checks and metrics see what the file really said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkinWeights {
    /// `offsets[v]..offsets[v + 1]` indexes `influences` for vertex `v`.
    offsets: Vec<u32>,
    influences: Vec<Influence>,
}

impl SkinWeights {
    pub fn new() -> Self {
        Self {
            offsets: vec![0],
            influences: Vec::new(),
        }
    }

    /// Appends the next vertex's influences.
    pub fn push_vertex(&mut self, influences: impl IntoIterator<Item = Influence>) {
        self.influences.extend(influences);
        self.offsets.push(self.influences.len() as u32);
    }

    /// The weights as compressed rows: per-vertex offsets (one more than vertices), and the
    /// joint index and weight of each influence — the layout embedding pages read.
    pub fn to_rows(&self) -> (Vec<u32>, Vec<u32>, Vec<f32>) {
        (
            self.offsets.clone(),
            self.influences.iter().map(|i| i.joint.0).collect(),
            self.influences.iter().map(|i| i.weight).collect(),
        )
    }

    /// The largest difference in any vertex's weight on any joint between `self` and
    /// `other` (a joint missing on one side weighs 0 there); vertices past either end count
    /// as bound to nothing.
    pub fn largest_difference(&self, other: &Self) -> f32 {
        let mut largest = 0.0f32;
        for v in 0..self.vertex_count().max(other.vertex_count()) {
            let (a, b) = (self.influences(v), other.influences(v));
            let weight_in = |row: &[Influence], joint: JointId| {
                row.iter()
                    .filter(|i| i.joint == joint)
                    .map(|i| i.weight)
                    .sum::<f32>()
            };
            for i in a.iter().chain(b) {
                largest = largest.max((weight_in(a, i.joint) - weight_in(b, i.joint)).abs());
            }
        }
        largest
    }

    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The influences on vertex `v`; empty for a vertex out of range or bound to nothing.
    pub fn influences(&self, v: usize) -> &[Influence] {
        match (self.offsets.get(v), self.offsets.get(v + 1)) {
            (Some(&a), Some(&b)) => self.influences.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// These weights extended to vertices added at edge midpoints (see
    /// [`crate::mesh::subdivide`]): each new vertex gets the mean of its two parents'
    /// influences.
    pub fn with_midpoints(&self, parents: &[[u32; 2]]) -> Self {
        let mut out = self.clone();
        for &[a, b] in parents {
            let mut merged: Vec<Influence> = Vec::new();
            for i in out
                .influences(a as usize)
                .iter()
                .chain(out.influences(b as usize))
            {
                match merged.iter_mut().find(|m| m.joint == i.joint) {
                    Some(m) => m.weight += 0.5 * i.weight,
                    None => merged.push(Influence {
                        joint: i.joint,
                        weight: 0.5 * i.weight,
                    }),
                }
            }
            out.push_vertex(merged);
        }
        out
    }

    /// How many vertices have at least one influence.
    pub fn influenced_vertex_count(&self) -> usize {
        self.offsets.windows(2).filter(|w| w[1] > w[0]).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_own_influences() {
        let mut w = SkinWeights::new();
        let inf = |j, weight| Influence {
            joint: JointId(j),
            weight,
        };
        w.push_vertex([inf(0, 0.25), inf(3, 0.75)]);
        w.push_vertex([]);
        w.push_vertex([inf(1, 1.0)]);
        assert_eq!(w.vertex_count(), 3);
        assert_eq!(w.influences(0), &[inf(0, 0.25), inf(3, 0.75)]);
        assert!(w.influences(1).is_empty());
        assert_eq!(w.influences(2), &[inf(1, 1.0)]);
        assert!(w.influences(3).is_empty());
        assert_eq!(w.influenced_vertex_count(), 2);
    }
}
