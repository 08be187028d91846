//! Emoji: the table, fetched when first needed ([`table`]), and finding in
//! it ([`find`]), the person's recent ones
//! ([`recent`]), `:shortcodes:` in typed text ([`shortcode`]) and the picker
//! ([`picker`], moving through its grid with [`grid`]) that reactions and
//! the composer open with a [`opener::PickerButton`].

pub mod find;
pub mod grid;
pub mod opener;
pub mod picker;
pub mod recent;
pub mod shortcode;
pub mod table;
