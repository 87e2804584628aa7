//! The shape of a user-settable option, shared by the rule switches and the
//! engine's own options, so that the protocol prints and checks both one way.

/// What kind of value an option takes, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A `check` box: the value is `true` or `false`, any case.
    Check {
        /// The value before anyone sets it.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// The value before anyone sets it.
        default: i64,
        /// Smallest accepted value; a lower one is refused, not clamped.
        min: i64,
        /// Largest accepted value; a higher one is refused, not clamped.
        max: i64,
    },
    /// One of a fixed list of words.
    Combo {
        /// The value before anyone sets it.
        default: &'static str,
        /// Every accepted value, as `uci` lists them and in the order of the enum they name.
        choices: &'static [&'static str],
    },
    /// An action with no value.
    Button,
    /// Free text, such as a file name.
    String {
        /// The value before anyone sets it.
        default: &'static str,
    },
}

/// Why a value was rejected for an option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// A setting given as one word (`--set`, `# rules:` lines) is not
    /// `Name=Value`.
    #[error("'{0}' is not a setting: expected Name=Value, e.g. DogOverWolf=true")]
    NotASetting(String),
    /// The value does not fit the option's kind or range.
    #[error("option '{name}' does not take '{value}': expected {expected}")]
    BadValue {
        /// The option whose value was refused.
        name: String,
        /// The value given, as written.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// The value has the right form but could not be used (a file that
    /// cannot be read, say); the option keeps its old value.
    #[error("option '{name}' cannot use '{value}': {reason}")]
    Refused {
        /// The option whose value could not be used.
        name: String,
        /// The value given, as written.
        value: String,
        /// Why it could not be used.
        reason: Reason,
    },
}

/// Why a value could not be used: the typed error of whoever tried to use it
/// (a table set, a net), shared so that [`OptionError`] stays cheap to clone.
/// Two reasons are equal when they say the same.
#[derive(Clone, Debug)]
pub struct Reason(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl Reason {
    /// The reason `error` gives.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Reason {
        Reason(std::sync::Arc::new(error))
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for Reason {
    fn eq(&self, other: &Reason) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for Reason {}

impl OptionKind {
    fn bad(&self, name: &str, value: &str) -> OptionError {
        let expected = match self {
            OptionKind::Check { .. } => "true or false".to_string(),
            OptionKind::Spin { min, max, .. } => format!("an integer from {min} to {max}"),
            OptionKind::Combo { choices, .. } => format!("one of {}", choices.join(", ")),
            OptionKind::Button => "no value".to_string(),
            OptionKind::String { .. } => "text".to_string(),
        };
        OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            expected,
        }
    }

    /// Checks that a button is given no value (`setoption name Clear Hash`,
    /// without `value`); any other kind passes.
    pub fn check_button(&self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        match value {
            Some(value) if *self == OptionKind::Button => Err(self.bad(name, value)),
            _ => Ok(()),
        }
    }

    /// Checks a check option's value.
    pub fn parse_bool(&self, name: &str, value: &str) -> Result<bool, OptionError> {
        match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.bad(name, value)),
        }
    }

    /// Checks a spin option's value against its range.
    pub fn parse_int(&self, name: &str, value: &str) -> Result<i64, OptionError> {
        let OptionKind::Spin { min, max, .. } = *self else {
            return Err(self.bad(name, value));
        };
        match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(self.bad(name, value)),
        }
    }

    /// Checks a combo option's value; answers the index of the choice.
    /// Choices are matched without regard to case, as UCI GUIs vary.
    pub fn parse_choice(&self, name: &str, value: &str) -> Result<usize, OptionError> {
        if let OptionKind::Combo { choices, .. } = self
            && let Some(i) = choices.iter().position(|c| c.eq_ignore_ascii_case(value))
        {
            return Ok(i);
        }
        Err(self.bad(name, value))
    }
}

/// Declares the enum behind a `combo` option from one list of `Variant =
/// "value"` pairs, with `NAMES` (the option's values), `ALL` (the variants, in
/// the same order) and `name`: a variant without its value, or a value
/// without its variant, cannot be written, so no match arm can be missed.
macro_rules! choices {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// How many choices there are.
            pub const COUNT: usize = [$($text),+].len();

            /// The option's values, in the order of `ALL`.
            pub const NAMES: [&'static str; Self::COUNT] = [$($text),+];

            /// Every choice, in the order of `NAMES`.
            pub const ALL: [$name; Self::COUNT] = [$($name::$variant),+];

            /// The option value that selects this choice.
            pub const fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
        }
    };
}

pub(crate) use choices;

#[cfg(test)]
mod tests {
    use super::*;

    choices! {
        enum Colour {
            Red = "red",
            Blue = "blue",
        }
    }

    #[test]
    fn choices_pair_each_variant_with_its_name() {
        assert_eq!(Colour::COUNT, 2);
        assert_eq!(Colour::ALL, [Colour::Red, Colour::Blue]);
        for (c, n) in Colour::ALL.into_iter().zip(Colour::NAMES) {
            assert_eq!(c.name(), n);
        }
        let kind = OptionKind::Combo {
            default: Colour::Red.name(),
            choices: &Colour::NAMES,
        };
        let i = kind.parse_choice("Colour", "BLUE").unwrap();
        assert_eq!(Colour::ALL[i], Colour::Blue);
    }
}
