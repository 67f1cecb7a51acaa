//! serde support (the `serde` feature): every type with a text form in the records and
//! the rule book (cells, actions, rule sets, results, terminations) is (de)serialized as that text, so JSON reads as the notation does.

/// Serializes with `Display` and deserializes with `FromStr`.
macro_rules! serde_via_string {
    ($($t:ty),+) => {
        $(
            impl serde::Serialize for $t {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    serializer.collect_str(self)
                }
            }

            impl<'de> serde::Deserialize<'de> for $t {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$t, D::Error> {
                    let text = String::deserialize(deserializer)?;
                    text.parse().map_err(serde::de::Error::custom)
                }
            }
        )+
    };
}

serde_via_string!(
    crate::Cell,
    crate::Action,
    crate::GameResult,
    crate::Termination,
    crate::Rules
);
