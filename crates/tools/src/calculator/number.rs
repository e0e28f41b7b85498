//! Number presentation for the calculator: 15-significant-digit tidying (0.1 + 0.2 shows 0.3),
//! decimal rounding half away from zero, and conversion to JSON numbers.

use serde_json::{Number, Value};

/// Integers up to this magnitude are exact in f64 and shown without a fraction.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

/// The 15 significant decimal digits of `|x|` and the decimal exponent of the first digit.
fn digits(x: f64) -> (Vec<u8>, i32) {
    let text = format!("{:.14e}", x.abs());
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let digits = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// Rounds to 15 significant digits, removing binary noise such as 0.30000000000000004.
pub(super) fn tidy(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.14e}").parse().unwrap_or(x)
}

/// Rounds the decimal value of `x` (as shown with 15 significant digits) to `decimals` digits
/// after the point, half away from zero: 2.675 → 2.68, 1.005 → 1.01, -0.5 → -1.
pub(super) fn round_decimal(x: f64, decimals: u8) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let (digits, exponent) = digits(x);
    let keep = exponent + 1 + i32::from(decimals);
    let Ok(keep) = usize::try_from(keep) else {
        return 0.0;
    };
    if keep >= digits.len() {
        return tidy(x);
    }
    let kept = digits[..keep]
        .iter()
        .fold(0u64, |acc, d| acc * 10 + u64::from(*d));
    let rounded = kept + u64::from(digits[keep] >= 5);
    let magnitude: f64 = format!("{rounded}e-{decimals}").parse().unwrap_or(0.0);
    if magnitude == 0.0 {
        0.0
    } else {
        magnitude.copysign(x)
    }
}

/// A finite result as a JSON number: integers within ±2^53 exactly, anything else tidied to
/// 15 significant digits (and then shown as an integer when it became one).
pub(super) fn to_json(x: f64) -> Value {
    let x = if is_exact_integer(x) { x } else { tidy(x) };
    if is_exact_integer(x) {
        // Integral and within ±2^53, so the cast is exact.
        return Value::from(x as i64);
    }
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn is_exact_integer(x: f64) -> bool {
    x.fract() == 0.0 && x.abs() <= EXACT_INTEGER_LIMIT
}
