/**
 * strftime-style rendering of an instant at a fixed UTC offset (C/POSIX locale, English names).
 *
 * d3-time-format renders the calendar directives, applied to the wall-clock time at the offset held in a
 * Date's UTC fields. The directives that depend on the instant or the offset itself (%s %Q %z %:z %Z), the
 * C locale's %c %x %X, and glibc's shorthands (%F %T %R %D %r %h %k %l %C %P %n %t) are mapped here. Numeric
 * directives take the padding flags `-` (none), `_` (spaces) and `0` (zeros). Anything else after `%` is an
 * error that names it: a format is never half-rendered with a directive passed through as text.
 *
 * Loaded on first use (datetime imports it lazily), so listing tools never loads d3.
 */
import { utcFormat } from 'd3-time-format';
import { ToolError } from '../errors.js';
import { formatOffset, wallClock } from './rfc3339.js';

interface Instant {
  epochMs: number;
  offsetMinutes: number;
  /** Wall-clock time at the offset, in the UTC fields. */
  wall: Date;
}

type Render = (t: Instant) => string;

const NUMERIC = 'CdefgGHIjLmMqSuUVwWyY';
const FROM_D3 = 'aAbBdefgGHIjLmMpqSuUVwWyY%';

/** Directives defined by other directives (POSIX locale forms and glibc shorthands). */
const COMPOSITE: Record<string, string> = {
  c: '%a %b %e %H:%M:%S %Y',
  x: '%m/%d/%y',
  X: '%H:%M:%S',
  F: '%Y-%m-%d',
  T: '%H:%M:%S',
  R: '%H:%M',
  D: '%m/%d/%y',
  r: '%I:%M:%S %p',
  h: '%b',
  k: '%_H',
  l: '%_I',
};

const OWN: Record<string, Render> = {
  s: (t) => String(Math.floor(t.epochMs / 1000)),
  Q: (t) => String(t.epochMs),
  z: (t) => formatOffset(t.offsetMinutes).replace(':', ''),
  ':z': (t) => formatOffset(t.offsetMinutes),
  Z: (t) => (t.offsetMinutes === 0 ? 'UTC' : `UTC${formatOffset(t.offsetMinutes)}`),
  P: (t) => (t.wall.getUTCHours() < 12 ? 'am' : 'pm'),
  n: () => '\n',
  t: () => '\t',
};

export const SUPPORTED_DIRECTIVES = [...FROM_D3.replace('%', ''), ...Object.keys(COMPOSITE), 'C', ...Object.keys(OWN), '%']
  .map((d) => `%${d}`)
  .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));

const PAD_FLAGS = new Set(['-', '_', '0']);

function unknown(token: string, format: string): ToolError {
  return new ToolError(
    `Unknown strftime directive ${token} in format ${JSON.stringify(format)}. Supported: ${SUPPORTED_DIRECTIVES.join(' ')} ` +
      '(numeric ones take the flags - _ 0, as in %-d). Write %% for a literal percent sign.',
    'invalid_arguments',
  );
}

function compile(format: string, depth = 0): Render[] {
  const pieces: Render[] = [];
  let literal = '';
  const flush = () => {
    if (literal) {
      const text = literal;
      pieces.push(() => text);
      literal = '';
    }
  };
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== '%') {
      literal += ch;
      continue;
    }
    let j = i + 1;
    const flag = PAD_FLAGS.has(format[j] ?? '') ? format[j++]! : '';
    const colon = format[j] === ':' ? format[j++]! : '';
    const directive = format[j];
    const token = `%${flag}${colon}${directive ?? ''}`;
    if (directive === undefined) {
      throw new ToolError(
        `The format ${JSON.stringify(format)} ends with an incomplete directive ${JSON.stringify(token)}. Write %% for a literal percent sign.`,
        'invalid_arguments',
      );
    }
    const name = colon + directive;
    if (flag && !NUMERIC.includes(directive)) {
      throw new ToolError(
        `The padding flag in ${token} applies only to numeric directives (${[...NUMERIC].map((d) => `%${d}`).join(' ')}): write %${colon}${directive} without it.`,
        'invalid_arguments',
      );
    }
    flush();
    if (name === 'C') {
      pieces.push(utcCentury(flag));
    } else if (OWN[name]) {
      pieces.push(OWN[name]);
    } else if (!colon && COMPOSITE[directive] && depth === 0) {
      pieces.push(...compile(COMPOSITE[directive], depth + 1));
    } else if (!colon && FROM_D3.includes(directive)) {
      const render = utcFormat(`%${flag}${directive}`);
      pieces.push((t) => render(t.wall));
    } else {
      throw unknown(token, format);
    }
    i = j;
  }
  flush();
  return pieces;
}

function utcCentury(flag: string): Render {
  return (t) => {
    const century = String(Math.floor(t.wall.getUTCFullYear() / 100));
    return flag === '-' ? century : century.padStart(2, flag === '_' ? ' ' : '0');
  };
}

/** Checks `format` and returns its renderer; throws a ToolError naming the first unknown directive. */
export function strftime(format: string): (epochMs: number, offsetMinutes: number) => string {
  const pieces = compile(format);
  return (epochMs, offsetMinutes) => {
    const t: Instant = { epochMs, offsetMinutes, wall: wallClock(epochMs, offsetMinutes) };
    return pieces.map((piece) => piece(t)).join('');
  };
}

const weekday = utcFormat('%A');
const isoWeekday = utcFormat('%u');
const isoWeek = utcFormat('%V');
const isoWeekYear = utcFormat('%G');
const dayOfYear = utcFormat('%j');

/** Where the instant falls in the calendar at the offset. */
export function calendarOf(epochMs: number, offsetMinutes: number) {
  const wall = wallClock(epochMs, offsetMinutes);
  return {
    weekday: weekday(wall),
    iso_weekday: Number(isoWeekday(wall)),
    iso_week: Number(isoWeek(wall)),
    iso_week_year: Number(isoWeekYear(wall)),
    day_of_year: Number(dayOfYear(wall)),
  };
}
