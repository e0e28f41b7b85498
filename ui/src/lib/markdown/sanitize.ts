// The one gate model output passes before it becomes HTML: DOMPurify with an HTML-only profile,
// no forms, frames, styles or SVG, safe link targets, and images only from inline data (remote
// images are blocked by the CSP anyway; they become links).
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
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (/^data:image\/(png|jpeg|gif|webp);/i.test(src)) return;
      const link = node.ownerDocument.createElement('a');
      if (/^https?:/i.test(src)) {
        link.setAttribute('href', src);
        link.setAttribute('rel', 'noopener noreferrer');
      }
      link.textContent = `🖼 ${node.getAttribute('alt') || src || 'image'}`;
      node.replaceWith(link);
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
