import { describe, expect, it } from 'vitest';
import type { Form } from './bindings/Form';
import type { FormField } from './bindings/FormField';
import { applyEvent, failTurn, newChatState } from './chat/reducer';
import { contentOf, initialValues, inputType, problems, toWire } from './forms';

function field(name: string, kind: FormField['kind'], required = false, given: FormField['default'] = null): FormField {
  return { name, label: name.toUpperCase(), description: null, kind, required, default: given };
}

const text = (format: 'email' | 'uri' | 'date' | 'date_time' | null = null, min: number | null = null, max: number | null = null) =>
  ({ type: 'text', format, min_length: min, max_length: max }) as const;

const form: Form = {
  source: 'everything',
  message: 'Please provide inputs',
  fields: [
    field('name', text(null, 2, 10), true),
    field('email', text('email')),
    field('age', { type: 'number', integer: true, minimum: 0, maximum: 150 }, false, 42),
    field('score', { type: 'number', integer: false, minimum: null, maximum: 10 }),
    field('verified', { type: 'boolean' }, false, true),
    field('colour', { type: 'choice', options: [{ value: 'r', label: 'Red' }, { value: 'b', label: 'Blue' }] }, true),
    field('tags', { type: 'choices', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }], min_items: null, max_items: 1 }),
  ],
};

describe('the form card', () => {
  it('starts from the defaults and leaves empty fields out of the answer', () => {
    const values = initialValues(form);
    expect(values).toEqual({ name: '', email: '', age: '42', score: '', verified: true, colour: '', tags: [] });
    values.name = '  Ada ';
    values.colour = 'b';
    expect(contentOf(form, values)).toEqual({ name: 'Ada', age: 42, verified: true, colour: 'b' });
    values.score = '2.5';
    values.tags = ['a'];
    values.verified = false;
    expect(contentOf(form, values)).toMatchObject({ score: 2.5, tags: ['a'], verified: false });
  });

  it('names what is wrong with each field, and nothing once it fits', () => {
    const values = initialValues(form);
    expect(problems(form, values)).toEqual({
      name: { key: 'form.problem.required' },
      colour: { key: 'form.problem.required' },
    });
    Object.assign(values, { name: 'A', email: 'ada@', age: '4.5', score: 'x', colour: 'r', tags: ['a', 'b'] });
    expect(problems(form, values)).toEqual({
      name: { key: 'form.problem.length.min', params: { min: 2 } },
      email: { key: 'form.problem.email' },
      age: { key: 'form.problem.integer' },
      score: { key: 'form.problem.number' },
      tags: { key: 'form.problem.choices.max', params: { max: 1 } },
    });
    Object.assign(values, { name: 'Ada', email: 'ada@example.org', age: '151', score: '11', tags: ['b'] });
    expect(problems(form, values)).toEqual({
      age: { key: 'form.problem.range.max', params: { max: 150 } },
      score: { key: 'form.problem.range.max', params: { max: 10 } },
    });
    values.age = '';
    values.score = '-3';
    expect(problems(form, values)).toEqual({});
  });

  it('gives formats their inputs and sends a local date and time with its offset', () => {
    expect([text('email'), text('uri'), text('date'), text('date_time'), text()].map((k) => inputType(k.format))).toEqual([
      'email',
      'url',
      'date',
      'datetime-local',
      'text',
    ]);
    const sent = toWire('date_time', '2026-12-01T09:30');
    expect(sent).toMatch(/^2026-12-01T09:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(sent).getTime()).toBe(new Date('2026-12-01T09:30').getTime());
    expect(toWire('date', '2026-12-01')).toBe('2026-12-01');
    const dated: Form = { ...form, fields: [field('when', text('date'), true), field('at', text('date_time'))] };
    expect(problems(dated, { when: '2026-13-40', at: 'soon' })).toEqual({
      when: { key: 'form.problem.date' },
      at: { key: 'form.problem.date_time' },
    });
  });

  it('is shown until its request closes or the turn ends', () => {
    const s = newChatState('desktop:1');
    applyEvent(s, { type: 'form_requested', request_id: 'f1', session_id: 'desktop:1', form });
    expect(s.form).toEqual({ requestId: 'f1', form, sent: false, error: null });
    applyEvent(s, { type: 'question_closed', request_id: 'q9', answered: true });
    expect(s.form?.requestId).toBe('f1');
    applyEvent(s, { type: 'question_closed', request_id: 'f1', answered: true });
    expect(s.form).toBeNull();
    applyEvent(s, { type: 'form_requested', request_id: 'f2', session_id: 'desktop:1', form });
    applyEvent(s, { type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage: { input_tokens: 0, output_tokens: 0 }, reason: 'cancelled' });
    expect(s.form).toBeNull();
    applyEvent(s, { type: 'form_requested', request_id: 'f3', session_id: 'desktop:1', form });
    failTurn(s, { text: 'boom', detail: null });
    expect(s.form).toBeNull();
  });
});
