// The active language and `t()`, the one way UI code turns a message key into text.
import { en, type MessageKey } from './en';
import { format, groupThousands, type Params } from './format';
import { zhCN } from './zh-CN';

export const tables = { en, 'zh-CN': zhCN } as const satisfies Record<string, Record<MessageKey, string>>;
export type Lang = keyof typeof tables;
export const languages: Lang[] = ['en', 'zh-CN'];

const current = $state<{ lang: Lang }>({ lang: 'en' });

export function isLang(value: string): value is Lang {
  return Object.prototype.hasOwnProperty.call(tables, value);
}

export function setLanguage(lang: string): void {
  current.lang = isLang(lang) ? lang : 'en';
  if (typeof document !== 'undefined') document.documentElement.lang = current.lang;
}

/** The UI's language now. */
export function currentLanguage(): Lang {
  return current.lang;
}

export function t(key: MessageKey, params?: Params): string {
  return format(tables[current.lang][key], params);
}


const numberFormats = new Map<Lang, Intl.NumberFormat>();
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

/** Locale-aware number, e.g. 12,345. Whole numbers (token counts, durations) are grouped by
 * hand: both languages group by thousands with a comma, and the first `Intl.NumberFormat` costs
 * tens of milliseconds, which opening a chat would pay. */
export function num(n: number): string {
  if (Number.isSafeInteger(n)) return groupThousands(n);
  let f = numberFormats.get(current.lang);
  if (!f) numberFormats.set(current.lang, (f = new Intl.NumberFormat(current.lang)));
  return f.format(n);
}

/** Locale-aware date and time from unix milliseconds. */
export function dateTime(ms: number): string {
  let f = dateFormats.get(current.lang);
  if (!f) dateFormats.set(current.lang, (f = new Intl.DateTimeFormat(current.lang, { dateStyle: 'medium', timeStyle: 'medium' })));
  return f.format(ms);
}
