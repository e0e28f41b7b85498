//! Standard output that ends the process quietly when its reader has gone (`hearth-cli … | head`),
//! as other command-line tools do, instead of `println!`'s panic ("failed printing to stdout:
//! Broken pipe"). SIGPIPE stays ignored, so a pipe to a child process that died is an ordinary
//! error rather than the end of `hearth-cli`.

use std::io::{ErrorKind, Write};

/// Writes `text` to stdout; a closed pipe exits at once with success (the reader asked for no
/// more), another write error is reported on stderr and exits with failure.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_fmt(args).and_then(|()| out.flush()) {
        if error.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("hearth-cli: error: cannot write the output: {error}");
        std::process::exit(1);
    }
}

/// `println!` through [`write_stdout`].
macro_rules! outln {
    () => {
        $crate::pipe::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::pipe::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use outln;
