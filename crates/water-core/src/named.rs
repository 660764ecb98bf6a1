//! Text for the enums that scenario files and the `water` command name: each has `ALL` and a
//! `name()`, and is written and read by that name alone.

/// `Display` as the enum's `name()` and, given an error type holding the unknown text, `FromStr`
/// finding that name among `ALL`.
macro_rules! display_and_parse_by_name {
    ($named:ty) => {
        impl std::fmt::Display for $named {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
    ($named:ty, $unknown:ident) => {
        $crate::named::display_and_parse_by_name!($named);

        impl std::str::FromStr for $named {
            type Err = $unknown;

            fn from_str(name: &str) -> std::result::Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|v| v.name() == name)
                    .ok_or_else(|| $unknown(name.to_owned()))
            }
        }
    };
}
pub(crate) use display_and_parse_by_name;
