// Debouncing for inputs that query the backend as the user types (schedule preview, memory search).

/**
 * Calls `run` with the latest value once `ms` pass without a newer one; a result that arrives
 * after a newer call has started is dropped (so the preview always matches the field).
 */
export class LatestOnly<T, R> {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;

  constructor(
    private readonly ms: number,
    private readonly run: (value: T) => Promise<R>,
    private readonly done: (result: { ok: true; value: R } | { ok: false; error: unknown }) => void,
  ) {}

  push(value: T): void {
    if (this.timer) clearTimeout(this.timer);
    const generation = ++this.generation;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run(value).then(
        (result) => generation === this.generation && this.done({ ok: true, value: result }),
        (error: unknown) => generation === this.generation && this.done({ ok: false, error }),
      );
    }, this.ms);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.generation++;
  }
}
