//! The `evaluate` language: a tokenizer and a recursive-descent evaluator over arithmetic only —
//! numbers, `+ - * / % ^` (also `**`, `×`, `÷`, `−`), parentheses, named functions and the
//! constants `pi` and `e`. Nothing else exists in it, so nothing can be executed.

use std::f64::consts::{E, PI};

/// Deepest nesting of parentheses / unary signs accepted (guards the stack).
const MAX_DEPTH: usize = 200;

const FUNCTIONS: &str = "sqrt abs ln log10 log2 exp sin cos tan asin acos atan floor ceil round \
                         min max pow";

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Symbol(char),
}

/// A token and its 1-based character position in the expression.
#[derive(Debug, Clone, PartialEq)]
struct Lexed {
    token: Token,
    at: usize,
}

fn tokenize(source: &str) -> Result<Vec<Lexed>, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let at = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let token = if c.is_ascii_digit() || c == '.' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|c| c.is_ascii_digit() || *c == '.')
            {
                i += 1;
            }
            if matches!(chars.get(i), Some('e' | 'E')) {
                let sign = usize::from(matches!(chars.get(i + 1), Some('+' | '-')));
                if chars.get(i + 1 + sign).is_some_and(char::is_ascii_digit) {
                    i += 1 + sign;
                    while chars.get(i).is_some_and(char::is_ascii_digit) {
                        i += 1;
                    }
                }
            }
            let text: String = chars[start..i].iter().collect();
            let value = text
                .parse()
                .map_err(|_| format!("`{text}` at position {at} is not a number"))?;
            Token::Number(value)
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                i += 1;
            }
            Token::Name(chars[start..i].iter().collect::<String>().to_lowercase())
        } else {
            i += 1;
            Token::Symbol(match c {
                '*' if chars.get(i) == Some(&'*') => {
                    i += 1;
                    '^'
                }
                '+' | '-' | '*' | '/' | '%' | '^' | '(' | ')' | ',' => c,
                '−' => '-',
                '×' => '*',
                '÷' => '/',
                _ => return Err(format!("unexpected character `{c}` at position {at}")),
            })
        };
        out.push(Lexed { token, at });
    }
    Ok(out)
}

/// Evaluates an arithmetic expression. Errors are messages for the `expression` field.
pub(super) fn evaluate(source: &str) -> Result<f64, String> {
    let tokens = tokenize(source)?;
    if tokens.is_empty() {
        return Err("the expression is empty".to_string());
    }
    let mut parser = Parser {
        tokens: &tokens,
        next: 0,
        depth: 0,
    };
    let value = parser.sum()?;
    match parser.peek() {
        Some(extra) => Err(format!("unexpected {}", describe(extra))),
        None => Ok(value),
    }
}

fn describe(lexed: &Lexed) -> String {
    let shown = match &lexed.token {
        Token::Number(n) => n.to_string(),
        Token::Name(name) => name.clone(),
        Token::Symbol(c) => c.to_string(),
    };
    format!("`{shown}` at position {}", lexed.at)
}

