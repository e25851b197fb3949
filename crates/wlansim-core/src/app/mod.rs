//! Applications: what drives each flow's traffic.
//!
//! A UDP flow is driven by a [`UdpSource`] (saturated, CBR, Poisson, a game direction
//! [`GameSource`], a video trace [`TraceSource`]).
//!
//! A TCP flow is driven through a socket-like interface of its sender endpoint
//! (`TcpSender::open`, `TcpSender::write`, completion seen as `TcpSender::is_done`): an
//! application hands it bytes, learns when all of them are acknowledged, and then sends
//! more on the same connection or opens a fresh one. Bulk TCP (one transfer, fixed or
//! endless) is the application that writes once. [`FileSequence`] sends files one after
//! another (listed or drawn sizes, fixed or drawn think times) and records each as a
//! [`Session`]: the HTTP-like on/off workload.
//!
//! Connection teardown (FIN) is not modelled: a connection that is done stays idle, and a
//! fresh connection is a new pair of endpoints with the next ephemeral port.
pub mod distributions;
pub mod files;
pub mod game;
pub mod trace_source;
pub mod udp;

pub use distributions::Draw;
pub use files::{FileSequence, FileSizes, Session};
pub use game::GameSource;
pub use trace_source::TraceSource;
pub use udp::{Pattern, Traffic, UdpSource};
