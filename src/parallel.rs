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

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(
            super::map(&items, |i| i * 2),
            (0..1000).map(|i| i * 2).collect::<Vec<_>>()
        );
    }
}
