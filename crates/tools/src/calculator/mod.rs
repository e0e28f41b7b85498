//! `calculator`: expression evaluation and statistics, exact where it can be and
//! without any code execution (the expression language is our own, arithmetic only).

mod expr;
mod number;
mod stats;

use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use number::{round_decimal, to_json};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The calculator tool; the same schema in every dialect that has it.
pub struct Calculator;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Evaluate,
    Sum,
    Average,
    Median,
    Mode,
    Stdev,
    Variance,
    Min,
    Max,
    Log,
    Factorial,
    Round,
    PercentageChange,
    Percentile,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CalculatorArgs {
    /// What to compute. `evaluate` takes `expression`; `sum` `average` `median` `mode` `stdev`
    /// `variance` (sample) `min` `max` take `values`; `percentile` takes `values` and `p`; `log`
    /// takes `value` and `base`; `factorial` takes `value`; `round` takes `value` and
    /// `decimals`; `percentage_change` takes `from` and `to`.
    pub action: Action,
    /// Arithmetic expression for `evaluate`: numbers, + - * / % ^, parentheses, functions sqrt
    /// abs ln log10 log2 exp sin cos tan asin acos atan (radians) floor ceil round min max pow,
    /// constants pi and e. Example: "sqrt(2) * (3 + 4)^2".
    #[schemars(length(max = 10000))]
    pub expression: Option<String>,
    /// The numbers, for the list actions.
    #[schemars(length(max = 100000))]
    pub values: Option<Vec<f64>>,
    /// The number, for `log`, `factorial` (an integer 0 to 170) and `round`.
    pub value: Option<f64>,
    /// Base for `log` (default e, the natural logarithm).
    pub base: Option<f64>,
    /// Digits after the decimal point for `round` (default 0).
    #[schemars(range(min = 0, max = 15))]
    pub decimals: Option<u8>,
    /// Starting value for `percentage_change`.
    pub from: Option<f64>,
    /// New value for `percentage_change`.
    pub to: Option<f64>,
    /// Which percentile for `percentile`, 0 to 100 (50 is the median).
    #[schemars(range(min = 0, max = 100))]
    pub p: Option<f64>,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Self::Evaluate => "evaluate",
            Self::Sum => "sum",
            Self::Average => "average",
            Self::Median => "median",
            Self::Mode => "mode",
            Self::Stdev => "stdev",
            Self::Variance => "variance",
            Self::Min => "min",
            Self::Max => "max",
            Self::Log => "log",
            Self::Factorial => "factorial",
            Self::Round => "round",
            Self::PercentageChange => "percentage_change",
            Self::Percentile => "percentile",
        }
    }

    /// The parameters (besides `action`) the action takes.
    fn params(self) -> &'static [&'static str] {
        match self {
            Self::Evaluate => &["expression"],
            Self::Sum
            | Self::Average
            | Self::Median
            | Self::Mode
            | Self::Stdev
            | Self::Variance
            | Self::Min
            | Self::Max => &["values"],
            Self::Percentile => &["values", "p"],
            Self::Log => &["value", "base"],
            Self::Factorial => &["value"],
            Self::Round => &["value", "decimals"],
            Self::PercentageChange => &["from", "to"],
        }
    }
}

#[async_trait]
impl Tool for Calculator {
    type Args = CalculatorArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CALCULATOR
    }

    fn description(&self) -> &str {
        "Exact arithmetic and statistics: evaluate an expression, or sum / average / median / \
         mode / sample stdev / sample variance / min / max / percentile of a list, log, \
         factorial, round, percentage change. Results are rounded to 15 significant digits."
    }

    async fn run(&self, _ctx: &ToolContext, args: CalculatorArgs) -> Result<Value, ToolError> {
        compute(&args)
    }
}

/// Fails with the first argument that is set but not used by the action.
fn reject_unused(args: &CalculatorArgs) -> Result<(), ToolError> {
    let set = [
        ("expression", args.expression.is_some()),
        ("values", args.values.is_some()),
        ("value", args.value.is_some()),
        ("base", args.base.is_some()),
        ("decimals", args.decimals.is_some()),
        ("from", args.from.is_some()),
        ("to", args.to.is_some()),
        ("p", args.p.is_some()),
    ];
    let action = args.action;
    match set
        .iter()
        .find(|(name, present)| *present && !action.params().contains(name))
    {
        Some((name, _)) => Err(ToolError::invalid(
            *name,
            format!(
                "is not used by action `{}` (it takes: {})",
                action.as_str(),
                action.params().join(", ")
            ),
        )),
        None => Ok(()),
    }
}

fn missing(field: &str, action: Action) -> ToolError {
    ToolError::invalid(
        field,
        format!("is required for action `{}`", action.as_str()),
    )
}

