//! Values written as their text: serialized as their `Display` and read back
//! through their `FromStr` (whose error becomes the format's), so what is read
//! is checked as a parsed value is.

/// Implements `Serialize` (the `Display` text) and `Deserialize` (through
/// `FromStr`) for each type named.
macro_rules! serde_as_text {
    ($($name:ty),+ $(,)?) => {$(
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )+};
}

pub(crate) use serde_as_text;
