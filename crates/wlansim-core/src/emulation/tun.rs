//! TUN devices (L3, no packet information header, non-blocking), each created inside a
//! network namespace: the calling thread enters the namespace (`setns`), creates the
//! device, and goes back, so the device never exists outside it. It is not persistent:
//! it disappears when its descriptor closes, even if the process is killed.
//!
//! The ioctl and the system calls are `nix`'s and `libc`'s; the `ifreq` layout is
//! libc's.
use nix::errno::Errno;
use nix::fcntl::{open, OFlag};
use nix::sched::{setns, CloneFlags};
use nix::sys::stat::Mode;
use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

nix::ioctl_write_ptr_bad!(tun_set_iff, libc::TUNSETIFF, libc::ifreq);

pub struct Tun {
    fd: OwnedFd,
}

impl Tun {
    /// Create TUN device `name` in the network namespace `netns` (a path such as
    /// `/run/netns/NAME`).
    pub fn create_in(netns: &Path, name: &str) -> Result<Tun, String> {
        let here = File::open("/proc/thread-self/ns/net")
            .map_err(|e| format!("cannot open this thread's network namespace: {e}"))?;
        let there = File::open(netns)
            .map_err(|e| format!("cannot open network namespace {}: {e}", netns.display()))?;
        setns(there.as_fd(), CloneFlags::CLONE_NEWNET)
            .map_err(|e| format!("cannot enter network namespace {}: {e}", netns.display()))?;
        let tun = Tun::create(name);
        // Going back cannot fail with a namespace descriptor we hold; if it did, this
        // thread would create everything after in the wrong namespace.
        setns(here.as_fd(), CloneFlags::CLONE_NEWNET)
            .expect("return to the original network namespace");
        tun.map_err(|e| {
            format!(
                "cannot create TUN device {name} in {}: {e}",
                netns.display()
            )
        })
    }

    fn create(name: &str) -> Result<Tun, Errno> {
        let raw = open(
            "/dev/net/tun",
            OFlag::O_RDWR | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
            Mode::empty(),
        )?;
        let fd = raw;
        // SAFETY: an all-zero ifreq is valid (a C struct of integers and arrays).
        let mut ifr: libc::ifreq = unsafe { std::mem::zeroed() };
        for (dst, src) in ifr
            .ifr_name
            .iter_mut()
            .zip(name.bytes().take(libc::IFNAMSIZ - 1))
        {
            *dst = src as libc::c_char;
        }
        ifr.ifr_ifru.ifru_flags = (libc::IFF_TUN | libc::IFF_NO_PI) as libc::c_short;
        // SAFETY: TUNSETIFF reads an ifreq, which lives until the call returns.
        unsafe { tun_set_iff(std::os::fd::AsRawFd::as_raw_fd(&fd), &ifr) }?;
        Ok(Tun { fd })
    }

    /// Read one packet into `buf`: its length, or None when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> Result<Option<usize>, Errno> {
        match nix::unistd::read(&self.fd, buf) {
            Ok(n) => Ok(Some(n)),
            Err(Errno::EAGAIN) => Ok(None),
            Err(Errno::EINTR) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Write one packet (the host receives it).
    pub fn write(&self, packet: &[u8]) -> Result<(), Errno> {
        nix::unistd::write(&self.fd, packet).map(drop)
    }
}

impl AsFd for Tun {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}
