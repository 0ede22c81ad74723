//! The page, compiled into the binary: `page/index.html`, its style sheet and its three
//! JavaScript modules. Nothing is fetched from anywhere else, so the board works offline.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

/// One embedded file.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its contents.
    pub body: &'static str,
}

/// Every file of the page.
pub static ASSETS: [Asset; 5] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("page/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
    Asset {
        path: "/api.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/api.js"),
    },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/board.js"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/app.js"),
    },
];

impl Asset {
    /// The file as a response. The page is tied to this binary's API, so browsers must not keep
    /// an old copy after an upgrade; `nosniff` and a strict content policy keep it to itself.
    pub fn response(&self) -> Response {
        (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(self.content_type)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                (
                    header::X_CONTENT_TYPE_OPTIONS,
                    HeaderValue::from_static("nosniff"),
                ),
                (
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(
                        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
                    ),
                ),
            ],
            self.body,
        )
            .into_response()
    }
}
