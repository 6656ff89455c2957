// Cheap, strict checks for the string formats the published schemas use. ajv-formats' "full"
// date-time check costs ~600 ns a call and dominated validation time in our measurements
// (docs: ../../shared/reference/perf-baselines.md); these checks walk the string once with
// charCodeAt and do the calendar arithmetic by hand.
//
// The ahead-of-time generator registers exactly these formats with ajv, and the generated code
// imports this table: a schema that uses any other format fails generation with
// VALIDATORS_UNSUPPORTED_FORMAT instead of silently passing.

/** A format check as ajv's standalone code calls it: `formats[name].validate(value)`. */
export interface FormatDefinition {
  readonly type: 'string';
  readonly validate: (value: string) => boolean;
}

function twoDigits(s: string, at: number): number {
  const a = s.charCodeAt(at) - 48;
  const b = s.charCodeAt(at + 1) - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return -1;
  return a * 10 + b;
}

function fourDigits(s: string, at: number): number {
  const hi = twoDigits(s, at);
  const lo = twoDigits(s, at + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `YYYY-MM-DD` starting at 0 is a real calendar date (RFC 3339 full-date). */
function isFullDateAt(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const year = fourDigits(s, 0);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/**
 * The spec's timestamp profile of RFC 3339: `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, UTC only, upper-case
 * `T` and `Z` (the `Timestamp` pattern of the schemas), and a real date and time: Feb 29 only in
 * leap years, hours 00-23, minutes and seconds 00-59, and the leap second `23:59:60Z` that RFC
 * 3339 allows.
 *
 * @example
 * isDateTime('2026-11-30T05:53:08.000Z') === true;
 * isDateTime('2026-02-30T00:00:00Z') === false;
 */
export function isDateTime(s: string): boolean {
  const n = s.length;
  // 20 = without fraction; 22..30 = "." plus 1 to 9 digits.
  if (n !== 20 && (n < 22 || n > 30)) return false;
  if (s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  if (s.charCodeAt(n - 1) !== 90) return false;
  if (!isFullDateAt(s)) return false;
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0) return false;
  if (second > 59 && !(second === 60 && hour === 23 && minute === 59)) return false;
  if (n > 20) {
    if (s.charCodeAt(19) !== 46) return false;
    for (let i = 20; i < n - 1; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) return false;
    }
  }
  return true;
}

/**
 * An RFC 3339 full-date, `YYYY-MM-DD`, that exists in the calendar.
 *
 * @example
 * isDate('2024-02-29') === true;
 */
export function isDate(s: string): boolean {
  return s.length === 10 && isFullDateAt(s);
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * A UUID in its 36-character hyphenated form (RFC 9562), hex digits in either case, no `urn:uuid:`
 * prefix and no braces.
 *
 * @example
 * isUuid('0b6d4c9e-2f1a-4e3b-9c8d-7a6f5e4d3c2b') === true;
 */
export function isUuid(s: string): boolean {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!isHex(c)) return false;
  }
  return true;
}

/** Every format the generated validators may use, by JSON Schema format name. */
export const FORMATS: Readonly<Record<string, FormatDefinition>> = {
  'date-time': { type: 'string', validate: isDateTime },
  date: { type: 'string', validate: isDate },
  uuid: { type: 'string', validate: isUuid },
};
