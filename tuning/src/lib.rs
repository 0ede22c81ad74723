//! Tuning Onça's evaluation: [`datagen`] plays self-play games and writes quiet positions with
//! their results (resumable), [`tune`] fits the sigmoid scale and then the weights by gradient
//! descent on the evaluation's linear features ([`samples`] stores them, [`checkpoint`] saves a
//! run's progress) and writes a weights file ([`rescore`] adds search scores to blend into the
//! labels); copied to `data/eval/weights.txt` it becomes the
//! engine's built-in weights. [`spsa`] tunes the search's constants by games.

pub mod checkpoint;
pub mod datagen;
pub mod rescore;
pub mod rng;
pub mod samples;
pub mod spsa;
pub mod tune;
