//! Tuning Onça's evaluation: [`datagen`] plays self-play games and writes quiet positions with
//! their results, [`tune`] fits the sigmoid scale and then the weights by gradient descent on the
//! evaluation's linear features, [`export`] writes the weights as a Rust file the engine can
//! compile in.

pub mod datagen;
pub mod export;
pub mod rng;
pub mod tune;
