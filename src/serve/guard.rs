//! What every request passes: the API's error type (always a JSON body `{"error": ...}`), the
//! JSON body extractor that turns malformed or oversized bodies into such errors, and the Host
//! check.
//!
//! The Host check defends against DNS rebinding: a page from another site that gets its name
//! resolved to 127.0.0.1 could otherwise drive the engine from the user's browser. Only requests
//! naming the served address (or `localhost` with its port, or a name the user allowed) pass.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// The largest request body accepted (a PDN upload included).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// An error answered as `{"error": message}` with an HTTP status.
#[derive(Debug)]
pub struct ApiError {
    /// 4xx for the client's mistakes, 503 when busy, 500 for ours.
    pub status: StatusCode,
    /// What went wrong, for the page's status line.
    pub message: String,
}

impl ApiError {
    /// A 400: the request is well formed JSON but asks for something impossible.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// An error with its own status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

/// A JSON body like axum's [`Json`], whose rejections (bad JSON, wrong content type, too large)
/// are [`ApiError`]s with the same status.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        format!("the request body is larger than {MAX_BODY_BYTES} bytes")
    } else {
        rejection.body_text()
    };
    ApiError::new(status, message)
}

/// The Host header values the server answers to.
#[derive(Clone, Debug)]
pub struct AllowedHosts(pub Arc<Vec<String>>);

impl AllowedHosts {
    /// The names a browser uses for a server bound to `host` on `port`: the host itself, and
    /// `localhost` and `127.0.0.1` (loopback names always reach only this machine), plus the
    /// user's `extra` names, each with the port.
    pub fn for_address(host: &str, port: u16, extra: &[String]) -> AllowedHosts {
        let bracketed = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        let mut names: Vec<String> = [bracketed.as_str(), "localhost", "127.0.0.1", "[::1]"]
            .iter()
            .map(|name| format!("{name}:{port}"))
            .collect();
        names.extend(extra.iter().map(|name| format!("{name}:{port}")));
        names
            .iter_mut()
            .for_each(|name| name.make_ascii_lowercase());
        AllowedHosts(Arc::new(names))
    }

    /// Whether a Host header value names this server.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.0.contains(&host)
    }
}

/// Middleware: refuses (403) a request whose Host header does not name this server.
pub async fn check_host(
    State(allowed): State<AllowedHosts>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok());
    match host {
        Some(host) if allowed.allows(host) => next.run(request).await,
        Some(host) => ApiError::new(
            StatusCode::FORBIDDEN,
            format!("this server does not answer to the host name '{host}'"),
        )
        .into_response(),
        None => {
            ApiError::new(StatusCode::FORBIDDEN, "the request has no Host header").into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_the_port_pass_and_others_do_not() {
        let allowed = AllowedHosts::for_address("127.0.0.1", 8080, &[]);
        assert!(allowed.allows("127.0.0.1:8080"));
        assert!(allowed.allows("LOCALHOST:8080"));
        assert!(!allowed.allows("localhost:8081"));
        assert!(!allowed.allows("evil.example:8080"));
        assert!(!allowed.allows("127.0.0.1"));
        let wide = AllowedHosts::for_address("0.0.0.0", 80, &["board.lan".to_string()]);
        assert!(wide.allows("board.lan:80"));
        let v6 = AllowedHosts::for_address("::1", 9000, &[]);
        assert!(v6.allows("[::1]:9000"));
    }
}
