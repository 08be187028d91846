//! One step of a binding: go on with a value, or stop and answer now.
//!
//! A binding's helpers that may end the request early (a refused credential,
//! a malformed body) return `Result<Step<T>, H::Error>`: the host's I/O
//! failing is the `Err`, a refusal is an answer like any other, and nothing
//! answers on an `Err` (`core/tests/layout.rs` checks that no `Ok(Err(…))`
//! says "answer this" any more).

use super::message::Response;

/// The value of a `Result<Step<T, A>, E>` to go on with: `?` on the
/// host's error, and on [`Step::Answer`] returns `Ok(wrap(answer))` from the
/// function it stands in (`wrap` is `Into::into` when left out).
macro_rules! go_on {
    ($step:expr) => {
        $crate::bindings::step::go_on!($step, ::std::convert::Into::into)
    };
    ($step:expr, $wrap:expr) => {
        match $step? {
            $crate::bindings::step::Step::Go(value) => value,
            $crate::bindings::step::Step::Answer(answer) => return Ok($wrap(answer)),
        }
    };
}

pub(crate) use go_on;

/// Go on with `T`, or answer `A` (a [`Response`] unless said) now.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<T, A = Response> {
    /// Go on with this.
    Go(T),
    /// Stop here and answer this.
    Answer(A),
}

impl<T, A> Step<T, A> {
    /// The value to go on with, if there is one.
    pub fn go(self) -> Option<T> {
        match self {
            Self::Go(value) => Some(value),
            Self::Answer(_) => None,
        }
    }

    /// The value to go on with, with `f` applied to it.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Step<U, A> {
        match self {
            Self::Go(value) => Step::Go(f(value)),
            Self::Answer(answer) => Step::Answer(answer),
        }
    }

    /// As a `Result`: the value, or the answer as the error (tests).
    pub fn into_result(self) -> Result<T, A> {
        match self {
            Self::Go(value) => Ok(value),
            Self::Answer(answer) => Err(answer),
        }
    }

    /// The answer with `f` applied to it.
    pub fn map_answer<B>(self, f: impl FnOnce(A) -> B) -> Step<T, B> {
        match self {
            Self::Go(value) => Step::Go(value),
            Self::Answer(answer) => Step::Answer(f(answer)),
        }
    }
}

impl<T, A> From<Result<T, A>> for Step<T, A> {
    fn from(result: Result<T, A>) -> Self {
        match result {
            Ok(value) => Self::Go(value),
            Err(answer) => Self::Answer(answer),
        }
    }
}
