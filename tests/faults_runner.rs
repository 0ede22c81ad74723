//! Faults around the long-running commands, against the real binary: SIGTERM to `onca match`
//! mid-game and while an engine thinks, a disk that fills while `onca match` writes its PDN file
//! and logs, and SIGTERM to `onca serve` with an analysis stream open. Each ends with a one-line
//! message, no engine process left behind, and a PDN file that `--resume` completes with every
//! game exactly once. README.md ("Faults") describes the behaviour these tests pin down.

mod hub_support;

use onca::game::pdn::{read_games, PdnGame};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const ONCA: &str = env!("CARGO_BIN_EXE_onca");

/// The longest any step may take before the test counts it as a hang.
const PATIENCE: Duration = Duration::from_secs(60);

/// An engine command that appends its process id to `pids` and then becomes `command`.
fn recorded(pids: &Path, command: &str) -> String {
    format!("sh -c 'echo $$ >> {}; exec {command}'", pids.display())
}

fn onca_hub() -> String {
    format!("{ONCA} hub --hash=4")
}

fn fake(mode: &str) -> String {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py");
    format!("python3 {} {mode} {ONCA}", script.display())
}

/// Whether process `pid` still runs (a zombie counts as gone: it is no engine any more).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z"),
        Err(_) => false,
    }
}

/// Fails the test if an engine process listed in `pids` outlives the runner for long.
fn assert_no_engine_left(pids: &Path) {
    let text = std::fs::read_to_string(pids).expect("the engines recorded their ids");
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty());
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&pid| alive(pid)) {
        assert!(Instant::now() < deadline, "engine processes left: {pids:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends SIGTERM to `child` with the system's `kill`.
fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// The lines of `child`'s stderr, as they come.
fn stderr_lines(child: &mut Child) -> Receiver<String> {
    let stderr = child.stderr.take().expect("stderr");
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Waits for a line starting with `prefix`, keeping every line read in `seen`.
fn wait_for_line(lines: &Receiver<String>, prefix: &str, seen: &mut Vec<String>) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no line '{prefix}...'; so far: {seen:#?}"));
        seen.push(line.clone());
        if line.starts_with(prefix) {
            return;
        }
    }
}

/// Waits for `child` to end and returns its exit code (a hang fails the test).
fn wait_code(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the process did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn games_in(pdn: &Path) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(pdn).unwrap_or_default();
    read_games(&text).expect("the PDN file holds complete, readable games")
}

/// Checks that `games` are games 1..=total, each exactly once.
fn assert_each_game_once(games: &[PdnGame], total: usize) {
    let mut rounds: Vec<usize> = games
        .iter()
        .map(|game| {
            game.tag("Round")
                .and_then(|r| r.parse().ok())
                .expect("Round")
        })
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=total).collect::<Vec<_>>());
}

/// The match of the SIGTERM test: real engines, short moves and games.
fn quick_match(engines: &[String], pdn: &Path, games: usize) -> Command {
    let mut command = Command::new(ONCA);
    command.arg("match");
    for engine in engines {
        command.args(["--engine", engine]);
    }
    command
        .args([
            "--name",
            "A",
            "--name",
            "B",
            "--seed",
            "5",
            "--movetime",
            "0.02",
        ])
        .args(["--max-plies", "40", "--games", &games.to_string()])
        .arg("--pdn")
        .arg(pdn);
    command
}

