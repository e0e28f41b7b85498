// The form card's values: what each field starts with, what is wrong with what was typed (as
// message keys), and the answer's content as the backend checks it (fields left empty are left
// out, so they take their defaults).
import type { FieldKind } from './bindings/FieldKind';
import type { Form } from './bindings/Form';
import type { FormField } from './bindings/FormField';
import type { JsonValue } from './bindings/serde_json/JsonValue';
import type { TextFormat } from './bindings/TextFormat';
import type { MessageKey } from './i18n/en';

/** A field's value as its input holds it: text (numbers too), a checkbox, ticked choices. */
export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;

/** What is wrong with a field's value, as a message key and its parameters. */
export interface FieldProblem {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** What each field's input starts with: its default, else empty (a checkbox unticked). */
export function initialValues(form: Form): FormValues {
  const values: FormValues = {};
  for (const field of form.fields) values[field.name] = initialValue(field);
  return values;
}

function initialValue(field: FormField): FieldValue {
  const given = field.default;
  switch (field.kind.type) {
    case 'boolean':
      return given === true;
    case 'choices':
      return Array.isArray(given) ? given.filter((v): v is string => typeof v === 'string') : [];
    case 'number':
      return typeof given === 'number' ? String(given) : '';
    case 'text':
      return typeof given === 'string' ? fromWire(field.kind.format, given) : '';
    case 'choice':
      return typeof given === 'string' ? given : '';
  }
}

/** The `<input type>` a text field's format asks for. */
export function inputType(format: TextFormat | null): string {
  switch (format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date_time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

/** The problem of each field whose value does not fit (none: the form can be sent). */
export function problems(form: Form, values: FormValues): Record<string, FieldProblem> {
  const found: Record<string, FieldProblem> = {};
  for (const field of form.fields) {
    const problem = problemOf(field, values[field.name]);
    if (problem) found[field.name] = problem;
  }
  return found;
}

function problemOf(field: FormField, value: FieldValue | undefined): FieldProblem | null {
  const kind = field.kind;
  if (kind.type === 'boolean') return null;
  if (kind.type === 'choices') {
    const chosen = Array.isArray(value) ? value.length : 0;
    if (chosen === 0 && !field.required && kind.min_items === null) return null;
    return bounds(chosen, kind.min_items ?? (field.required ? 1 : null), kind.max_items, 'form.problem.choices');
  }
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return field.required && field.default === null ? { key: 'form.problem.required' } : null;
  if (kind.type === 'number') return numberProblem(kind, text);
  if (kind.type === 'text') {
    const length = [...text].length;
    const outside = bounds(length, kind.min_length, kind.max_length, 'form.problem.length');
    if (outside) return outside;
    if (kind.format && !fits(kind.format, text)) return { key: `form.problem.${kind.format}` };
  }
  return null;
}

function numberProblem(kind: Extract<FieldKind, { type: 'number' }>, text: string): FieldProblem | null {
  const number = Number(text);
  if (!Number.isFinite(number)) return { key: 'form.problem.number' };
  if (kind.integer && !Number.isInteger(number)) return { key: 'form.problem.integer' };
  return bounds(number, kind.minimum, kind.maximum, 'form.problem.range');
}

/** `value` against `min`..`max`; `stem.min` / `stem.max` when it lies outside. */
function bounds(
  value: number,
  min: number | null,
  max: number | null,
  stem: 'form.problem.choices' | 'form.problem.length' | 'form.problem.range',
): FieldProblem | null {
  if (min !== null && value < min) return { key: `${stem}.min`, params: { min } };
  if (max !== null && value > max) return { key: `${stem}.max`, params: { max } };
  return null;
}

/** Whether `text` is written in `format`, as far as the form can tell (the backend checks too). */
function fits(format: TextFormat, text: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u.test(text);
    case 'uri':
      return URL.canParse(text);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));
    case 'date_time':
      return !Number.isNaN(Date.parse(text));
  }
}

/** The answer's content: each field that has a value, as the server's schema types it. */
export function contentOf(form: Form, values: FormValues): Record<string, JsonValue> {
  const content: Record<string, JsonValue> = {};
  for (const field of form.fields) {
    const value = values[field.name];
    if (field.kind.type === 'boolean') content[field.name] = value === true;
    else if (field.kind.type === 'choices') {
      if (Array.isArray(value) && value.length) content[field.name] = value;
    } else if (typeof value === 'string' && value.trim()) {
      const text = value.trim();
      if (field.kind.type === 'number') content[field.name] = Number(text);
      else if (field.kind.type === 'text') content[field.name] = toWire(field.kind.format, text);
      else content[field.name] = text;
    }
  }
  return content;
}

/** A `datetime-local` input's value as RFC 3339 with the local offset; other text as typed. */
export function toWire(format: TextFormat | null, text: string): string {
  if (format !== 'date_time' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return text;
  const local = new Date(text);
  const offset = -local.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const seconds = text.length === 16 ? ':00' : '';
  return `${text}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** An RFC 3339 default as a `datetime-local` input takes it (local time, to the minute). */
function fromWire(format: TextFormat | null, text: string): string {
  if (format !== 'date_time') return text;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) return text;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
