//! `onca serve`: the command-line options of the browser board, turned into a
//! [`ServeConfig`].

use crate::serve::app::DEFAULT_PORT;
use crate::serve::{serve, ServeConfig};
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

/// Options of `onca serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed on start).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Address to listen on. The default answers only this machine; another address (0.0.0.0
    /// for every network) lets anyone who can reach the machine use the engine, and a warning
    /// says so on start.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// A host name (without port) under which browsers may reach the server, besides the
    /// address itself, localhost and 127.0.0.1; may be repeated. Requests naming any other host
    /// are refused (against DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// Search threads over all open pages together.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Transposition table of each search, in megabytes.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Directory of endgame databases (onca egtb generate) to probe. Default: the tables of up to
    /// 4 pieces of each game's variant, computed in the background (about 5 s of one core) once a
    /// game has 16 pieces or fewer.
    #[arg(long, value_name = "DIR")]
    egtb: Option<PathBuf>,
    /// Opening book for the engine's moves in play (`builtin` for the shipped one, which is
    /// Brazilian; analysis never uses it), used in games of its variant. A book file of another
    /// variant than --variant is refused. Default: none.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Open the page in the desktop's browser (xdg-open) once listening.
    #[arg(long)]
    open: bool,
    /// The rules the page starts with: brazilian or russian (the page can change them). The
    /// book is used only in games of its variant, and so are the endgame databases (--egtb).
    #[arg(long, default_value_t = crate::rules::variant::Variant::Brazilian)]
    variant: crate::rules::variant::Variant,
}

/// Runs `onca serve` until the process is ended; the address goes to `out`.
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<()> {
    let config = ServeConfig {
        host: args.host,
        port: args.port,
        threads: args.threads as usize,
        hash_mb: args.hash as usize,
        egtb: args.egtb.clone(),
        book: args.book.clone(),
        open: args.open,
        allow_hosts: args.allow_hosts.clone(),
        variant: args.variant,
    };
    serve(&config, out)
}