#[test]
fn sigterm_mid_match_stops_the_engines_and_resume_completes_it() {
    const GAMES: usize = 6;
    let dir = tempfile::Builder::new()
        .prefix("onca-faults-sigterm-match-")
        .tempdir()
        .expect("temporary directory");
    let pids = dir.path().join("pids");
    let pdn = dir.path().join("games.pdn");
    let engines = [recorded(&pids, &onca_hub()), recorded(&pids, &onca_hub())];
    let mut child = quick_match(&engines, &pdn, GAMES)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("onca match starts");
    let lines = stderr_lines(&mut child);
    let mut seen = Vec::new();
    // The first game is finished and written (its progress line follows the write).
    wait_for_line(&lines, "game ", &mut seen);
    terminate(&child);
    let code = wait_code(&mut child);
    seen.extend(lines.iter());
    assert_eq!(code, Some(2), "{seen:#?}");
    let last = seen.last().expect("a message");
    assert!(
        last.starts_with("onca: stopped by SIGTERM after ") && last.contains("--resume"),
        "{seen:#?}"
    );
    assert_no_engine_left(&pids);
    let kept = games_in(&pdn);
    assert!(
        !kept.is_empty() && kept.len() < GAMES,
        "{} games",
        kept.len()
    );
    assert!(
        last.contains(&format!("after {} of {GAMES} games", kept.len())),
        "{last}"
    );

    let resumed = quick_match(&engines, &pdn, GAMES)
        .arg("--resume")
        .output()
        .expect("onca match runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("resuming after {} games", kept.len())),
        "{stderr}"
    );
    assert_each_game_once(&games_in(&pdn), GAMES);
    assert_no_engine_left(&pids);
}

#[test]
fn sigterm_while_an_engine_thinks_stops_at_once() {
    // The engine never answers and the runner would wait an hour for it: the signal ends the
    // wait, the game is abandoned (not written) and both engines are stopped.
    let dir = tempfile::Builder::new()
        .prefix("onca-faults-sigterm-hang-")
        .tempdir()
        .expect("temporary directory");
    let pids = dir.path().join("pids");
    let pdn = dir.path().join("games.pdn");
    let mut child = Command::new(ONCA)
        .args(["match", "--engine", &recorded(&pids, &fake("hang"))])
        .args(["--engine", &recorded(&pids, &fake("legal"))])
        .args(["--nodes", "1", "--hang-timeout", "3600", "--games", "2"])
        .arg("--pdn")
        .arg(&pdn)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("onca match starts");
    let lines = stderr_lines(&mut child);
    let mut seen = Vec::new();
    // The handshakes are done when the header is printed; the first `go` follows at once.
    wait_for_line(&lines, "onca match:", &mut seen);
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    terminate(&child);
    let code = wait_code(&mut child);
    assert!(signalled.elapsed() < Duration::from_secs(20));
    seen.extend(lines.iter());
    assert_eq!(code, Some(2), "{seen:#?}");
    assert!(
        seen.last()
            .is_some_and(|line| line.starts_with("onca: stopped by SIGTERM after 0 of 2 games")),
        "{seen:#?}"
    );
    assert!(games_in(&pdn).is_empty());
    assert_no_engine_left(&pids);
}

/// What the disk-full script left: the exit codes and stderr of both runs, the PDN file after
/// each.
struct FullDiskRuns {
    first_code: i32,
    first_stderr: String,
    first_pdn: String,
    second_code: i32,
    second_stderr: String,
    final_pdn: String,
}

