//! How `onca serve` is stopped: SIGTERM (a service manager, `kill`) or SIGINT (Ctrl-C) ends the
//! listening loop; the caller then drops the open connections, whose response streams stop their
//! searches, and says which signal it was.

/// Waits for SIGTERM or SIGINT and names the one that came.
pub async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => tokio::select! {
                Some(()) = terminate.recv() => "SIGTERM",
                Ok(()) = tokio::signal::ctrl_c() => "SIGINT",
            },
            Err(error) => {
                log::warn!("cannot handle SIGTERM: {error}");
                interrupt().await
            }
        }
    }
    #[cfg(not(unix))]
    {
        interrupt().await
    }
}

/// Waits for Ctrl-C; never returns if its handler cannot be installed (the default action of
/// the signal, ending the process, stays).
async fn interrupt() -> &'static str {
    match tokio::signal::ctrl_c().await {
        Ok(()) => "SIGINT",
        Err(error) => {
            log::warn!("cannot handle Ctrl-C: {error}");
            std::future::pending().await
        }
    }
}
