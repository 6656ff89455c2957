// Runtime checks for the JSON Schema keywords whose meaning zod does not have built in. The
// generated schemas call them from `.refine()` / `z.preprocess()`, so that zod judges a document
// exactly as ajv (strict, ajv-formats "full") judges it against the published schema.

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
const SEPARATOR = /t|\s/i;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function isFullDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const last = month === 2 && isLeapYear(year) ? 29 : (DAYS[month] ?? 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= last;
}

function isFullTime(value: string): boolean {
  const m = TIME.exec(value);
  if (!m) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const sign = m[5] === '-' ? -1 : 1;
  const offsetHour = Number(m[6] ?? 0);
  const offsetMinute = Number(m[7] ?? 0);
  // RFC 3339 requires an offset (`Z` or `+hh:mm`).
  if (m[4] === undefined || offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second is only 23:59:60 UTC, whatever the local offset.
  const utcMinute = minute - offsetMinute * sign;
  const utcHour = hour - offsetHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/**
 * JSON Schema `format: "date-time"`: an RFC 3339 date-time with a real calendar date, a real
 * time (leap second only at 23:59:60 UTC) and a mandatory offset. Same accept/reject as
 * ajv-formats in "full" mode (the reference validators' setting); the published schemas also
 * carry a `pattern` that narrows it to UTC `Z` timestamps.
 *
 * @example
 * isRfc3339DateTime('2024-02-29T23:59:60Z') === true;
 * isRfc3339DateTime('2023-02-29T00:00:00Z') === false; // 2023 is not a leap year
 */
export function isRfc3339DateTime(value: string): boolean {
  const parts = value.split(SEPARATOR);
  return parts.length === 2 && isFullDate(parts[0]!) && isFullTime(parts[1]!);
}

/**
 * Structural equality of two JSON values (object key order ignored), as JSON Schema defines it.
 *
 * @example
 * jsonEqual({ a: 1, b: [2] }, { b: [2], a: 1 }) === true;
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => jsonEqual(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  return keys.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/**
 * JSON Schema `uniqueItems: true`: no two items are structurally equal.
 *
 * @example
 * hasUniqueItems([{ a: 1, b: 2 }, { b: 2, a: 1 }]) === false;
 */
export function hasUniqueItems(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (jsonEqual(items[i], items[j])) return false;
  }
  return true;
}

/**
 * JSON Schema `minProperties` / `maxProperties`, counted on the document as given. It runs before
 * zod builds its output object, which drops an own `__proto__` key and would undercount.
 */
export function propertyCountWithin(value: unknown, min: number, max: number): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  const n = Object.keys(value).length;
  return n >= min && n <= max;
}
