//! A scripted DNS stub on 127.0.0.1 (UDP, hickory-proto messages) and a real hickory resolver
//! pointed at it, injected into the guard: each A query for a name takes the next scripted
//! answer (the last one repeats), so a stub can answer a public address first and 127.0.0.1
//! after, the DNS-rebinding pattern.

use async_trait::async_trait;
use hearth_tools::net::HostResolver;
use hickory_proto::op::{Message, MessageType, ResponseCode};
use hickory_proto::rr::rdata::A;
use hickory_proto::rr::{RData, Record, RecordType};
use hickory_resolver::config::{
    ConnectionConfig, LookupIpStrategy, NameServerConfig, ResolverConfig,
};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::TokioResolver;
use std::collections::{HashMap, VecDeque};
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

#[derive(Default)]
struct Script {
    answers: VecDeque<Vec<Ipv4Addr>>,
    queries: usize,
}

type Scripts = Arc<Mutex<HashMap<String, Script>>>;

pub struct DnsStub {
    addr: SocketAddr,
    scripts: Scripts,
}

/// The suite's DNS stub (names are unique per test).
pub fn stub() -> &'static DnsStub {
    static STUB: OnceLock<DnsStub> = OnceLock::new();
    STUB.get_or_init(|| {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind the DNS stub");
        let addr = socket.local_addr().expect("stub address");
        let scripts = Scripts::default();
        let shared = Arc::clone(&scripts);
        std::thread::spawn(move || serve(&socket, &shared));
        DnsStub { addr, scripts }
    })
}

fn serve(socket: &UdpSocket, scripts: &Scripts) {
    let mut buffer = [0u8; 1500];
    loop {
        let Ok((len, peer)) = socket.recv_from(&mut buffer) else {
            continue;
        };
        let Ok(query) = Message::from_vec(&buffer[..len]) else {
            continue;
        };
        let reply = answer(&query, scripts);
        if let Ok(bytes) = reply.to_vec() {
            let _ = socket.send_to(&bytes, peer);
        }
    }
}

fn answer(query: &Message, scripts: &Scripts) -> Message {
    let mut reply = Message::response(query.metadata.id, query.metadata.op_code);
    reply.metadata.message_type = MessageType::Response;
    reply.metadata.recursion_desired = query.metadata.recursion_desired;
    reply.metadata.recursion_available = true;
    reply.metadata.authoritative = true;
    reply.add_queries(query.queries.clone());
    let Some(question) = query.queries.first() else {
        reply.metadata.response_code = ResponseCode::FormErr;
        return reply;
    };
    let name = question.name().to_ascii();
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    let mut scripts = scripts.lock().unwrap_or_else(|e| e.into_inner());
    let Some(script) = scripts.get_mut(&name) else {
        reply.metadata.response_code = ResponseCode::NXDomain;
        return reply;
    };
    if question.query_type() == RecordType::A {
        script.queries += 1;
        let addrs = if script.answers.len() > 1 {
            script.answers.pop_front().unwrap_or_default()
        } else {
            script.answers.front().cloned().unwrap_or_default()
        };
        for ip in addrs {
            reply.add_answer(Record::from_rdata(
                question.name().clone(),
                0,
                RData::A(A(ip)),
            ));
        }
    }
    reply
}

impl DnsStub {
    /// `name` answers each A query with the next of `answers`; the last repeats.
    pub fn script(&self, name: &str, answers: &[&[Ipv4Addr]]) {
        let script = Script {
            answers: answers.iter().map(|a| a.to_vec()).collect(),
            queries: 0,
        };
        let mut scripts = self.scripts.lock().unwrap_or_else(|e| e.into_inner());
        scripts.insert(name.to_string(), script);
    }

    /// How many A queries `name` received.
    pub fn queries(&self, name: &str) -> usize {
        let scripts = self.scripts.lock().unwrap_or_else(|e| e.into_inner());
        scripts.get(name).map_or(0, |s| s.queries)
    }

    /// A resolver (no cache, IPv4 only) that asks this stub.
    pub fn resolver(&self) -> Arc<dyn HostResolver> {
        let mut connection = ConnectionConfig::udp();
        connection.port = self.addr.port();
        let server = NameServerConfig::new(self.addr.ip(), true, vec![connection]);
        let config = ResolverConfig::from_name_servers(vec![server]);
        let mut builder =
            TokioResolver::builder_with_config(config, TokioRuntimeProvider::default());
        let options = builder.options_mut();
        options.cache_size = 0;
        options.ip_strategy = LookupIpStrategy::Ipv4Only;
        options.timeout = Duration::from_secs(2);
        options.attempts = 1;
        Arc::new(StubResolver(builder.build().expect("resolver")))
    }
}

struct StubResolver(TokioResolver);

#[async_trait]
impl HostResolver for StubResolver {
    async fn lookup(&self, host: &str) -> io::Result<Vec<IpAddr>> {
        let found = self.0.lookup_ip(host).await.map_err(io::Error::other)?;
        Ok(found.iter().collect())
    }
}
