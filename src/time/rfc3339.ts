/**
 * RFC 3339 timestamps: strict parsing, and rendering of an instant at a fixed UTC offset.
 *
 * Accepted input: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (RFC 3339 `date-time`; `T`/`t` or one space
 * between date and time, `Z` or `z`), or a `full-date` alone, `YYYY-MM-DD`, read as midnight at the caller's
 * offset. Every field is range-checked against the calendar: February 29 only in leap years, no April 31.
 * Years are 0000–9999, the range RFC 3339 can write. Fractional seconds beyond milliseconds are truncated
 * (JavaScript time has millisecond resolution) and the result says so.
 *
 * Leap seconds: `:60` is accepted only where one can be inserted, at 23:59:60 UTC on June 30 or December 31,
 * and is read as the instant that follows it (00:00:00 the next day): POSIX and JavaScript time count no leap
 * seconds, so it has no instant of its own. Anywhere else `:60` is an error.
 */
import { ToolError } from '../errors.js';

export const MAX_OFFSET_MINUTES = 14 * 60;
export const RFC3339_EXAMPLE = '2024-02-29T13:45:00Z';

const MS_PER_MINUTE = 60_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

export interface ParsedInstant {
  /** Milliseconds since 1970-01-01T00:00:00Z. */
  epochMs: number;
  /** The offset written in the text (the default offset for a date alone). */
  offsetMinutes: number;
  /** What was adjusted on the way in (leap second, truncated fraction, date alone), for the caller to see. */
  notes: string[];
}

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The instant of a UTC wall-clock time; valid for years 0–99 too (Date.UTC maps those to 1900–1999). */
function utcInstant(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function invalid(field: string, text: string, why: string): ToolError {
  return new ToolError(`\`${field}\` ${JSON.stringify(text)} ${why}`, 'invalid_arguments');
}

/** Parses `text` (the argument named `field`) strictly; throws a ToolError naming the field otherwise. */
export function parseRfc3339(text: string, field: string, dateOnlyOffsetMinutes = 0): ParsedInstant {
  const trimmed = text.trim();
  const notes: string[] = [];
  let match = DATE_TIME.exec(trimmed);
  let parts: string[];
  let offsetMinutes: number;
  if (match) {
    parts = match.slice(1, 7) as string[];
    const zone = match[8]!;
    if (zone === 'Z' || zone === 'z') offsetMinutes = 0;
    else {
      const oh = Number(zone.slice(1, 3));
      const om = Number(zone.slice(4, 6));
      if (oh > 23 || om > 59) throw invalid(field, text, `has an impossible UTC offset ${zone}: hours go to 23 and minutes to 59.`);
      offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  } else if ((match = FULL_DATE.exec(trimmed))) {
    parts = [...(match.slice(1, 4) as string[]), '00', '00', '00'];
    offsetMinutes = dateOnlyOffsetMinutes;
    notes.push(`${field} is a date alone: read as midnight at UTC offset ${formatOffset(offsetMinutes)}`);
  } else if (NO_OFFSET.test(trimmed)) {
    throw invalid(
      field,
      text,
      'has no UTC offset, and RFC 3339 requires one: append Z for UTC or an offset such as +02:00 ' +
        `(for example ${RFC3339_EXAMPLE} or 2024-02-29T13:45:00+05:30).`,
    );
  } else {
    throw invalid(
      field,
      text,
      `is not an RFC 3339 date-time. Use the form ${RFC3339_EXAMPLE} (UTC) or 2024-02-29T13:45:00+05:30 ` +
        '(with an offset); a date alone such as 2024-02-29 means midnight.',
    );
  }

  const [year, month, day, hour, minute, second] = parts.map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12) throw invalid(field, text, `has month ${parts[1]}: months go from 01 to 12.`);
  const monthDays = daysInMonth(year, month);
  if (day < 1 || day > monthDays) {
    const why = month === 2 && day === 29 ? `${year} is not a leap year, so February has 28 days.` : `${MONTHS[month - 1]} ${year} has ${monthDays} days.`;
    throw invalid(field, text, `is not a real date: ${why}`);
  }
  if (hour > 23) throw invalid(field, text, `has hour ${parts[3]}: hours go from 00 to 23.`);
  if (minute > 59) throw invalid(field, text, `has minute ${parts[4]}: minutes go from 00 to 59.`);
  if (second > 60) throw invalid(field, text, `has second ${parts[5]}: seconds go from 00 to 59 (60 only for a leap second).`);

  const fraction = match[7] ?? '';
  if (fraction.length > 3 && /[1-9]/.test(fraction.slice(3))) notes.push(`${field}: digits of the fraction beyond milliseconds were dropped`);
  const ms = fraction === '' ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));

  let epochMs: number;
  if (second === 60) {
    const before = new Date(utcInstant(year, month, day, hour, minute, 59, 0) - offsetMinutes * MS_PER_MINUTE);
    const endOfHalfYear = (before.getUTCMonth() === 5 && before.getUTCDate() === 30) || (before.getUTCMonth() === 11 && before.getUTCDate() === 31);
    if (!endOfHalfYear || before.getUTCHours() !== 23 || before.getUTCMinutes() !== 59) {
      throw invalid(field, text, 'has second 60, which only a leap second has: 23:59:60 UTC on June 30 or December 31.');
    }
    epochMs = before.getTime() + 1000;
    notes.push(`${field} is a leap second: read as the instant after it, since POSIX time counts no leap seconds`);
  } else {
    epochMs = utcInstant(year, month, day, hour, minute, second, ms) - offsetMinutes * MS_PER_MINUTE;
  }
  assertWritable(epochMs, 0, field);
  return { epochMs, offsetMinutes, notes };
}

/** `+05:30`, `-08:00`, `+00:00`. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The wall-clock time at `offsetMinutes`, as a Date whose UTC fields hold it. */
export function wallClock(epochMs: number, offsetMinutes: number): Date {
  return new Date(epochMs + offsetMinutes * MS_PER_MINUTE);
}

/** Throws unless the instant, seen at the offset, has a year RFC 3339 can write (0000–9999). */
export function assertWritable(epochMs: number, offsetMinutes: number, what: string): void {
  const year = wallClock(epochMs, offsetMinutes).getUTCFullYear();
  if (!Number.isFinite(epochMs) || year < 0 || year > 9999) {
    throw new ToolError(
      `The ${what} falls outside years 0000-9999${offsetMinutes ? ` at offset ${formatOffset(offsetMinutes)}` : ''}, which RFC 3339 cannot write. Use a nearer date or a smaller duration.`,
      'out_of_range',
    );
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** RFC 3339 at the offset: `2024-02-29T13:45:00Z`, `2024-02-29T19:15:00.250+05:30`. */
export function formatRfc3339(epochMs: number, offsetMinutes = 0): string {
  const d = wallClock(epochMs, offsetMinutes);
  const ms = d.getUTCMilliseconds();
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
    (ms ? `.${pad(ms, 3)}` : '') +
    (offsetMinutes === 0 ? 'Z' : formatOffset(offsetMinutes))
  );
}