/// Runs `onca match` on a small file system of its own that is filled up except for a few pages,
/// then frees the space and runs it again with `--resume`. The file system is a tmpfs mounted in
/// a new user and mount namespace (`unshare`), so no privilege is needed where unprivileged user
/// namespaces are allowed; `None` where they are not.
fn full_disk_runs(dir: &Path, games: usize) -> Option<FullDiskRuns> {
    let disk = dir.join("disk");
    std::fs::create_dir_all(&disk).expect("mount point");
    let engine = onca_hub();
    let run = format!(
        "{ONCA} match --engine '{engine}' --engine '{engine}' --name A --name B --seed 9 \
         --movetime 0.01 --max-plies 30 --games {games} --pdn \"$disk/games.pdn\" \
         --log-dir \"$disk/logs\""
    );
    let script = format!(
        r#"
        set -u
        disk='{disk}'; out='{out}'
        mount -t tmpfs -o size=512k tmpfs "$disk" || exit 77
        mkdir "$disk/logs"
        # Fill the file system, then give back 24 KB: a few games' worth of PDN and logs.
        dd if=/dev/zero of="$disk/ballast" bs=4096 2>/dev/null
        truncate -s -24K "$disk/ballast"
        {run} >/dev/null 2>"$out/first.err"
        echo $? > "$out/first.code"
        cp "$disk/games.pdn" "$out/first.pdn" 2>/dev/null || : > "$out/first.pdn"
        rm "$disk/ballast"
        {run} --resume >/dev/null 2>"$out/second.err"
        echo $? > "$out/second.code"
        cp "$disk/games.pdn" "$out/final.pdn"
        "#,
        disk = disk.display(),
        out = dir.display(),
    );
    let status = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", &script])
        .stdin(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => {}
        other => {
            eprintln!(
                "skipping the full-disk test: cannot mount a small tmpfs in a user namespace \
                 here ({other:?})"
            );
            return None;
        }
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect(name);
    Some(FullDiskRuns {
        first_code: read("first.code").trim().parse().expect("a code"),
        first_stderr: read("first.err"),
        first_pdn: read("first.pdn"),
        second_code: read("second.code").trim().parse().expect("a code"),
        second_stderr: read("second.err"),
        final_pdn: read("final.pdn"),
    })
}

#[test]
fn a_full_disk_stops_the_match_and_resume_completes_it() {
    const GAMES: usize = 12;
    let dir = tempfile::Builder::new()
        .prefix("onca-faults-full-disk-")
        .tempdir()
        .expect("temporary directory");
    let Some(runs) = full_disk_runs(dir.path(), GAMES) else {
        return;
    };
    // The first run stops at the first write that fails, with one line saying what to do.
    assert_eq!(runs.first_code, 2, "{}", runs.first_stderr);
    let message = runs.first_stderr.lines().last().unwrap_or_default();
    eprintln!("the run on the full disk ended with: {message}");
    assert!(
        message.starts_with("onca: writing the PDN file failed (")
            && message.contains("No space left on device")
            && message.contains("--resume"),
        "{}",
        runs.first_stderr
    );
    // The file holds whole games only: the one that did not fit was cut off.
    let kept = read_games(&runs.first_pdn).expect("complete games only");
    assert!(kept.len() < GAMES, "the disk never filled");
    assert!(
        message.contains(&format!("holds the {} finished games", kept.len())),
        "{message}"
    );
    // With the space back, the resumed run plays the rest: every game once.
    assert_eq!(runs.second_code, 0, "{}", runs.second_stderr);
    assert!(
        runs.second_stderr
            .contains(&format!("resuming after {} games", kept.len())),
        "{}",
        runs.second_stderr
    );
    assert_each_game_once(&read_games(&runs.final_pdn).expect("readable"), GAMES);
}

#[test]
fn sigterm_to_serve_ends_it_with_a_message() {
    let mut child = Command::new(ONCA)
        .args(["serve", "--port", "0", "--hash", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("onca serve starts");
    let address = hub_support::served_address(child.stdout.take().expect("stdout"));
    // An endless analysis stream stays open while the signal comes.
    let mut socket = std::net::TcpStream::connect(&address).expect("connects");
    let body = r#"{"moves": [], "mode": "analyze"}"#;
    write!(
        socket,
        "POST /api/search HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("sends");
    let mut first = [0u8; 64];
    socket
        .set_read_timeout(Some(PATIENCE))
        .expect("read timeout");
    let read = socket.read(&mut first).expect("the stream starts");
    assert!(first[..read].starts_with(b"HTTP/1.1 200"));
    terminate(&child);
    let code = wait_code(&mut child);
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.trim_end(), "onca serve: stopped by SIGTERM");
    // The connection was closed by the server.
    let mut rest = Vec::new();
    let _ = socket.read_to_end(&mut rest);
}
