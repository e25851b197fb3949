//! Keeping the simulated clock on the wall clock: the monotonic clock read at the start
//! of the run is simulated time 0. Waiting for the next deadline or for a packet is an
//! epoll on the TUN descriptors and a timerfd armed (absolute, `CLOCK_MONOTONIC`, ns) for
//! `spin` before the deadline; the rest is spent spinning on a zero-timeout epoll, since a
//! sleeping thread wakes tens to hundreds of µs late. `nix` wraps every call.
use crate::sim::time::Time;
use nix::sys::epoll::{Epoll, EpollCreateFlags, EpollEvent, EpollFlags, EpollTimeout};
use nix::sys::time::TimeSpec;
use nix::sys::timerfd::{ClockId, Expiration, TimerFd, TimerFlags, TimerSetTimeFlags};
use nix::time::clock_gettime;
use std::os::fd::AsFd;

/// The token of the timer among the epoll events (TUN devices use their index).
const TIMER: u64 = u64::MAX;

/// The monotonic clock, as simulated time since the start.
pub struct Clock {
    start: Time,
}

fn monotonic() -> Time {
    let t = clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
        .expect("CLOCK_MONOTONIC is always there");
    t.tv_sec() as Time * 1_000_000_000 + t.tv_nsec() as Time
}

impl Clock {
    pub fn start() -> Clock {
        Clock { start: monotonic() }
    }

    /// Simulated time now.
    #[inline]
    pub fn now(&self) -> Time {
        monotonic() - self.start
    }

    fn absolute(&self, t: Time) -> TimeSpec {
        let a = self.start + t;
        TimeSpec::new((a / 1_000_000_000) as i64, (a % 1_000_000_000) as i64)
    }
}

pub struct Waiter {
    epoll: Epoll,
    timer: TimerFd,
    events: Vec<EpollEvent>,
    spin: Time,
}

impl Waiter {
    pub fn new(spin: Time) -> Result<Waiter, String> {
        let io = |e: nix::Error| format!("epoll/timerfd: {e}");
        let epoll = Epoll::new(EpollCreateFlags::EPOLL_CLOEXEC).map_err(io)?;
        let timer = TimerFd::new(
            ClockId::CLOCK_MONOTONIC,
            TimerFlags::TFD_NONBLOCK | TimerFlags::TFD_CLOEXEC,
        )
        .map_err(io)?;
        epoll
            .add(timer.as_fd(), EpollEvent::new(EpollFlags::EPOLLIN, TIMER))
            .map_err(io)?;
        Ok(Waiter {
            epoll,
            timer,
            events: vec![EpollEvent::empty(); 64],
            spin,
        })
    }

    /// Watch `fd` for readable packets under `token`.
    pub fn watch(&self, fd: impl AsFd, token: u64) -> Result<(), String> {
        self.epoll
            .add(fd, EpollEvent::new(EpollFlags::EPOLLIN, token))
            .map_err(|e| format!("epoll: {e}"))
    }

    /// Stop (`on` false) or resume watching `fd`.
    pub fn set(&self, fd: impl AsFd, token: u64, on: bool) -> Result<(), String> {
        let flags = if on {
            EpollFlags::EPOLLIN
        } else {
            EpollFlags::empty()
        };
        self.epoll
            .modify(fd, &mut EpollEvent::new(flags, token))
            .map_err(|e| format!("epoll: {e}"))
    }

    /// Wait until simulated time `deadline` or until a watched descriptor is readable;
    /// the tokens of the readable ones go to `ready`.
    pub fn wait(
        &mut self,
        clock: &Clock,
        deadline: Time,
        ready: &mut Vec<u64>,
    ) -> Result<(), String> {
        let io = |e: nix::Error| format!("epoll: {e}");
        ready.clear();
        let now = clock.now();
        if deadline > now + self.spin {
            let wake = clock.absolute(deadline - self.spin);
            self.timer
                .set(
                    Expiration::OneShot(wake),
                    TimerSetTimeFlags::TFD_TIMER_ABSTIME,
                )
                .map_err(|e| format!("timerfd: {e}"))?;
            let n = match self.epoll.wait(&mut self.events, EpollTimeout::NONE) {
                Ok(n) => n,
                Err(nix::Error::EINTR) => 0,
                Err(e) => return Err(io(e)),
            };
            self.collect(n, ready);
            self.timer.unset().map_err(|e| format!("timerfd: {e}"))?;
            if !ready.is_empty() {
                return Ok(());
            }
        }
        // Spin to the deadline, still watching the devices.
        while clock.now() < deadline {
            let n = match self.epoll.wait(&mut self.events, EpollTimeout::ZERO) {
                Ok(n) => n,
                Err(nix::Error::EINTR) => 0,
                Err(e) => return Err(io(e)),
            };
            self.collect(n, ready);
            if !ready.is_empty() {
                return Ok(());
            }
            std::hint::spin_loop();
        }
        Ok(())
    }

    fn collect(&self, n: usize, ready: &mut Vec<u64>) {
        ready.extend(
            self.events[..n]
                .iter()
                .map(|e| e.data())
                .filter(|&t| t != TIMER),
        );
    }
}
