import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { MAX_OFFSET_MINUTES, RFC3339_EXAMPLE, assertWritable, formatOffset, formatRfc3339, parseRfc3339, type ParsedInstant } from '../src/time/rfc3339.js';

const ACTIONS = ['now', 'parse', 'format', 'add', 'diff'] as const;
const UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
type Unit = (typeof UNITS)[number];

const MS: Record<Unit, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
/** About 10,000 years in each unit: any larger duration leaves the years RFC 3339 can write. */
const DURATION_BOUND: Record<Unit, number> = { days: 3_660_000, hours: 87_840_000, minutes: 5_270_400_000, seconds: 316_224_000_000 };

const duration = (unit: Unit) =>
  z.number().int().min(-DURATION_BOUND[unit]).max(DURATION_BOUND[unit]).optional().describe(`Whole ${unit} to add (negative to subtract), for add`);

const momentSchema = z.object({
  utc: z.string().describe('RFC 3339 in UTC'),
  local: z.string().describe('RFC 3339 at the offset used'),
  offset: z.string().describe('The offset used, as +HH:MM'),
  epoch_seconds: z.number().int().describe('Whole seconds since 1970-01-01T00:00:00Z (floor)'),
  epoch_ms: z.number().int(),
  weekday: z.string().describe('Weekday name at the offset'),
  iso_weekday: z.number().int().describe('1 = Monday … 7 = Sunday'),
  iso_week: z.number().int().describe('ISO 8601 week number (1-53)'),
  iso_week_year: z.number().int().describe('The year the ISO week belongs to'),
  day_of_year: z.number().int().describe('1-366'),
});
type Moment = z.infer<typeof momentSchema>;

const output = z.object({
  action: z.enum(ACTIONS),
  result: momentSchema.optional().describe('The instant: now, the parsed value, the formatted value, or the sum (add)'),
  formatted: z.string().optional().describe('The value rendered with `format` (format)'),
  start: momentSchema.optional().describe('The value durations were added to (add)'),
  added_seconds: z.number().int().optional().describe('The whole duration added, in seconds (add)'),
  from: momentSchema.optional(),
  to: momentSchema.optional(),
  unit: z.enum(UNITS).optional(),
  difference: z.number().optional().describe('`to - from` in `unit`, exact up to floating point (may be fractional)'),
  whole_units: z.number().int().optional().describe('Whole units in the difference, truncated toward zero'),
  breakdown: z
    .object({
      sign: z.union([z.literal(-1), z.literal(0), z.literal(1)]),
      days: z.number().int(),
      hours: z.number().int(),
      minutes: z.number().int(),
      seconds: z.number().int(),
      milliseconds: z.number().int(),
    })
    .optional()
    .describe('|to - from| split into days (24 h), hours, minutes, seconds and milliseconds, with its sign'),
  iso_duration: z.string().optional().describe('The difference as an ISO 8601 duration, days counted as 24 h'),
  notes: z.array(z.string()).optional().describe('Adjustments made to the input (leap second, date alone, dropped digits)'),
});
type Output = z.infer<typeof output>;

type Calendar = typeof import('../src/time/strftime.js').calendarOf;

/** The instant described at the offset; throws when either rendering falls outside years 0000-9999. */
function momentOf(calendarOf: Calendar, epochMs: number, offsetMinutes: number, what = 'result'): Moment {
  assertWritable(epochMs, 0, what);
  assertWritable(epochMs, offsetMinutes, what);
  return {
    utc: formatRfc3339(epochMs),
    local: formatRfc3339(epochMs, offsetMinutes),
    offset: formatOffset(offsetMinutes),
    epoch_seconds: Math.floor(epochMs / 1000),
    epoch_ms: epochMs,
    ...calendarOf(epochMs, offsetMinutes),
  };
}

function required<T>(value: T | undefined, field: string, action: string, example: string): T {
  if (value === undefined) {
    throw new ToolError(`action "${action}" needs \`${field}\` (for example ${example}).`, 'invalid_arguments');
  }
  return value;
}

