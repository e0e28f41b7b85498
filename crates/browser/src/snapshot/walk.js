// The in-page walk behind a snapshot, run in Hearth's own isolated world of each frame (the
// page's scripts cannot see or change it). `snapshot()` walks the rendered DOM (open shadow
// roots and slots included) once and returns, as JSON, the frame's tree of elements — ARIA role,
// accessible name, value, states, link address, whether it can take a click — with nameless
// wrappers already spliced. Elements that can be acted on (and iframes) get an id that stays the
// element's for the document's life; `get(id)` returns the element again for an action.
(() => {
  const ids = new WeakMap();
  const byId = new Map();
  let next = 1;
  const idOf = (el) => {
    let id = ids.get(el);
    if (id === undefined) {
      id = next++;
      ids.set(el, id);
      byId.set(id, new WeakRef(el));
    }
    return id;
  };
  const get = (id) => {
    const ref = byId.get(id);
    const el = ref && ref.deref();
    return el && el.isConnected ? el : null;
  };

  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE']);
  const ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code ' +
    'columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed ' +
    'figure form generic grid gridcell group heading img insertion link list listbox listitem log main mark ' +
    'marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option ' +
    'paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox ' +
    'separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term ' +
    'textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));
  // Roles named by their content (ARIA's "name from content").
  const FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
    'tooltip', 'treeitem', 'caption', 'term']);
  const INTERACTIVE = new Set(['button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem']);
  const WRAPPERS = new Set(['generic', 'none', 'presentation']);
  const SIMPLE = {
    ARTICLE: 'article', ASIDE: 'complementary', BLOCKQUOTE: 'blockquote', BUTTON: 'button', CAPTION: 'caption',
    CODE: 'code', DD: 'definition', DEL: 'deletion', DETAILS: 'group', DIALOG: 'dialog', DT: 'term',
    EM: 'emphasis', FIELDSET: 'group', FIGURE: 'figure', HR: 'separator', INS: 'insertion', LI: 'listitem',
    MAIN: 'main', MARK: 'mark', MATH: 'math', MENU: 'list', METER: 'meter', NAV: 'navigation', OL: 'list',
    OPTION: 'option', OUTPUT: 'status', P: 'paragraph', PROGRESS: 'progressbar', STRONG: 'strong',
    SUB: 'subscript', SUMMARY: 'button', SUP: 'superscript', TABLE: 'table', TBODY: 'rowgroup', TD: 'cell',
    TEXTAREA: 'textbox', TFOOT: 'rowgroup', THEAD: 'rowgroup', TIME: 'time', TR: 'row', UL: 'list',
  };
  const FORM_CONTROLS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP', 'FIELDSET']);
  const LEVELS = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
  const INPUTS = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton',
  };
  const LANDMARK_SCOPES = 'article, aside, main, nav, section';

  const inputType = (el) => (el.getAttribute('type') || 'text').toLowerCase();

  function implicitRole(el, tag) {
    const simple = SIMPLE[tag];
    if (simple) return simple;
    if (LEVELS[tag]) return 'heading';
    switch (tag) {
      case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : 'generic';
      case 'INPUT': {
        const type = inputType(el);
        if (type === 'hidden') return null;
        if (INPUTS[type]) return INPUTS[type];
        if (el.hasAttribute('list')) return 'combobox';
        return type === 'search' ? 'searchbox' : 'textbox';
      }
      case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'IMG': return el.getAttribute('alt') === '' && !el.title ? 'presentation' : 'img';
      case 'HEADER': return el.closest(LANDMARK_SCOPES) ? 'generic' : 'banner';
      case 'FOOTER': return el.closest(LANDMARK_SCOPES) ? 'generic' : 'contentinfo';
      case 'FORM': return 'form';
      case 'SECTION': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : 'generic';
      case 'TH': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      default: return 'generic';
    }
  }

  function roleOf(el, tag) {
    const explicit = el.getAttribute('role');
    if (explicit) {
      for (const token of explicit.split(/\s+/)) {
        if (ROLES.has(token)) return token;
      }
    }
    return implicitRole(el, tag);
  }

  const clean = (text) => text.replace(/\s+/g, ' ').trim();

  // The text of `root` (for aria-labelledby and labels), leaving out `skip` and form controls.
  function textOf(root, skip) {
    let out = '';
    for (const child of root.childNodes) {
      if (child.nodeType === 3) out += child.data;
      else if (child.nodeType === 1 && child !== skip && !SKIP.has(child.tagName)) {
        const tag = child.tagName;
        if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') continue;
        const label = child.getAttribute('aria-label');
        out += ' ' + (label || (tag === 'IMG' ? child.getAttribute('alt') || '' : textOf(child, skip))) + ' ';
      }
    }
    return out;
  }

  function labelled(el) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = el.getRootNode();
      const text = clean(by.split(/\s+/).map((id) => {
        const target = root.getElementById ? root.getElementById(id) : null;
        return target ? target.getAttribute('aria-label') || textOf(target, null) : '';
      }).join(' '));
      if (text) return text;
    }
    const label = el.getAttribute('aria-label');
    return label ? clean(label) : '';
  }

  // The accessible name of `el` with role `role`; `content` is its text from its children.
  function nameOf(el, tag, role, content) {
    const aria = labelled(el);
    if (aria) return aria;
    if (tag === 'INPUT') {
      const type = inputType(el);
      if (type === 'submit' || type === 'reset' || type === 'button') {
        return clean(el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
      }
      if (type === 'image') return clean(el.alt || el.value || 'Submit');
    }
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
      const labels = el.labels ? Array.from(el.labels).map((l) => textOf(l, el)).join(' ') : '';
      const text = clean(labels) || clean(el.title || '') || clean(el.getAttribute('placeholder') || '');
      if (text) return text;
    }
    if (tag === 'IMG' || tag === 'AREA') {
      const alt = clean(el.getAttribute('alt') || '');
      if (alt) return alt;
    }
    if (tag === 'FIELDSET' || tag === 'FIGURE' || tag === 'TABLE') {
      const inner = el.querySelector(tag === 'FIELDSET' ? ':scope > legend' : tag === 'FIGURE' ? ':scope > figcaption' : ':scope > caption');
      if (inner) return clean(textOf(inner, null));
    }
    if (FROM_CONTENT.has(role) || LEVELS[tag]) {
      const text = clean(content);
      if (text) return text;
    }
    return clean(el.title || '');
  }

  function statesOf(el, tag, role) {
    const states = [];
    const aria = (name) => el.getAttribute(name);
    let checked = aria('aria-checked');
    if (tag === 'INPUT' && (role === 'checkbox' || role === 'radio' || role === 'switch')) {
      checked = el.indeterminate ? 'mixed' : String(el.checked);
    }
    if (checked === 'true') states.push('checked');
    else if (checked === 'mixed') states.push('checked=mixed');
    if (aria('aria-disabled') === 'true' || (FORM_CONTROLS.has(tag) && el.matches(':disabled'))) states.push('disabled');
    if (aria('aria-expanded') === 'true' || (tag === 'SUMMARY' && el.parentElement && el.parentElement.open)) states.push('expanded');
    if (el === active) states.push('active');
    const level = LEVELS[tag] || (role === 'heading' && Number(aria('aria-level'))) || 0;
    if (role === 'heading' && level) states.push('level=' + (Number(aria('aria-level')) || level));
    const pressed = aria('aria-pressed');
    if (pressed === 'true') states.push('pressed');
    else if (pressed === 'mixed') states.push('pressed=mixed');
    if ((tag === 'OPTION' && el.selected) || aria('aria-selected') === 'true') states.push('selected');
    if (aria('aria-invalid') === 'true') states.push('invalid');
    return states;
  }

  function valueOf(el, tag, role) {
    if (tag === 'SELECT') {
      const chosen = el.selectedOptions && el.selectedOptions[0];
      return chosen ? clean(chosen.textContent) : '';
    }
    if (tag === 'INPUT' || tag === 'TEXTAREA') return role === 'checkbox' || role === 'radio' || role === 'button' ? '' : el.value;
    if (el.isContentEditable) return clean(el.textContent);
    return el.getAttribute('aria-valuenow') || '';
  }

  // Whether the element is made clickable by script or style.
  function scripted(el, style) {
    if (style.cursor === 'pointer' || el.hasAttribute('onclick') || el.hasAttribute('onmousedown')) return true;
    const tab = el.getAttribute('tabindex');
    if (tab !== null && tab !== '-1') return true;
    const editable = el.getAttribute('contenteditable');
    return editable !== null && editable !== 'false';
  }

  let active = null;

  // Walks the rendered children of `parent` into `out`; returns their text (for names).
  function children(parent, out, hiddenText) {
    let text = '';
    const shadow = parent.shadowRoot;
    const nodes = parent.tagName === 'SLOT' && parent.assignedNodes({ flatten: true }).length
      ? parent.assignedNodes({ flatten: true })
      : (shadow || parent).childNodes;
    for (const child of nodes) {
      if (child.nodeType === 3) {
        if (hiddenText) continue;
        const data = child.data;
        text += data;
        const trimmed = clean(data);
        if (trimmed) out.push(trimmed);
      } else if (child.nodeType === 1) {
        text += element(child, out);
      }
    }
    return text;
  }

  // Appends `el`'s node (or, for a bare wrapper, its children) to `out`; returns its text.
  function element(el, out) {
    const tag = el.tagName;
    if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true') return '';
    const style = getComputedStyle(el);
    if (style.display === 'none') return '';
    const inline = style.display.startsWith('inline');
    let role = roleOf(el, tag);
    if (role === null) return '';
    if (tag === 'IFRAME' || tag === 'FRAME') {
      const rect = el.getBoundingClientRect();
      const node = { r: 'iframe', f: idOf(el) };
      if (rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden') node.t = node.f;
      out.push(node);
      return '';
    }
    const hidden = style.visibility === 'hidden' || style.visibility === 'collapse';
    const kids = [];
    const content = children(el, kids, hidden);
    const clickable = scripted(el, style);
    const interactive = INTERACTIVE.has(role);
    let target;
    if (!hidden && (interactive || clickable) && style.pointerEvents !== 'none') {
      const rect = el.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0) target = idOf(el);
    }
    const name = hidden ? '' : nameOf(el, tag, role, content);
    const states = hidden ? [] : statesOf(el, tag, role);
    const value = interactive ? valueOf(el, tag, role) : '';
    const url = role === 'link' && el.href ? String(el.href) : '';
    if (WRAPPERS.has(role) && !name && target === undefined && !states.length && !value && !url) {
      for (const kid of kids) out.push(kid);
    } else if (!hidden || kids.length) {
      const node = { r: role };
      if (name) node.n = name;
      if (value) node.v = clean(value);
      if (states.length) node.s = states;
      if (url) node.u = url;
      if (target !== undefined) node.t = target;
      if (clickable && !interactive) node.k = 1;
      if (kids.length) node.c = kids;
      out.push(node);
    }
    if (hidden) return '';
    const own = el.getAttribute('aria-label') || (tag === 'IMG' ? el.getAttribute('alt') || '' : '')
      || (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' ? value : content);
    return inline ? own : ' ' + own + ' ';
  }

  function deepActive() {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el;
  }

  function snapshot() {
    // Forget the ids of elements the page has let go of (their WeakRefs are empty).
    for (const [id, ref] of byId) if (!ref.deref()) byId.delete(id);
    active = deepActive();
    const out = [];
    const root = document.body || document.documentElement;
    if (root) {
      if (root === document.body) children(root, out, false);
      else element(root, out);
    }
    active = null;
    return JSON.stringify(out);
  }

  return { snapshot, get, idOf };
})()
