//! `onca serve`'s API, driven through the router in-process (every route, the error shapes, the
//! Host check, the size limit, searches streamed and stopped), and once over real TCP through the
//! binary to see it bind and announce its address.

mod hub_support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use onca::book::file::Entry;
use onca::book::Book;
use onca::egtb::Tablebases;
use onca::rules::movegen;
use onca::rules::position::Position;
use onca::serve::app::{router, AppState};
use onca::serve::budget::Tables;
use onca::serve::guard::AllowedHosts;
use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8080";

fn state(threads: usize) -> AppState {
    AppState::new(
        threads,
        4,
        Tables::Loaded(Arc::new(Tablebases::empty())),
        None,
    )
}

fn app(state: &AppState) -> Router {
    router(
        state.clone(),
        AllowedHosts::for_address("127.0.0.1", 8080, &[]),
    )
}

fn post(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("a valid request")
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("a valid request")
}

async fn answer(app: Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.oneshot(request).await.expect("the router answers");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

/// Reads a whole event stream into (event name, data) pairs.
fn parse_events(text: &str) -> Vec<(String, Value)> {
    let mut events = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(rest) = line.strip_prefix("event:") {
                name = rest.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.trim_start());
            }
        }
        if !data.is_empty() {
            let value = serde_json::from_str(&data).expect("event data is JSON");
            events.push((name, value));
        }
    }
    events
}

async fn stream(app: Router, request: Request<Body>) -> Vec<(String, Value)> {
    let response = app.oneshot(request).await.expect("the router answers");
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()[header::CONTENT_TYPE].clone();
    assert_eq!(content_type, "text/event-stream");
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    parse_events(&String::from_utf8_lossy(&bytes))
}

