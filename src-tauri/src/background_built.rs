//! A value first built on a thread of its own, so start-up does not wait for it; whoever needs
//! it before it is ready waits for it, and a newer value can replace it at any time.
//!
//! Used for the window's tool runner: building one reads the tools' keys (web search, image and
//! speech APIs) from the keychain, and on Linux the first read opens an encrypted Secret Service
//! session, a Diffie–Hellman exchange that took ~25 ms of the main thread before the window in a
//! release build.

use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::thread::JoinHandle;

type Build<T> = Arc<dyn Fn() -> T + Send + Sync>;

pub struct BackgroundBuilt<T> {
    current: RwLock<Option<T>>,
    /// The first build while it runs: joined by the first caller that needs the value, dropped
    /// when a newer value replaces it first.
    first: Mutex<Option<JoinHandle<T>>>,
    /// Builds the first value on the caller's thread when its own thread could not be started.
    build: Build<T>,
}

impl<T: Clone + Send + 'static> BackgroundBuilt<T> {
    /// Starts building the first value with `build` on a thread named `name`.
    pub fn start(name: &str, build: impl Fn() -> T + Send + Sync + 'static) -> Self {
        let build: Build<T> = Arc::new(build);
        let on_thread = Arc::clone(&build);
        let first = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || on_thread())
            .map_err(|error| tracing::warn!(%error, name, "built when first needed instead"))
            .ok();
        BackgroundBuilt {
            current: RwLock::new(None),
            first: Mutex::new(first),
            build,
        }
    }

    /// The current value, waiting for the first build if it is still under way.
    pub fn get(&self) -> T {
        if let Some(value) = self.peek() {
            return value;
        }
        let mut first = self.first.lock().unwrap_or_else(PoisonError::into_inner);
        // Another caller may have waited for it meanwhile.
        if let Some(value) = self.peek() {
            return value;
        }
        let value = match first.take().map(JoinHandle::join) {
            Some(Ok(value)) => value,
            // The build panicked: the panic goes on in the caller, as if it had built it.
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => (self.build)(),
        };
        self.store(value.clone());
        value
    }

    /// Replaces the value; a first build still running is forgotten.
    pub fn set(&self, value: T) {
        self.first
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        self.store(value);
    }

    fn peek(&self) -> Option<T> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn store(&self, value: T) {
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Some(value);
    }
}

#[cfg(test)]
mod tests {
    use super::BackgroundBuilt;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    /// A build that waits for the test's go-ahead, counting its runs.
    fn gated(
        value: &'static str,
    ) -> (
        BackgroundBuilt<&'static str>,
        mpsc::Sender<()>,
        Arc<AtomicUsize>,
    ) {
        let (go, wait) = mpsc::channel::<()>();
        let wait = Mutex::new(wait);
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&runs);
        let slot = BackgroundBuilt::start("test-build", move || {
            let _ = wait.lock().map(|wait| wait.recv());
            counted.fetch_add(1, Ordering::SeqCst);
            value
        });
        (slot, go, runs)
    }

    #[test]
    fn the_first_caller_waits_for_the_build_and_later_ones_reuse_it() {
        let (slot, go, runs) = gated("first");
        let slot = Arc::new(slot);
        let waiting = {
            let slot = Arc::clone(&slot);
            std::thread::spawn(move || slot.get())
        };
        go.send(()).unwrap();
        assert_eq!(waiting.join().unwrap(), "first");
        assert_eq!(slot.get(), "first");
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_value_set_while_the_first_build_runs_wins() {
        let (slot, go, runs) = gated("stale");
        slot.set("fresh");
        assert_eq!(slot.get(), "fresh");
        go.send(()).unwrap();
        assert_eq!(slot.get(), "fresh");
        assert!(runs.load(Ordering::SeqCst) <= 1);
    }

    #[test]
    fn a_value_set_after_the_build_replaces_it() {
        let (slot, go, _runs) = gated("first");
        go.send(()).unwrap();
        assert_eq!(slot.get(), "first");
        slot.set("second");
        assert_eq!(slot.get(), "second");
    }

    #[test]
    fn a_build_that_panics_panics_in_the_caller() {
        let slot: BackgroundBuilt<u8> =
            BackgroundBuilt::start("test-panic", || panic!("no runner"));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| slot.get()));
        let message = caught.unwrap_err();
        assert_eq!(message.downcast_ref::<&str>(), Some(&"no runner"));
    }
}
