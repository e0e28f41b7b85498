// Transient messages at the bottom of the window, optionally with one action (e.g. Undo).
export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
  action: { label: string; run: () => void } | null;
}

class Toasts {
  items = $state<Toast[]>([]);
  private next = 1;

  show(text: string, options: { kind?: Toast['kind']; action?: Toast['action']; ms?: number } = {}): number {
    const id = this.next++;
    this.items.push({ id, text, kind: options.kind ?? 'info', action: options.action ?? null });
    const ms = options.ms ?? (options.kind === 'error' ? 8000 : 4000);
    setTimeout(() => this.dismiss(id), ms);
    return id;
  }

  error(text: string): number {
    return this.show(text, { kind: 'error' });
  }

  dismiss(id: number): void {
    const i = this.items.findIndex((t) => t.id === id);
    if (i >= 0) this.items.splice(i, 1);
  }
}

export const toasts = new Toasts();