async fn wait_for_free_threads(state: &AppState, wanted: usize) {
    let started = Instant::now();
    while state.budget.free_threads() != wanted {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the search was not stopped: {} threads free",
            state.budget.free_threads()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_board_lists_the_squares_in_lidraughts_numbering() {
    let (status, board) = answer(app(&state(1)), get("/api/board")).await;
    assert_eq!(status, StatusCode::OK);
    let squares = board["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 32);
    assert_eq!(squares[0]["name"], "b8");
    assert_eq!(squares[28]["name"], "a1");
    assert_eq!(
        (squares[28]["file"].as_u64(), squares[28]["rank"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        board["start_fen"]
            .as_str()
            .map(|fen| fen.starts_with("W:W")),
        Some(true)
    );
}

#[tokio::test]
async fn a_game_is_replayed_with_its_positions_texts_and_legal_moves() {
    let (status, game) = answer(
        app(&state(1)),
        post("/api/game", r#"{"fen": null, "moves": ["22-18", "11-15"]}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let plies = game["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 3);
    assert_eq!(plies[0]["pieces"].as_array().map(Vec::len), Some(24));
    assert_eq!(plies[1]["move"]["algebraic"], "c3-d4");
    assert_eq!(plies[1]["label"], "1.");
    assert_eq!(plies[2]["label"], "1...");
    assert_eq!(plies[2]["side"], "white");
    // 18x11 is forced: White must take on 15.
    let legal = game["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), 1, "{legal:?}");
    assert_eq!(legal[0]["hub"], "18x11x15");
    assert_eq!(legal[0]["captured"], serde_json::json!([15]));
    assert_eq!(legal[0]["routes"], serde_json::json!([[18, 11]]));
    assert!(game["outcome"].is_null());
}

#[tokio::test]
async fn promotions_are_marked_and_capture_routes_run_from_origin_to_destination() {
    // The white man on 6 (c7) moves to 1 or 2 and promotes either way.
    let (_, game) = answer(app(&state(1)), post("/api/game", r#"{"fen": "W:W6:B28"}"#)).await;
    let legal = game["legal"].as_array().expect("legal");
    assert!(!legal.is_empty());
    assert!(legal.iter().all(|mv| mv["promotes"] == true), "{legal:?}");
    // A flying king's captures: every route starts at the origin, lands once per piece taken
    // and ends at the destination.
    let (_, game) = answer(
        app(&state(1)),
        post("/api/game", r#"{"fen": "B:W6,7,14,15:BK1"}"#),
    )
    .await;
    for mv in game["legal"].as_array().expect("legal") {
        for route in mv["routes"].as_array().expect("routes") {
            let route = route.as_array().expect("a route");
            assert_eq!(route.first(), Some(&mv["from"]));
            assert_eq!(route.last(), Some(&mv["to"]));
            let taken = mv["captured"].as_array().map_or(0, Vec::len);
            assert!(taken > 0, "the king must capture: {mv}");
            assert_eq!(route.len(), taken + 1);
        }
    }
}

#[tokio::test]
async fn a_finished_game_has_its_result_and_no_legal_moves() {
    let (_, game) = answer(app(&state(1)), post("/api/game", r#"{"fen": "B:W18:B"}"#)).await;
    assert_eq!(game["outcome"]["result"], "2-0");
    assert_eq!(game["outcome"]["reason"], "Black has no legal move");
    assert_eq!(game["legal"].as_array().map(Vec::len), Some(0));
}

#[tokio::test]
async fn illegal_moves_and_bad_positions_are_refused_with_a_reason() {
    let app = app(&state(1));
    let (status, error) = answer(
        app.clone(),
        post("/api/game", r#"{"moves": ["22-18", "22-17"]}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = error["error"].as_str().expect("an error text");
    assert!(message.contains("move 2 '22-17'"), "{message}");
    let (status, error) = answer(app, post("/api/game", r#"{"fen": "W:W99:B1"}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"].as_str().is_some_and(|m| m.contains("W:W99")));
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = app(&state(1));
    let (status, error) = answer(app.clone(), post("/api/game", "{\"moves\": [")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"].is_string());
    let (status, _) = answer(app.clone(), post("/api/game", r#"{"moves": 7}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let no_type = Request::post("/api/game")
        .header(header::HOST, HOST)
        .body(Body::from("{}"))
        .expect("a request");
    let (status, _) = answer(app.clone(), no_type).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, error) = answer(app.clone(), get("/api/nothing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error["error"].is_string());
    let (status, _) = answer(app.clone(), get("/api/game")).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let (status, error) = answer(
        app,
        post("/api/search", r#"{"mode": "analyze", "multipv": 50}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"]
        .as_str()
        .is_some_and(|m| m.contains("multipv")));
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let huge = format!(r#"{{"text": "{}"}}"#, "x".repeat(2 << 20));
    let (status, error) = answer(app(&state(1)), post("/api/pdn/import", &huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error["error"]
        .as_str()
        .is_some_and(|m| m.contains("larger")));
}

#[tokio::test]
async fn requests_for_another_host_are_refused() {
    let app = app(&state(1));
    for host in ["evil.example:8080", "127.0.0.1:9999", "localhost"] {
        let request = Request::get("/api/board")
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("a request");
        let (status, error) = answer(app.clone(), request).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
        assert!(error["error"].as_str().is_some_and(|m| m.contains("host")));
    }
    let bare = Request::get("/").body(Body::empty()).expect("a request");
    let response = app.clone().oneshot(bare).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let response = app
        .oneshot(
            Request::get("/")
                .header(header::HOST, "localhost:8080")
                .body(Body::empty())
                .expect("a request"),
        )
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .is_ok_and(|kind| kind.starts_with("text/html")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_streams_reports_and_ends_with_the_best_move() {
    let state = state(1);
    let events = stream(
        app(&state),
        post(
            "/api/search",
            r#"{"moves": ["22-18"], "mode": "analyze", "depth": 5, "multipv": 2}"#,
        ),
    )
    .await;
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "info")
        .map(|(_, data)| data)
        .collect();
    assert!(infos
        .iter()
        .any(|info| info["depth"] == 5 && info["multipv"] == 2));
    let last = infos.last().expect("reports");
    assert!(last["score"]["text"].is_string() && last["score"]["white"].is_number());
    assert!(last["pv_algebraic"]
        .as_str()
        .is_some_and(|pv| !pv.is_empty()));
    let (name, done) = events.last().expect("events");
    assert_eq!(name, "done");
    assert_eq!(done["depth"], 5);
    let best = done["best"].as_str().expect("a best move");
    let (_, game) = answer(app(&state), post("/api/game", r#"{"moves": ["22-18"]}"#)).await;
    let legal: Vec<&str> = game["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(|mv| mv["hub"].as_str())
        .collect();
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    wait_for_free_threads(&state, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_play_search_answers_within_its_move_time() {
    let state = state(1);
    let started = Instant::now();
    let events = stream(
        app(&state),
        post("/api/search", r#"{"mode": "play", "movetime_ms": 200}"#),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(5));
    let (name, done) = events.last().expect("events");
    assert_eq!(name, "done");
    assert_eq!(done["source"], "search");
    assert!(done["best"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_stream_stops_the_search_and_frees_its_threads() {
    let state = state(1);
    let response = app(&state)
        .oneshot(post("/api/search", r#"{"mode": "analyze"}"#))
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // Wait for the first report, so the search is surely running.
    let mut seen = String::new();
    while !seen.contains("event: info") {
        let frame = body
            .frame()
            .await
            .expect("the stream goes on")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
        }
    }
    assert_eq!(state.budget.free_threads(), 0);
    // A second search finds every thread busy.
    let (status, error) = answer(app(&state), post("/api/search", r#"{"mode": "analyze"}"#)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(error["error"].as_str().is_some_and(|m| m.contains("busy")));
    drop(body);
    // The next search, asked for at once, waits for the stopping one instead of being refused.
    let events = stream(
        app(&state),
        post("/api/search", r#"{"mode": "analyze", "depth": 2}"#),
    )
    .await;
    assert_eq!(events.last().map(|(name, _)| name.as_str()), Some("done"));
    wait_for_free_threads(&state, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_takes_its_move_from_the_book_and_analysis_ignores_it() {
    let start = Position::start();
    let book_move = movegen::legal_moves(&start)
        .into_iter()
        .find(|mv| mv.hub() == "24-20")
        .expect("24-20 is legal at the start");
    let book = Book::from_entries(
        onca::rules::variant::Variant::Brazilian,
        vec![Entry {
            key: start.key(),
            mv: book_move,
            score: 5,
            depth: 10,
            record: onca::book::learn::GameRecord::NONE,
        }],
    );
    let state = AppState::new(
        1,
        4,
        Tables::Loaded(Arc::new(Tablebases::empty())),
        Some(Arc::new(book)),
    );
    let events = stream(
        app(&state),
        post("/api/search", r#"{"mode": "play", "movetime_ms": 5000}"#),
    )
    .await;
    let (_, done) = events.last().expect("events");
    assert_eq!(
        (done["best"].as_str(), done["source"].as_str()),
        (Some("24-20"), Some("book"))
    );
    let events = stream(
        app(&state),
        post("/api/search", r#"{"mode": "analyze", "depth": 3}"#),
    )
    .await;
    let (_, done) = events.last().expect("events");
    assert_eq!(done["source"], "search");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_book_answers_only_in_games_of_its_variant_and_a_file_of_another_is_refused() {
    use onca::rules::variant::Variant;
    let start = Position::start();
    let book_move = movegen::legal_moves_in(Variant::Russian, &start)
        .into_iter()
        .find(|mv| mv.hub() == "24-20")
        .expect("24-20 is legal at the start");
    let mut entries = vec![Entry {
        key: start.key(),
        mv: book_move,
        score: 5,
        depth: 10,
        record: onca::book::learn::GameRecord::NONE,
    }];
    let path = std::env::temp_dir().join(format!("onca-serve-{}-ru.book", std::process::id()));
    std::fs::write(
        &path,
        onca::book::file::encode(Variant::Russian, &mut entries),
    )
    .expect("written");
    // Starting the page in Brazilian with a Russian book file is refused by name.
    let refused = onca::serve::app::load_book(Some(&path), Variant::Brazilian)
        .err()
        .map(|error| format!("{error:#}"))
        .expect("refused");
    assert!(
        refused.contains(path.to_str().expect("UTF-8"))
            && refused.contains("russian")
            && refused.contains("brazilian"),
        "{refused}"
    );
    let book = onca::serve::app::load_book(Some(&path), Variant::Russian)
        .expect("a Russian book for a Russian page");
    let _ = std::fs::remove_file(&path);
    let state = AppState::new(1, 4, Tables::Loaded(Arc::new(Tablebases::empty())), book);
    let source = |body: &'static str| {
        let state = state.clone();
        async move {
            let events = stream(app(&state), post("/api/search", body)).await;
            let (_, done) = events.last().expect("events").clone();
            (done["best"].clone(), done["source"].clone())
        }
    };
    let (best, from) =
        source(r#"{"mode": "play", "movetime_ms": 5000, "variant": "russian"}"#).await;
    assert_eq!(
        (best.as_str(), from.as_str()),
        (Some("24-20"), Some("book"))
    );
    // A Brazilian game on the same page searches.
    let (_, from) = source(r#"{"mode": "play", "depth": 2}"#).await;
    assert_eq!(from, "search");
}

#[tokio::test]
async fn russian_games_use_russian_rules_and_pdn_game_type_25() {
    let (_, board) = answer(app(&state(1)), get("/api/board")).await;
    assert_eq!(board["variant"], "brazilian");
    let russian_page = state(1).with_variant(onca::rules::variant::Variant::Russian);
    let (_, board) = answer(app(&russian_page), get("/api/board")).await;
    assert_eq!(board["variant"], "russian");
    let app = app(&state(1));
    // White may take one man with 21 or two with 28: Russian lists both, Brazilian only 28's.
    let position = r#""fen": "W:W21,28:B17,24,15""#;
    let legal = |game: &Value| -> Vec<String> {
        let moves = game["legal"].as_array().expect("legal");
        moves
            .iter()
            .map(|mv| mv["hub"].as_str().expect("hub").to_string())
            .collect()
    };
    let body = format!(r#"{{{position}, "variant": "russian"}}"#);
    let (status, russian) = answer(app.clone(), post("/api/game", &body)).await;
    assert_eq!(status, StatusCode::OK, "{russian}");
    assert_eq!(russian["variant"], "russian");
    assert_eq!(legal(&russian), ["21x14x17", "28x10x15x24"]);
    let (_, brazilian) = answer(app.clone(), post("/api/game", &format!("{{{position}}}"))).await;
    assert_eq!(brazilian["variant"], "brazilian");
    assert_eq!(legal(&brazilian), ["28x10x15x24"]);

    // A man crowned during a capture goes on as a king and is marked as promoted.
    let crowning = r#"{"fen": "W:W11:B7,9", "variant": "russian"}"#;
    let (_, game) = answer(app.clone(), post("/api/game", crowning)).await;
    assert_eq!(game["legal"][0]["hub"], "11x13x7x9");
    assert_eq!(game["legal"][0]["promotes"], true);

    let bad = format!(r#"{{{position}, "variant": "checkers"}}"#);
    let (status, error) = answer(app.clone(), post("/api/game", &bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"]
        .as_str()
        .is_some_and(|e| e.contains("checkers")));

    // Export writes GameType 25; import reads it back as a Russian game.
    let export = format!(
        r#"{{{position}, "moves": ["21x14x17"], "variant": "russian", "notation": "numeric"}}"#
    );
    let (status, exported) = answer(app.clone(), post("/api/pdn/export", &export)).await;
    assert_eq!(status, StatusCode::OK, "{exported}");
    let text = exported["text"].as_str().expect("text");
    assert!(text.contains("[GameType \"25,W,8,8,N2,0\"]"), "{text}");
    let request = serde_json::json!({ "text": text }).to_string();
    let (status, imported) = answer(app.clone(), post("/api/pdn/import", &request)).await;
    assert_eq!(status, StatusCode::OK, "{imported}");
    assert_eq!(imported["games"][0]["variant"], "russian");
    assert_eq!(
        imported["games"][0]["moves"],
        serde_json::json!(["21x14x17"])
    );

    // A Russian analysis searches under Russian rules and names a Russian move.
    let events = stream(
        app,
        post(
            "/api/search",
            r#"{"fen": "W:W11:B7,9", "variant": "russian", "mode": "analyze", "depth": 3}"#,
        ),
    )
    .await;
    let (_, done) = events.last().expect("events");
    assert_eq!(done["best"], "11x13x7x9");
}

#[tokio::test]
async fn pdn_games_are_imported_and_exported() {
    let app = app(&state(1));
    let text = "[Event \"Test\"]\n[Result \"*\"]\n1. c3-d4 f6-g5 2. b2-c3 *\n";
    let request = serde_json::json!({ "text": text }).to_string();
    let (status, imported) = answer(app.clone(), post("/api/pdn/import", &request)).await;
    assert_eq!(status, StatusCode::OK, "{imported}");
    let game = &imported["games"][0];
    assert_eq!(
        game["moves"],
        serde_json::json!(["22-18", "11-16", "25-22"])
    );
    assert_eq!(game["tags"][0], serde_json::json!(["Event", "Test"]));
    let export = serde_json::json!({
        "fen": game["fen"], "moves": game["moves"], "tags": [["Event", "Again"]],
        "result": "*", "notation": "algebraic",
    })
    .to_string();
    let (status, exported) = answer(app.clone(), post("/api/pdn/export", &export)).await;
    assert_eq!(status, StatusCode::OK, "{exported}");
    let written = exported["text"].as_str().expect("text");
    assert!(written.contains("[Event \"Again\"]"), "{written}");
    assert!(written.contains("1. c3-d4 f6-g5 2. b2-c3"), "{written}");
    let garbage = serde_json::json!({ "text": "1. c3-d4 a1-h8 *" }).to_string();
    let (status, error) = answer(app, post("/api/pdn/import", &garbage)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_review_reports_progress_and_a_value_per_ply() {
    let state = state(1);
    let events = stream(
        app(&state),
        post(
            "/api/review",
            r#"{"moves": ["22-18", "11-15", "18x11x15", "8x15x11"], "depth": 3}"#,
        ),
    )
    .await;
    let progress = events.iter().filter(|(name, _)| name == "progress").count();
    assert_eq!(progress, 5);
    let (name, review) = events.last().expect("events");
    assert_eq!(name, "review");
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[2]["label"], "2.");
    assert_eq!(plies[2]["algebraic"], "d4xf6");
    assert!(plies
        .iter()
        .all(|ply| ply["white"].is_number() && ply["class"].is_string()));
    assert_eq!(review["complete"], true);
    assert_eq!(review["summary"]["white"]["moves"], 2);
    wait_for_free_threads(&state, 1).await;
}

/// The binary binds a free port, prints its address and answers over TCP; a request naming
/// another host is refused there too.
#[test]
fn the_binary_serves_on_the_port_it_announces() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_onca"))
        .args(["serve", "--port", "0", "--hash", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("onca starts");
    let address = hub_support::served_address(child.stdout.take().expect("stdout"));
    let fetch = |host: &str| {
        let mut socket = std::net::TcpStream::connect(&address).expect("connects");
        write!(
            socket,
            "GET /api/board HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .expect("sends");
        let mut reply = String::new();
        socket.read_to_string(&mut reply).expect("reads");
        reply
    };
    let reply = fetch(&address);
    let refused = fetch("attacker.example");
    child.kill().expect("stops");
    let _ = child.wait();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(reply.contains("\"squares\""));
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
}

/// Without a table directory the server's games get the built-in tables: a search near an ending
/// starts computing them, and once they are ready a won four-piece ending is scored by them.
#[tokio::test]
async fn without_a_directory_searches_near_an_ending_get_the_built_in_tables() {
    use onca::egtb::builtin;
    use onca::rules::variant::Variant;
    let builtin_state = AppState::new(1, 4, Tables::Builtin, None);
    // Three kings against a king off the long diagonal: won, but not within two plies.
    let request = r#"{"fen": "W:WK4,K11,K26:BK14", "mode": "analyze", "depth": 2}"#;
    let score = |events: &[(String, Value)]| -> String {
        let (name, done) = events.last().expect("events");
        assert_eq!(name, "done");
        done["score"]["text"].as_str().expect("a score").to_string()
    };
    let first = stream(app(&builtin_state), post("/api/search", request)).await;
    let started = Instant::now();
    while builtin::ready(Variant::Brazilian).is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the first search did not start the tables"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let second = stream(app(&builtin_state), post("/api/search", request)).await;
    assert_eq!(score(&second), "White wins (tables)");
    assert_ne!(
        score(&first),
        score(&second),
        "searched with the tables before they were computed"
    );
    // A server given a directory uses only that (here: none).
    let loaded = stream(app(&state(1)), post("/api/search", request)).await;
    assert_ne!(score(&loaded), "White wins (tables)");
    wait_for_free_threads(&builtin_state, 1).await;
}
