//! Choices among a fixed few that users name by a word — a method, a template, a bone-naming
//! convention — read the same way from the command line, the page and the packages, and a
//! wrong word answered with the words there are.

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
            type Err = String;

            fn from_str(word: &str) -> Result<Self, String> {
                match word {
                    $($word => Ok(Self::$variant),)+
                    other => Err(format!(
                        "unknown {} '{other}'; available: {}",
                        $what,
                        Self::NAMES.join(", ")
                    )),
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
        assert_eq!(
            "warp".parse::<Speed>(),
            Err("unknown speed 'warp'; available: slow, fast".to_owned())
        );
    }
}
