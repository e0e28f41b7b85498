//! The list and scalar actions, their parameters, and impossible inputs.

use super::{refused, result};
use crate::tools::{call, ok};
use serde_json::json;
#[tokio::test]
async fn list_actions() {
    let values = json!([2, 4, 4, 4, 5, 5, 7, 9]);
    let cases = [
        ("sum", json!(40)),
        ("average", json!(5)),
        ("median", json!(4.5)),
        ("min", json!(2)),
        ("max", json!(9)),
        ("variance", json!(4.571_428_571_428_57)),
        ("stdev", json!(2.138_089_935_299_4)),
    ];
    for (action, expected) in cases {
        let args = json!({"action": action, "values": values});
        assert_eq!(result(args).await, expected, "{action}");
    }
    let sum = ok(
        "calculator",
        r#"{"action": "sum", "values": [0.1, 0.2, 0.3]}"#,
    )
    .await;
    assert_eq!(sum, json!({"action": "sum", "result": 0.6, "count": 3}));
    let tenths = vec![0.1; 10];
    assert_eq!(
        result(json!({"action": "sum", "values": tenths})).await,
        json!(1)
    );
    assert_eq!(
        result(json!({"action": "median", "values": [3, 1, 2]})).await,
        json!(2)
    );
    assert_eq!(
        result(json!({"action": "average", "values": [-1.5]})).await,
        json!(-1.5)
    );
}

#[tokio::test]
async fn mode_reports_every_tied_value() {
    let single = ok(
        "calculator",
        r#"{"action": "mode", "values": [1, 2, 2, 3]}"#,
    )
    .await;
    assert_eq!(
        single,
        json!({"action": "mode", "result": 2, "modes": [2], "frequency": 2, "count": 4})
    );
    let tied = ok(
        "calculator",
        r#"{"action": "mode", "values": [3, 1, 3, 1, 2]}"#,
    )
    .await;
    assert_eq!(tied["modes"], json!([1, 3]));
    assert_eq!(tied["result"], json!(1));
    assert_eq!(tied["frequency"], json!(2));
}

#[tokio::test]
async fn percentile_interpolates_linearly() {
    let values = json!([15, 20, 35, 40, 50]);
    let cases = [
        (0.0, json!(15)),
        (25.0, json!(20)),
        (40.0, json!(29)),
        (50.0, json!(35)),
        (90.0, json!(46)),
        (100.0, json!(50)),
    ];
    for (p, expected) in cases {
        let args = json!({"action": "percentile", "values": values, "p": p});
        assert_eq!(result(args).await, expected, "p{p}");
    }
    let one = json!({"action": "percentile", "values": [7], "p": 99});
    assert_eq!(result(one).await, json!(7));
}

