//! Stop requests for the long-running commands: SIGTERM and SIGINT (Ctrl-C) set a flag that the
//! command watches, so that it can stop its engines and leave its files complete instead of
//! dying mid-write. A second signal while the command is already stopping ends the process at
//! once (status 1), the usual way out of a stop that takes too long.
//!
//! The handlers come from the `signal-hook` crate: setting an atomic flag is all a handler may
//! safely do, and that crate does exactly that without any unsafe code of ours.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The flags set by the signals.
pub struct Interrupt {
    /// Set by either signal, and by the command itself when it must stop (e.g. a failed write).
    pub flag: Arc<AtomicBool>,
    terminated: Arc<AtomicBool>,
    interrupted: Arc<AtomicBool>,
}

impl Interrupt {
    /// Installs the handlers. Without them (a platform that refuses) the signals keep their
    /// default action of ending the process, which is logged.
    pub fn install() -> Interrupt {
        let interrupt = Interrupt {
            flag: Arc::new(AtomicBool::new(false)),
            terminated: Arc::new(AtomicBool::new(false)),
            interrupted: Arc::new(AtomicBool::new(false)),
        };
        for (signal, which) in [
            (SIGTERM, &interrupt.terminated),
            (SIGINT, &interrupt.interrupted),
        ] {
            // The shutdown handler runs first and only acts when the flag is already set: on
            // the second signal, not the first.
            let installed = signal_hook::flag::register_conditional_shutdown(
                signal,
                1,
                Arc::clone(&interrupt.flag),
            )
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(which)))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&interrupt.flag)));
            if let Err(error) = installed {
                log::warn!("cannot handle signal {signal}: {error}");
            }
        }
        interrupt
    }

    /// The name of the signal that asked to stop, if one did.
    pub fn received(&self) -> Option<&'static str> {
        if self.terminated.load(Ordering::SeqCst) {
            Some("SIGTERM")
        } else if self.interrupted.load(Ordering::SeqCst) {
            Some("SIGINT")
        } else {
            None
        }
    }
}
