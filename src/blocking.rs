//! Native callers of the async core: the pipeline awaits its GPU read-backs so that the page
//! never blocks, and the CLI, tests and packages run the same futures to completion here.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

/// Wakes the thread that is blocked on the future.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs `future` on this thread until it completes, parking between polls. CPU read-backs
/// complete on the first poll; a device read-back wakes the thread when its data is ready.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pending once, waking itself, then ready: the executor must poll it again.
    struct Twice(bool);

    impl Future for Twice {
        type Output = u32;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if self.0 {
                return Poll::Ready(7);
            }
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    #[test]
    fn a_future_that_waits_once_completes() {
        assert_eq!(block_on(Twice(false)), 7);
        assert_eq!(block_on(async { 3 }), 3);
    }
}
