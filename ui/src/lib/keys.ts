// Keys for keyed `{#each}` blocks over lists whose own identity can repeat (names a server, a
// model or a hand-edited config.toml gives): Svelte throws on a repeated key and the whole page
// stops rendering, so a repeat gets a key of its own instead.

/** One key per item, `keyOf(item)` where it is the first of its kind, else made distinct. */
export function distinctKeys<T>(items: readonly T[], keyOf: (item: T) => string | number): string[] {
  const used = new Set<string>();
  return items.map((item) => {
    const own = String(keyOf(item));
    let key = own;
    for (let n = 2; used.has(key); n++) key = `${own}#${n}`;
    used.add(key);
    return key;
  });
}

/** The values without repeats, in their first order (a datalist's suggestions). */
export const uniqueValues = <T>(values: readonly T[]): T[] => [...new Set(values)];
