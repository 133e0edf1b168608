//! Trimming a vertex's influences to the strongest few: what glTF's fixed-width joint sets,
//! the viewer's shader, edits and metrics all need.

use super::Influence;

/// The `k` strongest influences, renormalised to sum to 1, strongest first.
///
/// glTF viewers read a fixed number of influences per vertex (4 per `JOINTS_n` set) and expect
/// them to sum to 1; files in the wild often break both.
/// An empty input (or one whose weights are all zero) gives an empty output.
pub fn top_influences(influences: &[Influence], k: usize) -> Vec<Influence> {
    let mut sorted: Vec<Influence> = influences
        .iter()
        .filter(|i| i.weight.is_finite() && i.weight > 0.0)
        .copied()
        .collect();
    // Merge duplicates of one joint before ranking, so a joint cannot take two slots.
    sorted.sort_by_key(|i| i.joint);
    sorted.dedup_by(|later, kept| {
        if later.joint == kept.joint {
            kept.weight += later.weight;
            true
        } else {
            false
        }
    });
    sorted.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.joint.cmp(&b.joint)));
    sorted.truncate(k);
    let total: f32 = sorted.iter().map(|i| i.weight).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    for i in &mut sorted {
        i.weight /= total;
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::JointId;

    fn inf(j: u32, weight: f32) -> Influence {
        Influence {
            joint: JointId(j),
            weight,
        }
    }

    #[test]
    fn keeps_the_strongest_and_sums_to_one() {
        let got = top_influences(
            &[
                inf(0, 0.1),
                inf(1, 0.5),
                inf(2, 0.2),
                inf(3, 0.4),
                inf(4, 0.05),
                inf(1, 0.1),
            ],
            4,
        );
        let joints: Vec<u32> = got.iter().map(|i| i.joint.0).collect();
        assert_eq!(joints, vec![1, 3, 2, 0]);
        let sum: f32 = got.iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-6);
    }

    #[test]
    fn drops_non_finite_and_empty() {
        assert!(top_influences(&[inf(0, f32::NAN), inf(1, 0.0)], 4).is_empty());
        assert_eq!(top_influences(&[inf(2, 3.0)], 4), vec![inf(2, 1.0)]);
    }
}
