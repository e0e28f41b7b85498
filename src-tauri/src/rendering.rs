//! How WebKit draws the window on a Linux machine without a GPU: its non-composited mode.
//!
//! WebKitGTK composites pages with OpenGL. Without a GPU render node that OpenGL is Mesa's
//! software renderer (llvmpipe), and every frame is composited on the CPU: a keystroke took
//! four times as long to paint, and the web process set up OpenGL at each start (the figures
//! are in the README's *Performance* section). So where no `/dev/dri/renderD*` node
//! exists (or `LIBGL_ALWAYS_SOFTWARE` asks for software OpenGL), Hearth sets WebKit's
//! `WEBKIT_DISABLE_COMPOSITING_MODE=1` for itself and its web processes, unless the user set
//! that variable (either way) already.

/// WebKitGTK's switch for its non-composited mode.
const COMPOSITING_OFF: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Chooses the rendering mode; must run before any thread starts (it sets an environment
/// variable). Returns whether compositing was turned off, for the log.
pub fn choose() -> bool {
    #[cfg(target_os = "linux")]
    {
        let render_nodes = std::fs::read_dir("/dev/dri")
            .map(|entries| {
                entries
                    .flatten()
                    .map(|entry| entry.file_name().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let software_asked = std::env::var("LIBGL_ALWAYS_SOFTWARE").ok();
        let user_chose = std::env::var_os(COMPOSITING_OFF).is_some();
        if !user_chose && composite_in_software(&render_nodes, software_asked.as_deref()) {
            std::env::set_var(COMPOSITING_OFF, "1");
            return true;
        }
    }
    false
}

/// Whether WebKit's OpenGL would run on the CPU: no render node among `dri_entries` (the names
/// in `/dev/dri`), or `LIBGL_ALWAYS_SOFTWARE` set to something other than `0`/`false`.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn composite_in_software(dri_entries: &[String], software_asked: Option<&str>) -> bool {
    let asked =
        software_asked.is_some_and(|value| !matches!(value.trim(), "" | "0" | "false" | "no"));
    asked || !dri_entries.iter().any(|name| name.starts_with("renderD"))
}

#[cfg(test)]
mod tests {
    use super::composite_in_software;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn without_a_render_node_compositing_is_in_software() {
        assert!(composite_in_software(&[], None));
        assert!(composite_in_software(&names(&["card0", "by-path"]), None));
    }

    #[test]
    fn a_render_node_keeps_compositing_unless_software_is_asked_for() {
        let gpu = names(&["card0", "renderD128", "by-path"]);
        assert!(!composite_in_software(&gpu, None));
        assert!(!composite_in_software(&gpu, Some("0")));
        assert!(!composite_in_software(&gpu, Some("false")));
        assert!(composite_in_software(&gpu, Some("1")));
        assert!(composite_in_software(&gpu, Some("true")));
    }
}
