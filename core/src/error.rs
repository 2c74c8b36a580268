//! What the core refuses, and why: one typed error for every call that changes a match. The
//! Python face raises each kind as its own exception class (`domsim._core.IllegalMove`, ...).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// No hand is in play: none has started, or the last one ended (`what` was asked).
    NoHandInPlay(&'static str),
    /// A play the rules do not allow now (R-LINE, R-LEAD).
    IllegalMove(String),
    /// A draw the rules do not allow now (R-MUST, R-DRAW-THEN-PLAY).
    IllegalDraw(String),
    /// A pass the rules do not allow now (R-MUST).
    IllegalPass(String),
    /// A deal or position no match can hold.
    InvalidPosition(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NoHandInPlay(what) => write!(f, "cannot {what}: no hand is in play"),
            CoreError::IllegalMove(why)
            | CoreError::IllegalDraw(why)
            | CoreError::IllegalPass(why)
            | CoreError::InvalidPosition(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CoreError {}

pub type CoreResult<T> = Result<T, CoreError>;
