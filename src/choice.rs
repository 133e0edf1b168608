//! Choices among a fixed few that users name by a word — a method, a template, a bone-naming
//! convention — read the same way from the command line, the page and the packages, and a
//! wrong word answered with the words there are.

/// A word that names none of a fixed set of choices, with the words there are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{word}'; available: {}", .available.join(", "))]
pub struct UnknownName {
    /// What was being named: "method", "template", "bone names".
    pub kind: &'static str,
    pub word: String,
    pub available: Vec<String>,
}

impl UnknownName {
    pub fn new<S: ToString>(
        kind: &'static str,
        word: &str,
        available: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            kind,
            word: word.to_owned(),
            available: available.into_iter().map(|w| w.to_string()).collect(),
        }
    }
}

/// The words of a fieldless enum: `NAMES`, `name()` and `FromStr`, from one list of
/// `Variant => "word"` pairs, so that the words and their parsing never disagree.
macro_rules! named_choice {
    ($ty:ident, $what:literal, { $($variant:ident => $word:literal),+ $(,)? }) => {
        impl $ty {
            /// Every choice's word, in order.
            pub const NAMES: &'static [&'static str] = &[$($word),+];

            /// The word that names this choice.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $word),+
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::choice::UnknownName;

            fn from_str(word: &str) -> Result<Self, Self::Err> {
                match word {
                    $($word => Ok(Self::$variant),)+
                    other => Err($crate::choice::UnknownName::new($what, other, Self::NAMES)),
                }
            }
        }
    };
}

pub(crate) use named_choice;

#[cfg(test)]
mod tests {
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Speed {
        Slow,
        Fast,
    }

    named_choice!(Speed, "speed", { Slow => "slow", Fast => "fast" });

    #[test]
    fn words_read_back_and_a_wrong_one_lists_them() {
        assert_eq!("fast".parse::<Speed>(), Ok(Speed::Fast));
        assert_eq!(Speed::Slow.name(), "slow");
        let unknown = "warp".parse::<Speed>().unwrap_err();
        assert_eq!(unknown.available, ["slow", "fast"]);
        assert_eq!(
            unknown.to_string(),
            "unknown speed 'warp'; available: slow, fast"
        );
    }
}
