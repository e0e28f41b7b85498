//! Work the app starts in the background that must not be cut short at exit (a chat's title, the
//! tokens of removed channels, a knowledge pass being started): tracked, and waited for at exit.

use std::future::Future;
use std::time::Duration;

use tokio_util::task::TaskTracker;

/// The longest exit waits for tracked work; what is still running then ends with the process.
pub const EXIT_GRACE: Duration = Duration::from_secs(5);

/// The app's tracked background work. Cheap to clone.
#[derive(Clone, Default)]
pub struct Tasks(TaskTracker);

impl Tasks {
    /// Runs `work` on the app's runtime, tracked until it ends.
    pub fn spawn<F>(&self, work: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.0
            .spawn_on(work, tauri::async_runtime::handle().inner());
    }

    /// Takes no more work and waits for what is running, at most `grace`; says how many were
    /// still running then.
    pub async fn finish(&self, grace: Duration) -> usize {
        self.0.close();
        match tokio::time::timeout(grace, self.0.wait()).await {
            Ok(()) => 0,
            Err(_) => self.0.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    #[tokio::test]
    async fn exit_waits_for_tracked_work_to_end() {
        let tasks = Tasks::default();
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        tasks.spawn(async move {
            let _ = wait.await;
            flag.store(true, Ordering::SeqCst);
        });
        let finishing = tokio::spawn({
            let tasks = tasks.clone();
            async move { tasks.finish(EXIT_GRACE).await }
        });
        assert!(!done.load(Ordering::SeqCst));
        go.send(()).unwrap();
        assert_eq!(finishing.await.unwrap(), 0);
        assert!(
            done.load(Ordering::SeqCst),
            "finish returned before the work ended"
        );
    }

    #[tokio::test]
    async fn exit_gives_up_on_work_that_outlives_the_grace() {
        let tasks = Tasks::default();
        tasks.spawn(std::future::pending());
        assert_eq!(tasks.finish(Duration::ZERO).await, 1);
    }
}
