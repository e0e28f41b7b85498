//! `evaluate`: precedence, functions, constants, and refused expressions.

use super::{eval, eval_refused, pi_15};
use crate::tools::ok;
use serde_json::json;
#[tokio::test]
async fn evaluate_arithmetic_and_precedence() {
    let cases = [
        ("1 + 2 * 3", json!(7)),
        ("(1 + 2) * 3", json!(9)),
        ("0.1 + 0.2", json!(0.3)),
        ("10 / 4", json!(2.5)),
        ("7 % 3", json!(1)),
        ("-7 % 3", json!(-1)),
        ("2 ^ 10", json!(1024)),
        ("2 ^ 3 ^ 2", json!(512)),
        ("-2 ^ 2", json!(-4)),
        ("(-2) ^ 2", json!(4)),
        ("2 ^ -1", json!(0.5)),
        ("2 ** 8", json!(256)),
        ("--3", json!(3)),
        ("+4 - -4", json!(8)),
        ("6 × 7 ÷ 2 − 1", json!(20)),
        ("1e3 + 2.5E-1", json!(1000.25)),
        (".5 + 1.", json!(1.5)),
        ("  42  ", json!(42)),
        ("1 - 0.9", json!(0.1)),
        ("3 * 1.1", json!(3.3)),
        ("2^53 + 1", json!(9_007_199_254_740_992_i64)),
        ("2^60", json!(1.152_921_504_606_85e18)),
        ("123456789 * 1000000", json!(123_456_789_000_000_i64)),
    ];
    for (expression, expected) in cases {
        assert_eq!(eval(expression).await, expected, "{expression}");
    }
}

#[tokio::test]
async fn evaluate_functions_and_constants() {
    let cases = [
        ("sqrt(16)", json!(4)),
        ("abs(-3.5)", json!(3.5)),
        ("ln(e)", json!(1)),
        ("log10(1000)", json!(3)),
        ("log2(1024)", json!(10)),
        ("exp(0)", json!(1)),
        ("sin(pi / 2)", json!(1)),
        ("cos(0)", json!(1)),
        ("tan(pi / 4)", json!(1)),
        ("asin(1) * 2", pi_15()),
        ("acos(1)", json!(0)),
        ("atan(1) * 4", pi_15()),
        ("floor(-2.5)", json!(-3)),
        ("ceil(2.1)", json!(3)),
        ("round(2.5)", json!(3)),
        ("min(3, -1, 2)", json!(-1)),
        ("max(3, -1, 2)", json!(3)),
        ("pow(2, 0.5) ^ 2", json!(2)),
        ("PI", pi_15()),
        ("Sqrt(9)", json!(3)),
        ("max(1, min(5, 3) * 2) + sqrt(abs(-49))", json!(13)),
    ];
    for (expression, expected) in cases {
        assert_eq!(eval(expression).await, expected, "{expression}");
    }
    let full = ok(
        "calculator",
        r#"{"action": "evaluate", "expression": "sqrt(2) * (3 + 4)^2"}"#,
    )
    .await;
    assert_eq!(
        full,
        json!({"action": "evaluate", "expression": "sqrt(2) * (3 + 4)^2", "result": 69.2964645562817})
    );
}

#[tokio::test]
async fn evaluate_refuses_bad_expressions() {
    let cases = [
        ("", "the expression is empty"),
        ("   ", "the expression is empty"),
        ("1 / 0", "division by zero at position 3"),
        ("5 % (2 - 2)", "division by zero at position 3"),
        ("sqrt(-1)", "`sqrt(-1)` at position 1 is undefined"),
        ("ln(0)", "`ln(0)` at position 1 is infinite"),
        ("10 ^ 400", "`^` at position 4 overflows"),
        ("(-8) ^ (1/3)", "gives no real number"),
        ("exp(1000)", "is infinite"),
        ("1 +", "ends too early"),
        ("(1 + 2", "expected `)` but the expression ended"),
        ("1 + 2)", "unexpected `)` at position 6"),
        ("2 (3)", "unexpected `(` at position 3"),
        ("1 2", "unexpected `2` at position 3"),
        ("1.2.3", "`1.2.3` at position 1 is not a number"),
        ("x + 1", "unknown name `x` at position 1"),
        ("foo(1)", "unknown function `foo`"),
        ("sqrt", "`sqrt` at position 1 is a function"),
        (
            "sqrt(1, 2)",
            "`sqrt` at position 1 takes 1 argument(s), got 2",
        ),
        ("pow(2)", "`pow` at position 1 takes 2 argument(s), got 1"),
        ("max()", "needs at least one argument"),
        ("1 + $", "unexpected character `$` at position 5"),
        ("import os", "unknown name `import`"),
        ("__import__('os')", "unexpected character `'`"),
        ("1 == 1", "unexpected character `=` at position 3"),
        (
            "* 2",
            "expected a number, a name or `(` but found `*` at position 1",
        ),
        ("\"1\" + 1", "unexpected character `\"`"),
        ("a = 2", "unexpected character `=`"),
        ("a", "unknown name `a` at position 1; constants: pi e"),
    ];
    for (expression, needle) in cases {
        eval_refused(expression, needle).await;
    }
}

#[tokio::test]
async fn evaluate_refuses_runaway_nesting() {
    let deep = format!("{}1{}", "(".repeat(500), ")".repeat(500));
    eval_refused(&deep, "nests deeper than 200 levels").await;
    let signs = format!("{}1", "-".repeat(1000));
    eval_refused(&signs, "nests deeper than 200 levels").await;
    let fine = format!("{}1{}", "(".repeat(150), ")".repeat(150));
    assert_eq!(eval(&fine).await, json!(1));
}
