//! Test pages served on 127.0.0.1 (and as `localhost` on a second port, a cross-origin frame).

use axum::extract::Path;
use axum::response::Html;
use axum::routing::get;
use axum::Router;

const FORM: &str = r#"<!doctype html><title>Form</title>
<form id="f">
  <label>Name <input name="name"></label>
  <label>City <input name="city" value="old"></label>
  <label>Size <select name="size"><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select></label>
  <label><input type="checkbox" name="gift"> Gift wrap</label>
  <label>Attachment <input type="file" name="file"></label>
  <button type="submit">Send</button>
</form>
<p id="out"></p>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = e.target;
  const file = f.file.files[0] ? f.file.files[0].name : 'none';
  document.getElementById('out').textContent =
    `Hello ${f.name.value} from ${f.city.value}, size ${f.size.value}, gift ${f.gift.checked ? 'yes' : 'no'}, file ${file}`;
});
</script>"#;

const A: &str = r#"<!doctype html><title>Page A</title><h1>Page A</h1><a href="/b">To B</a>"#;
const B: &str = r#"<!doctype html><title>Page B</title><h1>Page B</h1><a href="/a">To A</a>"#;

const FRAMES: &str = r#"<!doctype html><title>Frames</title><h1>Frames</h1>
<iframe src="/inner" width="300" height="120"></iframe>
<iframe src="http://localhost:OTHER/inner" width="300" height="120"></iframe>
<shadow-box></shadow-box>
<p id="shadow-out"></p>
<script>
customElements.define('shadow-box', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<button>Shadow button</button>';
    root.querySelector('button').onclick = () => { document.getElementById('shadow-out').textContent = 'shadow clicked'; };
  }
});
</script>"#;

const INNER: &str = r#"<!doctype html><title>Inner</title>
<button onclick="document.getElementById('o').textContent = 'clicked in ' + location.host">Frame button</button>
<input aria-label="Frame note" oninput="document.getElementById('o').textContent = 'typed ' + this.value + ' in ' + location.host">
<p id="o"></p>"#;

const SPA: &str = r#"<!doctype html><title>App</title>
<nav><a href="/spa">Home</a></nav>
<button id="go">Open settings</button>
<main id="view"><h1>Home</h1></main>
<script>
document.getElementById('go').onclick = () => {
  history.pushState({}, '', '/spa/settings');
  document.getElementById('view').innerHTML = '<h1>Settings</h1><label>Nickname <input></label>';
};
</script>"#;

const DIALOGS: &str = r#"<!doctype html><title>Dialogs</title>
<button onclick="alert('Saved!'); document.getElementById('o').textContent = 'after alert'">Alert</button>
<button onclick="document.getElementById('o').textContent = confirm('Delete it?') ? 'confirmed' : 'kept'">Confirm</button>
<p id="o"></p>"#;

const CONSOLE: &str = r#"<!doctype html><title>Console</title>
<button onclick="throw new Error('kaboom')">Throw</button>
<button onclick="setTimeout(() => { document.getElementById('o').textContent = 'Ready now' }, 300)">Later</button>
<p id="o"></p>
<script>console.error('boom on load'); console.log('hello log');</script>"#;

const TALL: &str = r#"<!doctype html><title>Tall</title><style>body{margin:0}</style>
<div style="height:3000px;background:linear-gradient(red,blue)">tall</div>"#;

const RERENDER: &str = r#"<!doctype html><title>Rerender</title>
<div id="list"></div>
<button id="re">Rerender</button>
<button id="rm">Remove</button>
<p id="o"></p>
<script>
const list = document.getElementById('list');
function draw() {
  list.innerHTML = '<button>Target</button>';
  list.querySelector('button').onclick = () => { document.getElementById('o').textContent = 'target clicked'; };
}
draw();
document.getElementById('re').onclick = draw;
document.getElementById('rm').onclick = () => { list.innerHTML = ''; };
</script>"#;

const SCRIPTED: &str = r#"<!doctype html><title>Scripted</title>
<div id="card" style="cursor:pointer">Open card</div>
<p id="o"></p>
<script>document.getElementById('card').addEventListener('click', () => { document.getElementById('o').textContent = 'card opened'; });</script>"#;

fn page(html: &'static str, other: u16) -> Html<String> {
    Html(html.replace("OTHER", &other.to_string()))
}

/// The router of every test page; `other` is the second server's port.
pub fn router(other: u16) -> Router {
    Router::new()
        .route("/form", get(move || async move { page(FORM, other) }))
        .route("/a", get(move || async move { page(A, other) }))
        .route("/b", get(move || async move { page(B, other) }))
        .route("/frames", get(move || async move { page(FRAMES, other) }))
        .route("/inner", get(move || async move { page(INNER, other) }))
        .route("/spa", get(move || async move { page(SPA, other) }))
        .route(
            "/spa/{*rest}",
            get(move |Path(_): Path<String>| async move { page(SPA, other) }),
        )
        .route("/dialogs", get(move || async move { page(DIALOGS, other) }))
        .route("/console", get(move || async move { page(CONSOLE, other) }))
        .route("/tall", get(move || async move { page(TALL, other) }))
        .route(
            "/rerender",
            get(move || async move { page(RERENDER, other) }),
        )
        .route(
            "/scripted",
            get(move || async move { page(SCRIPTED, other) }),
        )
}

/// Two servers of the same pages; returns their ports (pages link to the second as `localhost`).
pub async fn serve() -> (u16, u16) {
    let first = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let second = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (p1, p2) = (
        first.local_addr().unwrap().port(),
        second.local_addr().unwrap().port(),
    );
    tokio::spawn(async move { axum::serve(first, router(p2)).await.unwrap() });
    tokio::spawn(async move { axum::serve(second, router(p2)).await.unwrap() });
    (p1, p2)
}