/// Refuses a non-finite result, naming the field whose values caused it.
fn finite(value: f64, field: &str) -> Result<f64, ToolError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ToolError::invalid(
            field,
            "the result is not a finite number (overflow or undefined)",
        ))
    }
}

/// The non-empty `values` of a list action.
fn values(args: &CalculatorArgs, action: Action) -> Result<&[f64], ToolError> {
    let values = args
        .values
        .as_deref()
        .ok_or_else(|| missing("values", action))?;
    if values.is_empty() {
        return Err(ToolError::invalid(
            "values",
            "must contain at least one number",
        ));
    }
    Ok(values)
}

fn compute(args: &CalculatorArgs) -> Result<Value, ToolError> {
    reject_unused(args)?;
    let action = args.action;
    let result = match action {
        Action::Evaluate => {
            let expression = args
                .expression
                .as_deref()
                .ok_or_else(|| missing("expression", action))?;
            let value =
                expr::evaluate(expression).map_err(|e| ToolError::invalid("expression", e))?;
            return Ok(json!({
                "action": action.as_str(),
                "expression": expression,
                "result": to_json(value),
            }));
        }
        Action::Sum => stats::sum(values(args, action)?),
        Action::Average => stats::mean(values(args, action)?),
        Action::Median => stats::median(values(args, action)?),
        Action::Min => stats::min(values(args, action)?),
        Action::Max => stats::max(values(args, action)?),
        Action::Mode => return mode(values(args, action)?),
        Action::Variance => sample_variance(values(args, action)?)?,
        Action::Stdev => sample_variance(values(args, action)?)?.sqrt(),
        Action::Percentile => {
            let values = values(args, action)?;
            stats::percentile(values, args.p.ok_or_else(|| missing("p", action))?)
        }
        Action::Log => log(args)?,
        Action::Factorial => return factorial(args.value.ok_or_else(|| missing("value", action))?),
        Action::Round => {
            let value = args.value.ok_or_else(|| missing("value", action))?;
            round_decimal(value, args.decimals.unwrap_or(0).min(15))
        }
        Action::PercentageChange => {
            let from = args.from.ok_or_else(|| missing("from", action))?;
            let to = args.to.ok_or_else(|| missing("to", action))?;
            if from == 0.0 {
                return Err(ToolError::invalid(
                    "from",
                    "the percentage change from 0 is undefined",
                ));
            }
            (to - from) / from.abs() * 100.0
        }
    };
    let field = match action {
        Action::Log | Action::Round => "value",
        Action::PercentageChange => "to",
        _ => "values",
    };
    let mut out = json!({"action": action.as_str(), "result": to_json(finite(result, field)?)});
    if let Some(values) = &args.values {
        out["count"] = Value::from(values.len());
    }
    Ok(out)
}

fn sample_variance(values: &[f64]) -> Result<f64, ToolError> {
    if values.len() < 2 {
        return Err(ToolError::invalid(
            "values",
            "the sample variance and standard deviation need at least two numbers",
        ));
    }
    Ok(stats::sample_variance(values))
}

fn log(args: &CalculatorArgs) -> Result<f64, ToolError> {
    let value = args.value.ok_or_else(|| missing("value", Action::Log))?;
    if value <= 0.0 {
        return Err(ToolError::invalid("value", "log needs a value above 0"));
    }
    match args.base {
        None => Ok(value.ln()),
        Some(base) if base <= 0.0 || base == 1.0 => Err(ToolError::invalid(
            "base",
            "the base must be above 0 and not 1",
        )),
        Some(2.0) => Ok(value.log2()),
        Some(10.0) => Ok(value.log10()),
        Some(base) => Ok(value.ln() / base.ln()),
    }
}

fn mode(values: &[f64]) -> Result<Value, ToolError> {
    let (modes, frequency) = stats::modes(values);
    let shown: Vec<Value> = modes.iter().map(|m| to_json(*m)).collect();
    Ok(json!({
        "action": "mode",
        "result": shown.first().cloned().unwrap_or(Value::Null),
        "modes": shown,
        "frequency": frequency,
        "count": values.len(),
    }))
}

fn factorial(value: f64) -> Result<Value, ToolError> {
    if value.fract() != 0.0 || !(0.0..=170.0).contains(&value) {
        return Err(ToolError::invalid(
            "value",
            format!("factorial needs an integer from 0 to 170, got {value}"),
        ));
    }
    // An integer in 0..=170, so the cast is exact.
    let n = value as u64;
    let result = match stats::factorial_exact(n) {
        Some(exact) => Value::from(exact),
        None => to_json(stats::factorial_float(n)),
    };
    Ok(json!({"action": "factorial", "result": result}))
}
