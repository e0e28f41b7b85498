// Applies the theme setting: `light`, `dark` or `system` (follows prefers-color-scheme in CSS).
export type Theme = 'light' | 'dark' | 'system';

export function normalizeTheme(value: string): Theme {
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(value: string): void {
  document.documentElement.dataset.theme = normalizeTheme(value);
}