#[tokio::test]
async fn scalar_actions() {
    let cases = [
        (json!({"action": "log", "value": 8, "base": 2}), json!(3)),
        (
            json!({"action": "log", "value": 1000, "base": 10}),
            json!(3),
        ),
        (json!({"action": "log", "value": 81, "base": 3}), json!(4)),
        (
            json!({"action": "log", "value": std::f64::consts::E}),
            json!(1),
        ),
        (json!({"action": "factorial", "value": 0}), json!(1)),
        (json!({"action": "factorial", "value": 5}), json!(120)),
        (
            json!({"action": "factorial", "value": 20}),
            json!(2_432_902_008_176_640_000_u64),
        ),
        (
            json!({"action": "factorial", "value": 21}),
            json!(5.109_094_217_170_94e19),
        ),
        (
            json!({"action": "factorial", "value": 170}),
            json!(7.257_415_615_307_99e306),
        ),
        (
            json!({"action": "round", "value": 2.675, "decimals": 2}),
            json!(2.68),
        ),
        (
            json!({"action": "round", "value": 1.005, "decimals": 2}),
            json!(1.01),
        ),
        (json!({"action": "round", "value": -2.5}), json!(-3)),
        (json!({"action": "round", "value": 0.4}), json!(0)),
        (
            json!({"action": "round", "value": 0.0004, "decimals": 3}),
            json!(0),
        ),
        (
            json!({"action": "round", "value": 9.995, "decimals": 2}),
            json!(10),
        ),
        (
            json!({"action": "round", "value": 123.456, "decimals": 15}),
            json!(123.456),
        ),
        (
            json!({"action": "round", "value": 1234.5678, "decimals": 1}),
            json!(1234.6),
        ),
        (
            json!({"action": "percentage_change", "from": 80, "to": 100}),
            json!(25),
        ),
        (
            json!({"action": "percentage_change", "from": 100, "to": 80}),
            json!(-20),
        ),
        (
            json!({"action": "percentage_change", "from": -50, "to": -25}),
            json!(50),
        ),
        (
            json!({"action": "percentage_change", "from": 3, "to": 4}),
            json!(33.3333333333333),
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(result(args.clone()).await, expected, "{args}");
    }
    let full = ok("calculator", r#"{"action": "factorial", "value": 3}"#).await;
    assert_eq!(full, json!({"action": "factorial", "result": 6}));
}

#[tokio::test]
async fn wrong_parameters_for_the_action() {
    let cases = [
        (
            json!({"action": "evaluate"}),
            "expression",
            "is required for action `evaluate`",
        ),
        (
            json!({"action": "sum"}),
            "values",
            "is required for action `sum`",
        ),
        (
            json!({"action": "percentile", "values": [1]}),
            "p",
            "is required",
        ),
        (
            json!({"action": "log"}),
            "value",
            "is required for action `log`",
        ),
        (
            json!({"action": "round", "decimals": 2}),
            "value",
            "is required",
        ),
        (
            json!({"action": "percentage_change", "to": 1}),
            "from",
            "is required",
        ),
        (
            json!({"action": "percentage_change", "from": 1}),
            "to",
            "is required",
        ),
        (
            json!({"action": "sum", "values": [1], "expression": "1+1"}),
            "expression",
            "is not used by action `sum` (it takes: values)",
        ),
        (
            json!({"action": "factorial", "value": 3, "decimals": 2}),
            "decimals",
            "is not used by action `factorial`",
        ),
        (
            json!({"action": "evaluate", "expression": "1", "p": 5}),
            "p",
            "(it takes: expression)",
        ),
    ];
    for (args, field, needle) in cases {
        refused(args, field, needle).await;
    }
}

#[tokio::test]
async fn impossible_inputs() {
    let cases = [
        (
            json!({"action": "sum", "values": []}),
            "values",
            "at least one number",
        ),
        (
            json!({"action": "median", "values": []}),
            "values",
            "at least one number",
        ),
        (
            json!({"action": "stdev", "values": [1]}),
            "values",
            "at least two numbers",
        ),
        (
            json!({"action": "variance", "values": [4]}),
            "values",
            "at least two numbers",
        ),
        (
            json!({"action": "sum", "values": [1e308, 1e308]}),
            "values",
            "not a finite number",
        ),
        (json!({"action": "log", "value": 0}), "value", "above 0"),
        (
            json!({"action": "log", "value": -3, "base": 2}),
            "value",
            "above 0",
        ),
        (
            json!({"action": "log", "value": 8, "base": 1}),
            "base",
            "not 1",
        ),
        (
            json!({"action": "log", "value": 8, "base": -2}),
            "base",
            "above 0",
        ),
        (
            json!({"action": "factorial", "value": 171}),
            "value",
            "integer from 0 to 170",
        ),
        (
            json!({"action": "factorial", "value": -1}),
            "value",
            "integer from 0 to 170",
        ),
        (
            json!({"action": "factorial", "value": 2.5}),
            "value",
            "got 2.5",
        ),
        (
            json!({"action": "percentage_change", "from": 0, "to": 5}),
            "from",
            "from 0",
        ),
        (
            json!({"action": "percentage_change", "from": 1e-300, "to": 1e300}),
            "to",
            "not a finite number",
        ),
    ];
    for (args, field, needle) in cases {
        refused(args, field, needle).await;
    }
}

#[tokio::test]
async fn calculator_errors_are_results_not_panics() {
    let error = call(
        "calculator",
        r#"{"action": "evaluate", "expression": "1/0"}"#,
    )
    .await;
    let json = error.err().map(|e| e.to_json());
    assert_eq!(
        json,
        Some(json!({"error": {
            "kind": "invalid_arguments",
            "message": "division by zero at position 2",
            "field": "expression"
        }}))
    );
}
