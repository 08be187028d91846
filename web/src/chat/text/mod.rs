//! A message's text: its Markdown rendered safely ([`markdown`], with mentions marked by
//! `inline`) and the plain text a quote or a notification shows ([`plain`]).

mod inline;
pub mod markdown;
pub mod plain;
