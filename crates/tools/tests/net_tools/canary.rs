//! The canary: a listener on 127.0.0.1 (and ::1 on the same port when the host has IPv6) that
//! every refused request in this suite aims at. It must never see a connection.

use std::io::ErrorKind;
use std::net::{Ipv4Addr, Ipv6Addr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

pub struct Canary {
    port: u16,
    listeners: Mutex<Vec<TcpListener>>,
    accepted: AtomicUsize,
}

impl Canary {
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Every connection the canary has ever accepted (drains the kernel's accept queue first,
    /// so a connection made a moment ago is counted).
    pub fn connections(&self) -> usize {
        let listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        for listener in listeners.iter() {
            loop {
                match listener.accept() {
                    Ok(_) => {
                        self.accepted.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) => panic!("canary accept failed: {e}"),
                }
            }
        }
        self.accepted.load(Ordering::SeqCst)
    }

    /// Fails the test if anything reached the canary.
    pub fn assert_untouched(&self) {
        assert_eq!(self.connections(), 0, "a refused request reached 127.0.0.1");
    }
}

pub fn canary() -> &'static Canary {
    static CANARY: OnceLock<Canary> = OnceLock::new();
    CANARY.get_or_init(|| {
        let v4 = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind the canary");
        let port = v4.local_addr().expect("canary address").port();
        let mut listeners = vec![v4];
        if let Ok(v6) = TcpListener::bind((Ipv6Addr::LOCALHOST, port)) {
            listeners.push(v6);
        }
        for listener in &listeners {
            listener.set_nonblocking(true).expect("non-blocking canary");
        }
        Canary {
            port,
            listeners: Mutex::new(listeners),
            accepted: AtomicUsize::new(0),
        }
    })
}
