//! `hearth-cli keys set|delete|status`: a provider's API key, or a web search key (`brave`,
//! `tavily`), in the OS keychain.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use crate::pipe::outln;
use anyhow::anyhow;
use clap::Subcommand;
use hearth_core::{KeyringStore, SecretStore};
use hearth_engine::{key_account, mask_secret};

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Store a key read from stdin (never from the command line, which shells record). The id
    /// is a provider's id, or `brave` / `tavily` for the web search keys.
    Set { provider_id: String },
    /// Remove a stored key.
    Delete { provider_id: String },
    /// Say whether a key is stored, masked.
    Status { provider_id: String },
}

pub fn run(command: KeysCommand) -> anyhow::Result<ExitCode> {
    let store = KeyringStore::new();
    match command {
        KeysCommand::Set { provider_id } => {
            if std::io::stdin().is_terminal() {
                eprintln!("Paste the API key for '{provider_id}' and press Ctrl-D:");
            }
            let mut key = String::new();
            std::io::stdin().read_to_string(&mut key)?;
            let key = key.trim();
            if key.is_empty() {
                return Err(anyhow!("no key on stdin: pipe it in, e.g. `hearth-cli keys set {provider_id} < keyfile`"));
            }
            store.set(&key_account(&provider_id), key)?;
            outln!(
                "stored {} for {provider_id} in the OS keychain",
                mask_secret(key)
            );
        }
        KeysCommand::Delete { provider_id } => {
            store.delete(&key_account(&provider_id))?;
            outln!("removed the key for {provider_id}");
        }
        KeysCommand::Status { provider_id } => match store.get(&key_account(&provider_id))? {
            Some(key) => outln!("{provider_id}: {}", mask_secret(&key)),
            None => outln!("{provider_id}: no key stored"),
        },
    }
    Ok(ExitCode::SUCCESS)
}