function breakdownOf(ms: number) {
  const abs = Math.abs(ms);
  return {
    sign: (Math.sign(ms) || 0) as -1 | 0 | 1,
    days: Math.floor(abs / MS.days),
    hours: Math.floor((abs % MS.days) / MS.hours),
    minutes: Math.floor((abs % MS.hours) / MS.minutes),
    seconds: Math.floor((abs % MS.minutes) / MS.seconds),
    milliseconds: abs % MS.seconds,
  };
}

function isoDuration(b: ReturnType<typeof breakdownOf>): string {
  const seconds = b.milliseconds ? `${b.seconds}.${String(b.milliseconds).padStart(3, '0').replace(/0+$/, '')}` : `${b.seconds}`;
  const time = `${b.hours ? `${b.hours}H` : ''}${b.minutes ? `${b.minutes}M` : ''}${seconds !== '0' ? `${seconds}S` : ''}`;
  const body = `${b.days ? `${b.days}D` : ''}${time ? `T${time}` : ''}`;
  return `${b.sign < 0 ? '-' : ''}P${body || 'T0S'}`;
}

export const datetime = defineTool({
  name: 'datetime',
  title: 'Date and time',
  summary: 'now, parse, format (strftime), add, diff; RFC 3339; numeric UTC offsets',
  description:
    'Date and time arithmetic in UTC or at a fixed numeric UTC offset, exact across month ends and leap years. ' +
    'Actions: `now` (current time); `parse` (an RFC 3339 `value` → UTC and offset renderings, epoch seconds/ms, ' +
    'weekday, ISO week, day of year); `format` (render `value` with a strftime-style `format` such as "%A %d %B %Y %H:%M"); ' +
    '`add` (add whole `days`/`hours`/`minutes`/`seconds` to `value`; these are fixed durations: a day is exactly ' +
    '24 hours, and months or years are not supported because their length varies); `diff` (`to - from` in `unit`, ' +
    'default seconds, with whole units and a day/hour/minute/second breakdown). Values are RFC 3339 such as ' +
    `${RFC3339_EXAMPLE} or 2024-02-29T19:15:00+05:30; a date alone (2024-02-29) means midnight at tz_offset_minutes. ` +
    'Results are shown at `tz_offset_minutes` when given, otherwise at the offset the value was written with (UTC for now). ' +
    'Use it instead of computing dates in your head. Not for named time zones or daylight-saving rules (IANA zones such ' +
    'as Europe/Paris): pass the numeric offset that applies.',
  input: z.object({
    action: z.enum(ACTIONS).describe('now | parse | format | add | diff'),
    value: z.string().max(100).optional().describe(`RFC 3339 date-time (e.g. ${RFC3339_EXAMPLE}) for parse, format and add`),
    from: z.string().max(100).optional().describe('RFC 3339 start, for diff'),
    to: z.string().max(100).optional().describe('RFC 3339 end, for diff'),
    format: z.string().min(1).max(500).optional().describe('strftime-style format for format, e.g. "%Y-%m-%d %H:%M %Z"'),
    days: duration('days'),
    hours: duration('hours'),
    minutes: duration('minutes'),
    seconds: duration('seconds'),
    unit: z.enum(UNITS).optional().describe('Unit of the diff result (default seconds)'),
    tz_offset_minutes: z
      .number()
      .int()
      .min(-MAX_OFFSET_MINUTES)
      .max(MAX_OFFSET_MINUTES)
      .optional()
      .describe('Offset from UTC in minutes to show results at (e.g. 330 for +05:30, -300 for -05:00); -840..840'),
  }),
  output,
  side_effects: 'none',
  cost_class: 'free',
  requires_secret: false,
  hints: [
    'Offsets are fixed: convert named time zones to their current numeric offset yourself.',
    'Second 60 is accepted only for a real leap-second slot (23:59:60 UTC on June 30 or December 31) and read as the next instant.',
  ],
  async handler(input) {
    const { action, tz_offset_minutes: tz } = input;
    const { strftime, calendarOf } = await import('../src/time/strftime.js');
    const describe = (epochMs: number, offsetMinutes: number, what?: string) => momentOf(calendarOf, epochMs, offsetMinutes, what);
    const parse = (text: string, field: string): ParsedInstant => parseRfc3339(text, field, tz ?? 0);
    const notes: string[] = [];
    const withNotes = (value: Output): Output => (notes.length ? { ...value, notes } : value);

    switch (action) {
      case 'now': {
        const result = describe(Date.now(), tz ?? 0);
        return { value: { action, result }, text: tz === undefined ? `Now: ${result.utc}` : `Now: ${result.local} (${result.utc})` };
      }
      case 'parse': {
        const parsed = parse(required(input.value, 'value', action, RFC3339_EXAMPLE), 'value');
        notes.push(...parsed.notes);
        const result = describe(parsed.epochMs, tz ?? parsed.offsetMinutes, 'value');
        return {
          value: withNotes({ action, result }),
          text: `${result.local} = ${result.utc}, ${result.weekday}, ISO week ${result.iso_week_year}-W${String(result.iso_week).padStart(2, '0')}, day ${result.day_of_year} of the year`,
        };
      }
      case 'format': {
        const render = strftime(required(input.format, 'format', action, '"%Y-%m-%d %H:%M:%S %z"'));
        const parsed = parse(required(input.value, 'value', action, RFC3339_EXAMPLE), 'value');
        notes.push(...parsed.notes);
        const offset = tz ?? parsed.offsetMinutes;
        const result = describe(parsed.epochMs, offset, 'value');
        const formatted = render(parsed.epochMs, offset);
        return { value: withNotes({ action, formatted, result }), text: formatted };
      }
      case 'add': {
        const parsed = parse(required(input.value, 'value', action, RFC3339_EXAMPLE), 'value');
        notes.push(...parsed.notes);
        const parts = { days: input.days, hours: input.hours, minutes: input.minutes, seconds: input.seconds };
        if (Object.values(parts).every((v) => v === undefined)) {
          throw new ToolError(
            'action "add" needs at least one of `days`, `hours`, `minutes`, `seconds` (whole numbers, negative to subtract).',
            'invalid_arguments',
          );
        }
        const addedMs = UNITS.reduce((sum, unit) => sum + (parts[unit] ?? 0) * MS[unit], 0);
        const offset = tz ?? parsed.offsetMinutes;
        const start = describe(parsed.epochMs, offset, 'value');
        const result = describe(parsed.epochMs + addedMs, offset);
        return {
          value: withNotes({ action, result, start, added_seconds: addedMs / 1000 }),
          text: `${start.local} + ${addedMs / 1000} s = ${result.local}`,
        };
      }
      case 'diff': {
        const from = parse(required(input.from, 'from', action, RFC3339_EXAMPLE), 'from');
        const to = parse(required(input.to, 'to', action, '2024-03-01T00:00:00Z'), 'to');
        notes.push(...from.notes, ...to.notes);
        const unit = input.unit ?? 'seconds';
        const ms = to.epochMs - from.epochMs;
        const breakdown = breakdownOf(ms);
        const value: Output = {
          action,
          from: describe(from.epochMs, tz ?? from.offsetMinutes, 'from'),
          to: describe(to.epochMs, tz ?? to.offsetMinutes, 'to'),
          unit,
          difference: ms / MS[unit],
          whole_units: Math.trunc(ms / MS[unit]) || 0,
          breakdown,
          iso_duration: isoDuration(breakdown),
        };
        return { value: withNotes(value), text: `${value.to!.utc} - ${value.from!.utc} = ${value.difference} ${unit} (${value.iso_duration})` };
      }
    }
  },
});
