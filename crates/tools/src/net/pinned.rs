//! The pinned resolver reqwest connects through: it only ever returns the addresses the guard
//! checked for the request in flight.

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Checked addresses per host name, with how many requests in flight use them.
#[derive(Default)]
pub(crate) struct Pins {
    map: Mutex<HashMap<String, Pinned>>,
}

struct Pinned {
    addrs: Vec<IpAddr>,
    users: usize,
}

impl Pins {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Pinned>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes `host` resolve to `addrs` (already checked) until the returned pin is dropped.
    /// A concurrent request to the same host replaces the set with its own checked set.
    pub(crate) fn pin(self: &Arc<Self>, host: &str, addrs: Vec<IpAddr>) -> Pin {
        let mut map = self.lock();
        let entry = map.entry(host.to_string()).or_insert(Pinned {
            addrs: Vec::new(),
            users: 0,
        });
        entry.addrs = addrs;
        entry.users += 1;
        Pin {
            pins: Arc::clone(self),
            host: host.to_string(),
        }
    }

    fn addresses(&self, host: &str) -> Option<Vec<IpAddr>> {
        self.lock().get(host).map(|pinned| pinned.addrs.clone())
    }
}

/// Keeps a host's checked addresses pinned while a request uses them.
pub(crate) struct Pin {
    pins: Arc<Pins>,
    host: String,
}

impl Drop for Pin {
    fn drop(&mut self) {
        let mut map = self.pins.lock();
        if let Some(entry) = map.get_mut(&self.host) {
            entry.users = entry.users.saturating_sub(1);
            if entry.users == 0 {
                map.remove(&self.host);
            }
        }
    }
}

/// The resolver reqwest uses: pinned addresses only; a name the guard did not check fails.
pub(crate) struct PinnedResolver(pub(crate) Arc<Pins>);

impl Resolve for PinnedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let found = self.0.addresses(name.as_str());
        let host = name.as_str().to_string();
        Box::pin(async move {
            let Some(addrs) = found else {
                return Err(format!("{host} was not checked by the address guard").into());
            };
            let addrs: Addrs = Box::new(
                addrs
                    .into_iter()
                    .map(|ip| SocketAddr::new(ip, 0))
                    .collect::<Vec<_>>()
                    .into_iter(),
            );
            Ok(addrs)
        })
    }
}
