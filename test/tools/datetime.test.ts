import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

type Moment = {
  utc: string;
  local: string;
  offset: string;
  epoch_seconds: number;
  epoch_ms: number;
  weekday: string;
  iso_weekday: number;
  iso_week: number;
  iso_week_year: number;
  day_of_year: number;
};
type Out = {
  action: string;
  result?: Moment;
  start?: Moment;
  formatted?: string;
  from?: Moment;
  to?: Moment;
  unit?: string;
  difference?: number;
  whole_units?: number;
  breakdown?: Record<string, number>;
  iso_duration?: string;
  added_seconds?: number;
  notes?: string[];
};

async function ok(args: Record<string, unknown>): Promise<Out> {
  const result = await h.call('datetime', args);
  if (result.isError) throw new Error(`unexpected error: ${textOf(result)}`);
  return result.structuredContent as Out;
}

async function fails(args: Record<string, unknown>): Promise<string> {
  const result = await h.call('datetime', args);
  expect(result.isError).toBe(true);
  return textOf(result);
}

describe('datetime now', () => {
  it('returns the current instant in UTC', async () => {
    const before = Date.now();
    const out = await ok({ action: 'now' });
    const after = Date.now();
    expect(out.result!.utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    expect(out.result!.epoch_ms).toBeGreaterThanOrEqual(before);
    expect(out.result!.epoch_ms).toBeLessThanOrEqual(after);
    expect(Date.parse(out.result!.utc)).toBe(out.result!.epoch_ms);
    expect(out.result!.local).toBe(out.result!.utc);
  });

  it('renders at tz_offset_minutes when given', async () => {
    const out = await ok({ action: 'now', tz_offset_minutes: -570 });
    expect(out.result!.local).toMatch(/-09:30$/);
    expect(out.result!.offset).toBe('-09:30');
    expect(Date.parse(out.result!.local)).toBe(out.result!.epoch_ms);
  });
});

describe('datetime parse', () => {
  it('normalises an RFC 3339 value and describes its calendar position', async () => {
    const out = await ok({ action: 'parse', value: '2024-02-29T13:45:00Z' });
    expect(out.result).toEqual({
      utc: '2024-02-29T13:45:00Z',
      local: '2024-02-29T13:45:00Z',
      offset: '+00:00',
      epoch_seconds: 1709214300,
      epoch_ms: 1709214300000,
      weekday: 'Thursday',
      iso_weekday: 4,
      iso_week: 9,
      iso_week_year: 2024,
      day_of_year: 60,
    });
    expect(out.notes).toBeUndefined();
  });

  it('keeps the written offset, or shows tz_offset_minutes when given', async () => {
    const own = await ok({ action: 'parse', value: '2024-02-29T19:15:00+05:30' });
    expect(own.result!.utc).toBe('2024-02-29T13:45:00Z');
    expect(own.result!.local).toBe('2024-02-29T19:15:00+05:30');
    const shifted = await ok({ action: 'parse', value: '2024-02-29T13:45:00Z', tz_offset_minutes: 660 });
    expect(shifted.result!.local).toBe('2024-03-01T00:45:00+11:00');
    // Calendar fields follow the offset: it is already Friday, March 1 in +11:00.
    expect(shifted.result).toMatchObject({ weekday: 'Friday', iso_weekday: 5, day_of_year: 61 });
  });

  it.each([
    ['2024-02-29t13:45:00z', '2024-02-29T13:45:00Z'],
    ['2024-02-29 13:45:00Z', '2024-02-29T13:45:00Z'],
    ['2024-02-29T13:45:00-00:00', '2024-02-29T13:45:00Z'],
    ['2024-02-29T13:45:00.5Z', '2024-02-29T13:45:00.500Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00Z'],
    ['0050-06-15T00:00:00Z', '0050-06-15T00:00:00Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['2024-04-30T23:59:59+14:00', '2024-04-30T09:59:59Z'],
  ])('accepts %s', async (value, utc) => {
    expect((await ok({ action: 'parse', value })).result!.utc).toBe(utc);
  });

  it('reads a date alone as midnight at tz_offset_minutes, and says so', async () => {
    const utc = await ok({ action: 'parse', value: '2024-02-29' });
    expect(utc.result!.utc).toBe('2024-02-29T00:00:00Z');
    expect(utc.notes).toEqual(['value is a date alone: read as midnight at UTC offset +00:00']);
    const east = await ok({ action: 'parse', value: '2024-02-29', tz_offset_minutes: 120 });
    expect(east.result!.local).toBe('2024-02-29T00:00:00+02:00');
    expect(east.result!.utc).toBe('2024-02-28T22:00:00Z');
  });

  it('drops fraction digits beyond milliseconds and says so', async () => {
    const out = await ok({ action: 'parse', value: '2024-02-29T13:45:00.123456789Z' });
    expect(out.result!.utc).toBe('2024-02-29T13:45:00.123Z');
    expect(out.notes).toEqual(['value: digits of the fraction beyond milliseconds were dropped']);
  });

  it('reads a leap second as the following instant, only where one can occur', async () => {
    const out = await ok({ action: 'parse', value: '2016-12-31T23:59:60Z' });
    expect(out.result!.utc).toBe('2017-01-01T00:00:00Z');
    expect(out.notes![0]).toMatch(/leap second/);
    const atOffset = await ok({ action: 'parse', value: '2015-06-30T19:59:60-04:00' });
    expect(atOffset.result!.utc).toBe('2015-07-01T00:00:00Z');
    expect(await fails({ action: 'parse', value: '2024-03-01T12:00:60Z' })).toMatch(/23:59:60 UTC on June 30 or December 31/);
    expect(await fails({ action: 'parse', value: '2016-12-31T23:59:60+01:00' })).toMatch(/leap second/);
  });

  it.each([
    ['2023-02-29T00:00:00Z', /2023 is not a leap year, so February has 28 days/],
    ['2100-02-29T00:00:00Z', /2100 is not a leap year/],
    ['2024-04-31T00:00:00Z', /April 2024 has 30 days/],
    ['2024-02-30', /February 2024 has 29 days/],
    ['2024-13-01T00:00:00Z', /months go from 01 to 12/],
    ['2024-00-10T00:00:00Z', /months go from 01 to 12/],
    ['2024-01-00T00:00:00Z', /January 2024 has 31 days/],
    ['2024-01-01T24:00:00Z', /hours go from 00 to 23/],
    ['2024-01-01T23:60:00Z', /minutes go from 00 to 59/],
    ['2024-01-01T23:59:61Z', /seconds go from 00 to 59/],
    ['2024-01-01T10:00:00+24:00', /impossible UTC offset \+24:00/],
    ['2024-01-01T10:00:00', /no UTC offset.*append Z/],
    ['2024-01-01T10:00Z', /not an RFC 3339 date-time. Use the form 2024-02-29T13:45:00Z/],
    ['next tuesday', /not an RFC 3339 date-time. Use the form 2024-02-29T13:45:00Z/],
    ['1709214300', /not an RFC 3339 date-time/],
    ['0000-01-01T00:00:00+01:00', /outside years 0000-9999/],
  ])('refuses %s with a clear error', async (value, message) => {
    const text = await fails({ action: 'parse', value });
    expect(text).toMatch(/`value`|outside years/);
    expect(text).toMatch(message);
  });
});

describe('datetime format', () => {
  const value = '2024-03-05T07:08:09Z';

  it('renders every common strftime directive', async () => {
    const out = await ok({ action: 'format', value, format: '%Y-%m-%d %H:%M:%S|%j|%a %A|%b %B|%y|%e|%I %p|%Z %z|%s|%u %w|%V %G|%%' });
    expect(out.formatted).toBe('2024-03-05 07:08:09|065|Tue Tuesday|Mar March|24| 5|07 AM|UTC +0000|1709622489|2 2|10 2024|%');
    expect(out.result!.utc).toBe(value);
  });

  it('renders at tz_offset_minutes, keeping %s on the instant', async () => {
    const out = await ok({ action: 'format', value, format: '%F %T %Z %z %:z %s %P', tz_offset_minutes: -480 });
    expect(out.formatted).toBe('2024-03-04 23:08:09 UTC-08:00 -0800 -08:00 1709622489 pm');
  });

  it('renders at the offset the value was written with by default', async () => {
    const out = await ok({ action: 'format', value: '2024-03-05T07:08:09+05:45', format: '%H:%M %z' });
    expect(out.formatted).toBe('07:08 +0545');
  });

  it.each([
    ['%c', 'Tue Mar  5 07:08:09 2024'],
    ['%x %X', '03/05/24 07:08:09'],
    ['%D %R %r', '03/05/24 07:08 07:08:09 AM'],
    ['%-d/%-m %_H %0e %k|%l', '5/3  7 05  7| 7'],
    ['%C %h %q %L %Q', '20 Mar 1 000 1709622489000'],
    ['week %U/%W', 'week 09/10'],
    ['%n%t', '\n\t'],
    ['plain text', 'plain text'],
  ])('%s', async (format, expected) => {
    expect((await ok({ action: 'format', value, format })).formatted).toBe(expected);
  });

  it('handles ISO week-year boundaries', async () => {
    expect((await ok({ action: 'format', value: '2021-01-01T12:00:00Z', format: '%G-W%V-%u' })).formatted).toBe('2020-W53-5');
    expect((await ok({ action: 'format', value: '2024-12-30T12:00:00Z', format: '%G-W%V-%u' })).formatted).toBe('2025-W01-1');
  });

  it.each([
    ['%Y-%K', /Unknown strftime directive %K in format "%Y-%K". Supported: .*%V.* Write %% for a literal percent sign/],
    ['%E', /Unknown strftime directive %E/],
    ['%:H', /Unknown strftime directive %:H/],
    ['100%', /ends with an incomplete directive "%". Write %% for a literal percent sign/],
    ['%-A', /padding flag in %-A applies only to numeric directives .*: write %A without it/],
  ])('refuses format %s, naming the directive', async (format, message) => {
    expect(await fails({ action: 'format', value, format })).toMatch(message);
  });
});

describe('datetime add', () => {
  it.each([
    ['2024-01-31T10:00:00Z', { days: 29 }, '2024-02-29T10:00:00Z'],
    ['2024-01-31T10:00:00Z', { days: 30 }, '2024-03-01T10:00:00Z'],
    ['2023-01-31T10:00:00Z', { days: 29 }, '2023-03-01T10:00:00Z'],
    ['2023-02-28T23:30:00Z', { minutes: 30 }, '2023-03-01T00:00:00Z'],
    ['2024-02-28T23:30:00Z', { minutes: 30 }, '2024-02-29T00:00:00Z'],
    ['2024-03-01T00:00:00Z', { days: -1 }, '2024-02-29T00:00:00Z'],
    ['2024-12-31T23:59:59Z', { seconds: 1 }, '2025-01-01T00:00:00Z'],
    ['2024-01-01T00:00:00Z', { days: 366 }, '2025-01-01T00:00:00Z'],
    ['2023-01-01T00:00:00Z', { days: 1, hours: 2, minutes: 3, seconds: 4 }, '2023-01-02T02:03:04Z'],
    ['2024-06-30T12:00:00Z', { hours: -36 }, '2024-06-29T00:00:00Z'],
  ])('%s + %j = %s', async (value, duration, expected) => {
    const out = await ok({ action: 'add', value, ...duration });
    expect(out.result!.utc).toBe(expected);
    expect(out.start!.utc).toBe(value);
  });

  it('adds at an offset: local midnight of a leap day', async () => {
    const out = await ok({ action: 'add', value: '2024-02-28T22:00:00-05:00', hours: 2 });
    expect(out.result!.local).toBe('2024-02-29T00:00:00-05:00');
    expect(out.result!.utc).toBe('2024-02-29T05:00:00Z');
    expect(out.added_seconds).toBe(7200);
    const shown = await ok({ action: 'add', value: '2024-02-28T22:00:00Z', hours: 2, tz_offset_minutes: 90 });
    expect(shown.result!.local).toBe('2024-02-29T01:30:00+01:30');
  });

  it('needs a duration', async () => {
    expect(await fails({ action: 'add', value: '2024-01-01T00:00:00Z' })).toMatch(/needs at least one of `days`, `hours`, `minutes`, `seconds`/);
  });

  it('refuses results beyond year 9999', async () => {
    expect(await fails({ action: 'add', value: '9999-12-31T00:00:00Z', days: 1 })).toMatch(/outside years 0000-9999/);
    expect(await fails({ action: 'add', value: '9999-12-31T23:00:00Z', tz_offset_minutes: 120, seconds: 1 })).toMatch(
      /outside years 0000-9999 at offset \+02:00/,
    );
  });
});

describe('datetime diff', () => {
  it('gives the exact difference, whole units and a breakdown', async () => {
    const out = await ok({ action: 'diff', from: '2024-01-01T00:00:00Z', to: '2024-01-02T12:00:00.250Z', unit: 'days' });
    expect(out.difference).toBeCloseTo(1.5000028935185186, 15);
    expect(out.whole_units).toBe(1);
    expect(out.breakdown).toEqual({ sign: 1, days: 1, hours: 12, minutes: 0, seconds: 0, milliseconds: 250 });
    expect(out.iso_duration).toBe('P1DT12H0.25S');
    expect(out.from!.utc).toBe('2024-01-01T00:00:00Z');
  });

  it('is negative when to is before from', async () => {
    const out = await ok({ action: 'diff', from: '2024-01-02T12:00:00Z', to: '2024-01-01T00:00:00Z', unit: 'hours' });
    expect(out).toMatchObject({ difference: -36, whole_units: -36, iso_duration: '-P1DT12H' });
    expect(out.breakdown).toMatchObject({ sign: -1, days: 1, hours: 12 });
  });

  it.each([
    ['2024-02-28T00:00:00Z', '2024-03-01T00:00:00Z', 'days', 2],
    ['2023-02-28T00:00:00Z', '2023-03-01T00:00:00Z', 'days', 1],
    ['2024-01-01T00:00:00+02:00', '2024-01-01T00:00:00Z', 'minutes', 120],
    ['2023-01-01', '2024-01-01', 'days', 365],
    ['2024-01-01', '2025-01-01', 'days', 366],
    ['2016-12-31T23:59:59Z', '2016-12-31T23:59:60Z', 'seconds', 1],
  ])('%s → %s in %s = %s', async (from, to, unit, expected) => {
    expect((await ok({ action: 'diff', from, to, unit })).difference).toBe(expected);
  });

  it('defaults to seconds and says PT0S for no difference', async () => {
    const out = await ok({ action: 'diff', from: '2024-01-01T00:00:00Z', to: '2024-01-01T01:00:00+01:00' });
    expect(out).toMatchObject({ unit: 'seconds', difference: 0, whole_units: 0, iso_duration: 'PT0S' });
    expect(out.breakdown!.sign).toBe(0);
  });
});

describe('datetime input errors', () => {
  it.each([
    [{ action: 'parse' }, /action "parse" needs `value`/],
    [{ action: 'format', value: '2024-01-01T00:00:00Z' }, /action "format" needs `format`/],
    [{ action: 'add', days: 1 }, /action "add" needs `value`/],
    [{ action: 'diff', from: '2024-01-01T00:00:00Z' }, /action "diff" needs `to`/],
    [{ action: 'diff', to: '2024-01-01T00:00:00Z' }, /action "diff" needs `from`/],
    [{ action: 'diff', from: 'yesterday', to: '2024-01-01T00:00:00Z' }, /`from` "yesterday" is not an RFC 3339 date-time/],
  ])('%j', async (args, message) => {
    expect(await fails(args)).toMatch(message);
  });

  it.each([
    [{ action: 'tomorrow' }, /`action`/],
    [{ action: 'now', tz_offset_minutes: 841 }, /`tz_offset_minutes`/],
    [{ action: 'now', tz_offset_minutes: -841 }, /`tz_offset_minutes`/],
    [{ action: 'now', tz_offset_minutes: 30.5 }, /`tz_offset_minutes`/],
    [{ action: 'add', value: '2024-01-01T00:00:00Z', days: 1.5 }, /`days`/],
    [{ action: 'add', value: '2024-01-01T00:00:00Z', seconds: '10' }, /`seconds`/],
    [{ action: 'diff', from: '2024-01-01T00:00:00Z', to: '2024-01-02T00:00:00Z', unit: 'weeks' }, /`unit`/],
  ])('schema refuses %j naming the field', async (args, field) => {
    const text = await fails(args);
    expect(text).toMatch(/Invalid arguments for datetime/);
    expect(text).toMatch(field);
  });

  it('accepts the extreme real offsets', async () => {
    expect((await ok({ action: 'parse', value: '2024-01-01T00:00:00Z', tz_offset_minutes: 840 })).result!.local).toBe('2024-01-01T14:00:00+14:00');
    expect((await ok({ action: 'parse', value: '2024-01-01T00:00:00Z', tz_offset_minutes: -840 })).result!.local).toBe('2023-12-31T10:00:00-14:00');
  });
});

describe('datetime in tools/list', () => {
  it('is listed read-only with its schemas', async () => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'datetime')!;
    expect(tools.map((t) => t.name).slice(0, 2)).toEqual(['calculator', 'datetime']);
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(Object.keys(tool.inputSchema.properties!).sort()).toEqual(
      ['action', 'days', 'format', 'from', 'hours', 'minutes', 'seconds', 'to', 'tz_offset_minutes', 'unit', 'value'].sort(),
    );
    expect(tool.inputSchema.required).toEqual(['action']);
    expect(tool.outputSchema).toBeDefined();
  });
});
