//! "Pause all jobs" in a daemon: `jobs_paused` in `config.toml` (the app's tray writes it) is
//! read at start and followed while the daemon runs, by checking the file's modification time
//! every tick.

use std::convert::Infallible;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use hearth_engine::{load_settings, EngineError};
use hearth_protocol::Settings;
use hearth_scheduler::{RunnerPause, RunnerSignal};

/// What to do with the runner after reading `config.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PauseChange {
    Pause,
    Resume,
    Keep,
}

/// Decides from the settings just loaded: follow `jobs_paused`, and keep the current state when
/// the file cannot be read or is invalid (half-written, or a typo the app will report).
pub fn decide(paused: bool, loaded: &Result<Settings, EngineError>) -> PauseChange {
    match loaded {
        Ok(settings) if settings.jobs_paused && !paused => PauseChange::Pause,
        Ok(settings) if !settings.jobs_paused && paused => PauseChange::Resume,
        Ok(_) => PauseChange::Keep,
        Err(_) => PauseChange::Keep,
    }
}

/// Follows `config.toml` for a runner's pause.
pub struct PauseWatch {
    config: PathBuf,
    /// The modification time and size last read (`None`: no file).
    seen: Option<(SystemTime, u64)>,
    pause: RunnerPause,
    signal: RunnerSignal,
}

impl PauseWatch {
    /// Reads `config` now and pauses `pause` if it says so; `signal` wakes the runner on resume.
    pub fn start(config: PathBuf, pause: RunnerPause, signal: RunnerSignal) -> PauseWatch {
        let mut watch = PauseWatch {
            config,
            seen: None,
            pause,
            signal,
        };
        watch.reload();
        watch
    }

    /// Re-reads the file when it changed since the last read; returns what changed.
    pub fn check(&mut self) -> PauseChange {
        if self.stamp() == self.seen {
            return PauseChange::Keep;
        }
        self.reload()
    }

    fn stamp(&self) -> Option<(SystemTime, u64)> {
        let meta = std::fs::metadata(&self.config).ok()?;
        Some((meta.modified().ok()?, meta.len()))
    }

    fn reload(&mut self) -> PauseChange {
        self.seen = self.stamp();
        let loaded = load_settings(&self.config);
        if let Err(error) = &loaded {
            tracing::warn!(%error, "config.toml unreadable; jobs stay as they were (paused or not)");
        }
        let change = decide(self.pause.is_paused(), &loaded);
        match change {
            PauseChange::Pause => {
                self.pause.set(true);
                tracing::info!("all jobs are paused (jobs_paused in config.toml): nothing runs");
            }
            PauseChange::Resume => {
                self.pause.set(false);
                self.signal.wake();
                tracing::info!("jobs resumed: missed runs run once, as catch-ups");
            }
            PauseChange::Keep => {}
        }
        change
    }

    /// Checks the file every `tick`, for as long as the daemon runs.
    pub async fn follow(mut self, tick: Duration) -> Infallible {
        loop {
            tokio::time::sleep(tick).await;
            self.check();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn settings(paused: bool) -> Result<Settings, EngineError> {
        Ok(Settings {
            jobs_paused: paused,
            ..Settings::default()
        })
    }

    #[test]
    fn the_pause_follows_the_settings_and_survives_a_broken_file() {
        use PauseChange::{Keep, Pause, Resume};
        let broken = Err(EngineError::Config("config.toml is not valid".into()));
        for (paused, loaded, expected) in [
            (false, settings(true), Pause),
            (true, settings(false), Resume),
            (true, settings(true), Keep),
            (false, settings(false), Keep),
            (true, broken, Keep),
            (false, Err(EngineError::Config("gone".into())), Keep),
        ] {
            assert_eq!(decide(paused, &loaded), expected, "{paused} {loaded:?}");
        }
    }

    /// Writes `text` and moves the modification time, as a later save would.
    fn save(path: &std::path::Path, text: &str, age_secs: u64) {
        std::fs::write(path, text).unwrap();
        let file = std::fs::File::options().write(true).open(path).unwrap();
        let at = SystemTime::now() - Duration::from_secs(age_secs);
        file.set_modified(at).unwrap();
    }

    #[test]
    fn the_watch_reads_the_file_at_start_and_again_only_once_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        save(&path, "jobs_paused = true\n", 30);
        let pause = RunnerPause::default();
        let mut watch = PauseWatch::start(path.clone(), pause.clone(), RunnerSignal::default());
        assert!(pause.is_paused(), "paused from the start");
        assert_eq!(watch.check(), PauseChange::Keep, "unchanged file");

        save(&path, "jobs_paused = false\n", 20);
        assert_eq!(watch.check(), PauseChange::Resume);
        assert!(!pause.is_paused());

        save(&path, "jobs_paused = tru\n", 10);
        assert_eq!(
            watch.check(),
            PauseChange::Keep,
            "a broken file changes nothing"
        );
        assert!(!pause.is_paused());

        save(&path, "jobs_paused = true\n", 5);
        assert_eq!(watch.check(), PauseChange::Pause);
        assert!(pause.is_paused());

        std::fs::remove_file(&path).unwrap();
        assert_eq!(watch.check(), PauseChange::Resume, "no file: the defaults");
    }
}
