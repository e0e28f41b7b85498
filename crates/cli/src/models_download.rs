//! `hearth-cli models download SOURCE [--file NAME] [--sha256 HEX]`: a model from a URL or a
//! Hugging Face repository into the models folder, through the network guard (the settings'
//! `allow_local_hosts`), with a progress line on stderr about every 10 % and the partial file
//! deleted on Ctrl-C.

use hearth_core::DataDir;
use hearth_engine::load_settings;
use hearth_local::{DownloadSource, Downloaded, Downloader, LocalModels, Progress, Signal};
use hearth_protocol::{AppError, LocalModel};
use tokio::sync::watch;

/// Downloads `source` (a URL, or `owner/repo` with `file`) and returns the model.
pub async fn download(
    models: &LocalModels,
    source: &str,
    file: Option<&str>,
    sha256: Option<&str>,
) -> anyhow::Result<LocalModel> {
    let settings = load_settings(&DataDir::resolve()?.config())?;
    let source = DownloadSource::parse(source, file).map_err(failed)?;
    let downloader = Downloader::new(&settings.allow_local_hosts).map_err(failed)?;
    let (signal, watched) = watch::channel(Signal::Run);
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            signal.send_replace(Signal::Cancel);
        }
    });
    eprintln!("downloading {}", source.url());
    let mut next_tenth = 0;
    let result = downloader
        .download(models.catalog(), &source, sha256, watched, |p| {
            report(&p, &mut next_tenth)
        })
        .await;
    interrupt.abort();
    match result.map_err(failed)? {
        Downloaded::Finished(model) => Ok(model),
        Downloaded::Paused { done } => Err(anyhow::anyhow!("paused after {done} bytes")),
    }
}

/// A line on stderr each time the download passes another tenth (or, without a size, every
/// 100 MB).
fn report(progress: &Progress, next_tenth: &mut u64) {
    let mb = |bytes: u64| bytes as f64 / 1_000_000.0;
    let speed = format!("{:.1} MB/s", mb(progress.bytes_per_second));
    match progress.total.filter(|&t| t > 0) {
        Some(total) => {
            let tenth = progress.done * 10 / total;
            if tenth < *next_tenth {
                return;
            }
            *next_tenth = tenth + 1;
            let left = progress
                .seconds_left
                .map_or_else(String::new, |s| format!(", {s} s left"));
            eprintln!(
                "{:>3} %  {:.1} of {:.1} MB  {speed}{left}",
                tenth * 10,
                mb(progress.done),
                mb(total)
            );
        }
        None => {
            let hundreds = progress.done / 100_000_000;
            if hundreds >= *next_tenth {
                *next_tenth = hundreds + 1;
                eprintln!("{:.1} MB  {speed}", mb(progress.done));
            }
        }
    }
}

fn failed(error: AppError) -> anyhow::Error {
    anyhow::anyhow!(error.to_string())
}
