// A component (or any module export) loaded on first use from its own chunk, imported at most once.

/** Returns a function giving the module's default export, importing it the first time it is called. */
export function lazy<T>(load: () => Promise<{ default: T }>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => (loaded ??= load().then((m) => m.default));
}