struct Parser<'a> {
    tokens: &'a [Lexed],
    next: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Lexed> {
        self.tokens.get(self.next)
    }

    /// Consumes the next token if it is one of `symbols`; returns it with its position.
    fn eat(&mut self, symbols: &[char]) -> Option<(char, usize)> {
        match self.peek() {
            Some(Lexed {
                token: Token::Symbol(c),
                at,
            }) if symbols.contains(c) => {
                let found = (*c, *at);
                self.next += 1;
                Some(found)
            }
            _ => None,
        }
    }

    fn expect(&mut self, symbol: char) -> Result<(), String> {
        match self.eat(&[symbol]) {
            Some(_) => Ok(()),
            None => Err(match self.peek() {
                Some(other) => format!("expected `{symbol}` but found {}", describe(other)),
                None => format!("expected `{symbol}` but the expression ended"),
            }),
        }
    }

    /// sum := product (('+' | '-') product)*
    fn sum(&mut self) -> Result<f64, String> {
        let mut value = self.product()?;
        while let Some((op, at)) = self.eat(&['+', '-']) {
            let rhs = self.product()?;
            value = finite(if op == '+' { value + rhs } else { value - rhs }, op, at)?;
        }
        Ok(value)
    }

    /// product := signed (('*' | '/' | '%') signed)*
    fn product(&mut self) -> Result<f64, String> {
        let mut value = self.signed()?;
        while let Some((op, at)) = self.eat(&['*', '/', '%']) {
            let rhs = self.signed()?;
            if op != '*' && rhs == 0.0 {
                return Err(format!("division by zero at position {at}"));
            }
            let result = match op {
                '*' => value * rhs,
                '/' => value / rhs,
                _ => value % rhs,
            };
            value = finite(result, op, at)?;
        }
        Ok(value)
    }

    /// signed := ('-' | '+') signed | power   (so -2^2 = -4)
    fn signed(&mut self) -> Result<f64, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "the expression nests deeper than {MAX_DEPTH} levels"
            ));
        }
        let value = match self.eat(&['-', '+']) {
            Some(('-', _)) => self.signed().map(|v| -v),
            Some(_) => self.signed(),
            None => self.power(),
        };
        self.depth -= 1;
        value
    }

    /// power := atom ('^' signed)?   (right-associative: 2^3^2 = 512)
    fn power(&mut self) -> Result<f64, String> {
        let base = self.atom()?;
        match self.eat(&['^']) {
            Some((op, at)) => {
                let exponent = self.signed()?;
                finite(base.powf(exponent), op, at)
            }
            None => Ok(base),
        }
    }

    /// atom := number | name | name '(' arguments ')' | '(' sum ')'
    fn atom(&mut self) -> Result<f64, String> {
        let Some(lexed) = self.peek().cloned() else {
            return Err("the expression ends too early".to_string());
        };
        self.next += 1;
        match lexed.token {
            Token::Number(n) => Ok(n),
            Token::Symbol('(') => {
                let value = self.sum()?;
                self.expect(')')?;
                Ok(value)
            }
            Token::Name(name) if self.eat(&['(']).is_some() => {
                let mut args = Vec::new();
                if self.eat(&[')']).is_none() {
                    loop {
                        args.push(self.sum()?);
                        if self.eat(&[',']).is_none() {
                            break;
                        }
                    }
                    self.expect(')')?;
                }
                call(&name, &args, lexed.at)
            }
            Token::Name(name) => match name.as_str() {
                "pi" => Ok(PI),
                "e" => Ok(E),
                _ if FUNCTIONS.split_whitespace().any(|f| f == name) => Err(format!(
                    "`{name}` at position {} is a function: write {name}(…)",
                    lexed.at
                )),
                _ => Err(format!(
                    "unknown name `{name}` at position {}; constants: pi e; functions: {FUNCTIONS}",
                    lexed.at
                )),
            },
            Token::Symbol(_) => Err(format!(
                "expected a number, a name or `(` but found {}",
                describe(&lexed)
            )),
        }
    }
}

/// Refuses NaN and infinities produced by the operator `op` at position `at`.
fn finite(value: f64, op: char, at: usize) -> Result<f64, String> {
    if value.is_finite() {
        Ok(value)
    } else if value.is_nan() {
        Err(format!("`{op}` at position {at} gives no real number"))
    } else {
        Err(format!("`{op}` at position {at} overflows"))
    }
}

fn call(name: &str, args: &[f64], at: usize) -> Result<f64, String> {
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "`{name}` at position {at} takes {n} argument(s), got {}",
                args.len()
            ))
        }
    };
    let unary: Option<fn(f64) -> f64> = match name {
        "sqrt" => Some(f64::sqrt),
        "abs" => Some(f64::abs),
        "ln" => Some(f64::ln),
        "log10" => Some(f64::log10),
        "log2" => Some(f64::log2),
        "exp" => Some(f64::exp),
        "sin" => Some(f64::sin),
        "cos" => Some(f64::cos),
        "tan" => Some(f64::tan),
        "asin" => Some(f64::asin),
        "acos" => Some(f64::acos),
        "atan" => Some(f64::atan),
        "floor" => Some(f64::floor),
        "ceil" => Some(f64::ceil),
        "round" => Some(f64::round),
        _ => None,
    };
    let value = match (unary, name) {
        (Some(f), _) => arity(1).map(|()| f(args[0]))?,
        (None, "pow") => arity(2).map(|()| args[0].powf(args[1]))?,
        (None, "min" | "max") if args.is_empty() => {
            return Err(format!(
                "`{name}` at position {at} needs at least one argument"
            ))
        }
        (None, "min") => args.iter().copied().fold(f64::INFINITY, f64::min),
        (None, "max") => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        _ => {
            return Err(format!(
                "unknown function `{name}` at position {at}; functions: {FUNCTIONS}"
            ))
        }
    };
    if value.is_finite() {
        Ok(value)
    } else {
        let shown: Vec<String> = args.iter().map(f64::to_string).collect();
        Err(format!(
            "`{name}({})` at position {at} is {}",
            shown.join(", "),
            if value.is_nan() {
                "undefined"
            } else {
                "infinite"
            }
        ))
    }
}
