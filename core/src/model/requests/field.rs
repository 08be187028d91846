//! One field of a request payload as it was sent ([`AsSent`]), a nested
//! object that reads only from a JSON object ([`Object`]), [`read`], which
//! turns a payload into a request type without ever failing, and
//! `request_types!`, which declares request types of that shape.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// Declares request types: each is `#[serde(default)]` and reads only
/// (`Deserialize`), and each field `name: T` is a public
/// `name: AsSent<T>`, so a field left out reads as [`AsSent::Absent`] and
/// any other value is kept as sent. Attributes (docs, `#[serde(rename)]`)
/// pass through to the type and its fields.
macro_rules! request_types {
    ($(
        $(#[$type_attr:meta])*
        pub struct $name:ident {
            $($(#[$field_attr:meta])* $field:ident: $sent:ty,)*
        }
    )*) => {$(
        $(#[$type_attr])*
        #[derive(Debug, Clone, PartialEq, Default, serde::Deserialize)]
        #[serde(default)]
        pub struct $name {
            $($(#[$field_attr])* pub $field: $crate::model::requests::field::AsSent<$sent>,)*
        }
    )*};
}

pub(crate) use request_types;

/// A payload field as sent. Its request type is `#[serde(default)]`, so a
/// missing field is [`AsSent::Absent`].
#[derive(Debug, Clone, PartialEq, Default)]
pub enum AsSent<T> {
    /// Not in the payload.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// A value of the field's type.
    Given(T),
    /// Something else, kept as sent.
    Wrong(Value),
}

impl<T> AsSent<T> {
    /// True when the payload leaves the field out.
    pub fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }

    /// True when the payload has the field, whatever its value (`null` too).
    pub fn is_sent(&self) -> bool {
        !self.is_absent()
    }

    /// The value when it has the field's type; anything else reads as none.
    pub fn given(self) -> Option<T> {
        match self {
            Self::Given(value) => Some(value),
            _ => None,
        }
    }

    /// [`AsSent::given`] by reference.
    pub fn as_given(&self) -> Option<&T> {
        match self {
            Self::Given(value) => Some(value),
            _ => None,
        }
    }

    /// The value, none when absent or `null`, and `wrong()`'s error when it
    /// is something else.
    pub fn checked<E>(self, wrong: impl FnOnce() -> E) -> Result<Option<T>, E> {
        match self {
            Self::Absent | Self::Null => Ok(None),
            Self::Given(value) => Ok(Some(value)),
            Self::Wrong(_) => Err(wrong()),
        }
    }

    /// When the payload has the field (`null` too): the value when it has
    /// the field's type, else none — a handler refuses that none itself.
    pub fn sent(self) -> Option<Option<T>> {
        self.if_sent().map(Self::given)
    }

    /// The field itself when the payload has it (`null` too).
    pub fn if_sent(self) -> Option<Self> {
        self.is_sent().then_some(self)
    }

    /// The field with `null` read as left out.
    pub fn non_null(self) -> Self {
        match self {
            Self::Null => Self::Absent,
            sent => sent,
        }
    }
}

impl<T: DeserializeOwned> AsSent<T> {
    /// When the payload has the field: the value, or serde's reason it is no
    /// `T` (`null` is read as a `T` too), for a handler whose message quotes it.
    pub fn parsed(self) -> Option<Result<T, serde_json::Error>> {
        match self {
            Self::Absent => None,
            Self::Given(value) => Some(Ok(value)),
            Self::Null => Some(serde_json::from_value(Value::Null)),
            Self::Wrong(value) => Some(serde_json::from_value(value)),
        }
    }
}

impl AsSent<Value> {
    /// The value as sent (`null` too), when the payload has the field.
    pub fn value(self) -> Option<Value> {
        match self {
            Self::Absent => None,
            Self::Null => Some(Value::Null),
            Self::Given(value) | Self::Wrong(value) => Some(value),
        }
    }
}

impl AsSent<String> {
    /// The text, when the field is text.
    pub fn as_text(&self) -> Option<&str> {
        self.as_given().map(String::as_str)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for AsSent<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(deserializer)? {
            Value::Null => Self::Null,
            value => match T::deserialize(&value) {
                Ok(given) => Self::Given(given),
                Err(_) => Self::Wrong(value),
            },
        })
    }
}

/// A nested object of a payload (`credentials`, a task's `artifact`): it
/// reads only from a JSON object, never from a list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object<T>(pub T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Map::<String, Value>::deserialize(deserializer)?;
        T::deserialize(Value::Object(fields))
            .map(Object)
            .map_err(D::Error::custom)
    }
}

/// `payload` as the request `T`. A request type made of [`AsSent`]s reads
/// from any object; a payload that is no object reads as `{}`.
pub fn read<T: DeserializeOwned + Default>(payload: &Value) -> T {
    Object::<T>::deserialize(payload).map_or_else(|_| T::default(), |read| read.0)
}

/// [`read`] of a nested field: its object's fields, else none of them.
pub fn nested<T: Default>(field: AsSent<Object<T>>) -> T {
    field.given().map(|object| object.0).unwrap_or_default()
}
