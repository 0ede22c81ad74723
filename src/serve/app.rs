//! The server: its settings ([`ServeConfig`]), the state every request shares ([`AppState`]),
//! the routes ([`router`]) and [`serve`], which binds, announces the address and answers until
//! SIGTERM or SIGINT ([`crate::serve::shutdown`]).
//!
//! A book file must be of the variant the page starts with (`--variant`), or it is refused by name
//! before anything is served, as on the rest of the command line; during play the book answers
//! only in games of its own variant (the page can change the rules), and the shipped book, which is
//! Brazilian, may be named with any starting variant.

use crate::book::Book;
use crate::egtb::Tablebases;
use crate::rules::variant::Variant;
use crate::serve::assets::ASSETS;
use crate::serve::budget::{Budget, Tables};
use crate::serve::guard::{check_host, AllowedHosts, ApiError, MAX_BODY_BYTES};
use crate::serve::{game_api, pdn_api, review_api, search_api};
use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{middleware, Router};
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The port served when none is given.
pub const DEFAULT_PORT: u16 = 8080;

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (127.0.0.1 unless the user asks for another).
    pub host: IpAddr,
    /// The port (0: any free port, announced on start).
    pub port: u16,
    /// Search threads over all searches together.
    pub threads: usize,
    /// Transposition table of each searcher, in megabytes.
    pub hash_mb: usize,
    /// Endgame databases to probe.
    pub egtb: Option<PathBuf>,
    /// Opening book for play (`builtin` for the shipped one; a file must be of `variant`).
    pub book: Option<PathBuf>,
    /// Open the page in the desktop's browser once listening.
    pub open: bool,
    /// More host names (without port) the Host check lets through.
    pub allow_hosts: Vec<String>,
    /// The rules the page starts with (it can change them).
    pub variant: Variant,
}

/// What every request shares: the search resources and the book.
#[derive(Clone)]
pub struct AppState {
    /// Threads and searchers.
    pub budget: Arc<Budget>,
    /// The book play searches take their moves from, if any (in games of its variant).
    pub book: Option<Arc<Book>>,
    /// The rules the page starts with.
    pub variant: Variant,
}

impl AppState {
    /// The state for `threads` search threads with `hash_mb` tables, endgame `tables` and `book`.
    pub fn new(
        threads: usize,
        hash_mb: usize,
        tables: Tables,
        book: Option<Arc<Book>>,
    ) -> AppState {
        AppState {
            budget: Budget::new(threads, hash_mb, tables),
            book,
            variant: Variant::Brazilian,
        }
    }

    /// The same state with the page starting under `variant`'s rules.
    pub fn with_variant(self, variant: Variant) -> AppState {
        AppState { variant, ..self }
    }
}

/// Every route, behind the Host check and the body limit.
pub fn router(state: AppState, allowed: AllowedHosts) -> Router {
    let mut router = Router::new()
        .route("/api/board", get(game_api::board))
        .route("/api/game", post(game_api::game))
        .route("/api/search", post(search_api::search))
        .route("/api/review", post(review_api::review))
        .route("/api/pdn/import", post(pdn_api::import))
        .route("/api/pdn/export", post(pdn_api::export));
    for asset in &ASSETS {
        router = router.route(asset.path, get(move || async move { asset.response() }));
    }
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(allowed, check_host))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this method is not allowed here",
    )
}

/// The book `path` names for a page starting with `variant`: `builtin` for the shipped one, or a
/// file, refused unless it is a `variant` book.
pub fn load_book(path: Option<&Path>, variant: Variant) -> Result<Option<Arc<Book>>> {
    Ok(match path {
        Some(path) if path.as_os_str() == "builtin" => Some(Book::builtin()),
        Some(path) => {
            Some(Arc::new(Book::load_for(path, variant).map_err(|why| {
                anyhow::anyhow!("--book {}: {why}", path.display())
            })?))
        }
        None => None,
    })
}

/// Loads what `config` names, binds, writes the address to `out` and serves until SIGTERM or
/// SIGINT, after which it drops the open connections (stopping their searches), says so on
/// stderr and returns `Ok`. A missing book or database, a book file of another variant than
/// `config.variant`, or a port in use, is an error before anything is served.
pub fn serve(config: &ServeConfig, out: &mut dyn Write) -> Result<()> {
    let tables = match &config.egtb {
        // The page plays either variant: the tables are loaded in their own and probed in the
        // games of that variant only (the searcher checks).
        Some(dir) => {
            let tables = Tablebases::load_own_variant(dir)
                .with_context(|| format!("--egtb {}", dir.display()))?;
            for refused in tables.refused() {
                eprintln!("onca serve: ignored: {refused}");
            }
            if !tables.keys().is_empty() {
                eprintln!(
                    "onca serve: {} {} endgame tables, complete up to {} pieces, used in {} games",
                    tables.keys().len(),
                    crate::egtb::store::variant_title(tables.variant()),
                    tables.max_pieces(),
                    crate::egtb::store::variant_title(tables.variant())
                );
            }
            Tables::Loaded(Arc::new(tables))
        }
        // Without a directory, the tables of up to four pieces that games compute for themselves.
        None => Tables::Builtin,
    };
    let book = load_book(config.book.as_deref(), config.variant)?;
    let listener = std::net::TcpListener::bind((config.host, config.port))
        .with_context(|| format!("cannot listen on {}:{}", config.host, config.port))?;
    listener
        .set_nonblocking(true)
        .context("cannot make the socket non-blocking")?;
    let port = listener.local_addr().context("no local address")?.port();
    let shown_host = if config.host.is_unspecified() {
        "127.0.0.1".to_string()
    } else if config.host.is_ipv6() {
        format!("[{}]", config.host)
    } else {
        config.host.to_string()
    };
    let url = format!("http://{shown_host}:{port}/");
    let allowed = AllowedHosts::for_address(&config.host.to_string(), port, &config.allow_hosts);
    if !config.host.is_loopback() {
        eprintln!(
            "WARNING: onca serve listens on {}:{port}, not only on this machine: anyone who can \
             reach it can use the engine. Host names accepted: {}.",
            config.host,
            allowed.0.join(", ")
        );
    }
    writeln!(out, "Onça board at {url} (Ctrl-C to stop)")?;
    out.flush()?;
    if config.open {
        if let Err(why) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            eprintln!("onca serve: cannot open a browser ({why}); open {url} yourself");
        }
    }
    let state =
        AppState::new(config.threads, config.hash_mb, tables, book).with_variant(config.variant);
    let app = router(state, allowed);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let stopped_by = runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::from_std(listener).context("cannot use the socket")?;
        // Not axum's graceful shutdown: it waits for every connection to end, and an open
        // analysis stream never does. Dropping the runtime below drops them all instead.
        tokio::select! {
            served = axum::serve(listener, app) => served.context("the server failed").map(|()| None),
            signal = crate::serve::shutdown::stop_signal() => Ok(Some(signal)),
        }
    })?;
    runtime.shutdown_timeout(SHUTDOWN_PATIENCE);
    if let Some(signal) = stopped_by {
        eprintln!("onca serve: stopped by {signal}");
    }
    Ok(())
}

/// How long the connections still open at a stop may take to be dropped.
const SHUTDOWN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);
