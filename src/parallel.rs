//! Work spread over the machine's cores where there are threads to spread it on: natively
//! through rayon's pool, in the page (no threads in wasm without cross-origin isolation) one
//! item after another.

/// `f` of every item, in order.
pub fn map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        items.iter().map(f).collect()
    }
}

/// `f` of every item with its own state (changed in place), in order: many small questions
/// that each remember their last answer. Items go to a thread at least 128 at a time: each is a
/// few microseconds of work, and handing work over costs about as much.
pub fn map_with<T: Sync, S: Send, U: Send>(
    items: &[T],
    states: &mut [S],
    f: impl Fn(&T, &mut S) -> U + Sync + Send,
) -> Vec<U> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        (items.par_iter().zip(states.par_iter_mut()))
            .with_min_len(128)
            .map(|(item, state)| f(item, state))
            .collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        items
            .iter()
            .zip(states)
            .map(|(item, state)| f(item, state))
            .collect()
    }
}

/// `a()` and `b()`, side by side where there are threads.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        rayon::join(a, b)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order_and_each_items_state() {
        let items: Vec<u32> = (0..1000).collect();
        let mut seen = vec![0u32; 1000];
        let doubled = super::map_with(&items, &mut seen, |i, s| {
            *s += i;
            i * 2
        });
        assert_eq!(doubled, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(seen, items);
    }

    #[test]
    fn keeps_the_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(
            super::map(&items, |i| i * 2),
            (0..1000).map(|i| i * 2).collect::<Vec<_>>()
        );
    }
}
