//! The shared shape of the workspace's text ids ([`super::session_id`],
//! [`super::task_id`], [`super::conversation_id`]): one checking function
//! behind `FromStr`, `TryFrom<&str>`, `TryFrom<String>` and `Deserialize`,
//! and a `Display`/`Serialize` that writes the text back unchanged, so an
//! id that fails the check cannot be built on any path in.

/// Declares a text id `$name` (a reference-counted `str`) whose every path
/// in goes through `$check: fn(&str) -> Result<(), $error>`.
macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident, $error:ty, $check:path) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(std::rc::Rc<str>);

        impl $name {
            /// The id as a string slice.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = $error;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $check(s)?;
                Ok(Self(std::rc::Rc::from(s)))
            }
        }

        impl TryFrom<&str> for $name {
            type Error = $error;
            fn try_from(s: &str) -> Result<Self, Self::Error> {
                s.parse()
            }
        }

        impl TryFrom<String> for $name {
            type Error = $error;
            fn try_from(s: String) -> Result<Self, Self::Error> {
                s.parse()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                &*self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                &*self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &*self.0 == other.as_str()
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                self.as_str() == &*other.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        $crate::ids::text_form::serde_as_text!($name);
    };
}

pub(crate) use text_id;

/// The first character of `s` outside `allowed`, when there is one.
pub(crate) fn first_outside(s: &str, allowed: impl Fn(char) -> bool) -> Option<char> {
    s.chars().find(|c| !allowed(*c))
}

/// The property every text id keeps, for its tests: text that parses is
/// written back unchanged and read back from JSON as the same id; text that
/// does not parse is refused from JSON too.
#[cfg(test)]
pub(crate) fn round_trips<T>(text: &str) -> Result<(), proptest::test_runner::TestCaseError>
where
    T: std::str::FromStr + std::fmt::Display + std::fmt::Debug + PartialEq,
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    use proptest::{prop_assert, prop_assert_eq};
    match text.parse::<T>() {
        Ok(id) => {
            prop_assert_eq!(id.to_string(), text);
            let json = serde_json::to_string(&id).unwrap();
            prop_assert_eq!(serde_json::from_str::<T>(&json).unwrap(), id);
        }
        Err(_) => {
            let json = serde_json::to_string(text).unwrap();
            prop_assert!(serde_json::from_str::<T>(&json).is_err());
        }
    }
    Ok(())
}
