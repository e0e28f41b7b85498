// The one gate model output passes before it becomes HTML: DOMPurify with an HTML-only profile,
// no forms, frames, styles or SVG, and safe link targets.
import DOMPurify from 'dompurify';

const FORBID_TAGS = [
  'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'input', 'button', 'textarea',
  'select', 'option', 'link', 'meta', 'base', 'audio', 'video', 'source', 'track', 'template',
];

let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer');
      node.removeAttribute('target');
    }
  });
}

/** Returns HTML in which no script can run: no script tags, event handlers, `javascript:` URLs,
 * frames or SVG. */
export function sanitizeHtml(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'action'],
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
  });
}
