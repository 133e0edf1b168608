//! Dial's bucket queue, for shortest paths through voxels (depths, geodesic skin distances).

/// Entries grouped by distance in bins of `width`. Within a bin the order is arbitrary, so an
/// entry can be settled slightly too long and is then corrected when a shorter path arrives
/// (it is pushed again); every step is at least a bin long, so nothing is ever pushed behind
/// the bin being drained. Far cheaper than a binary heap on millions of entries.
pub struct BucketQueue<T> {
    width: f32,
    bins: Vec<Vec<(f32, T)>>,
    current: usize,
}

impl<T> BucketQueue<T> {
    /// An empty queue whose bins are `width` wide (no wider than the shortest step).
    pub fn new(width: f32) -> Self {
        Self {
            width,
            bins: Vec::new(),
            current: 0,
        }
    }

    pub fn push(&mut self, distance: f32, item: T) {
        let bin = ((distance / self.width) as usize).max(self.current);
        if bin >= self.bins.len() {
            self.bins.resize_with(bin + 1, Vec::new);
        }
        self.bins[bin].push((distance, item));
    }

    /// An entry of the nearest bin not yet drained, with the distance it was pushed at.
    pub fn pop(&mut self) -> Option<(f32, T)> {
        while self.current < self.bins.len() {
            if let Some(entry) = self.bins[self.current].pop() {
                return Some(entry);
            }
            // A drained bin is never refilled; free it.
            self.bins[self.current] = Vec::new();
            self.current += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_out_bin_by_bin() {
        let mut queue = BucketQueue::new(1.0);
        for (d, v) in [(2.5, 'c'), (0.2, 'a'), (1.1, 'b'), (2.1, 'd')] {
            queue.push(d, v);
        }
        let first = queue.pop();
        assert_eq!(first, Some((0.2, 'a')));
        // Pushed behind the bin being drained: it comes out next.
        queue.push(0.5, 'e');
        let rest: Vec<char> = std::iter::from_fn(|| queue.pop().map(|(_, v)| v)).collect();
        assert_eq!(rest[..2], ['e', 'b']);
        assert_eq!(rest.len(), 4);
    }
}
