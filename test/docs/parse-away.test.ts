/**
 * Reading a document off the event loop (src/docs/parse-away.ts): the built module (dist/, compiled by
 * `npm ci` through `prepare`), whose worker script exists, and the sources, where it does not.
 */
import { describe, expect, it } from 'vitest';
import * as sources from '../../src/docs/parse-away.js';
import { parseDocument } from '../../src/docs/parse.js';

type Away = typeof sources;
const built = (): Promise<Away> => import(new URL('../../dist/src/docs/parse-away.js', import.meta.url).href) as Promise<Away>;

const PAGE = `= Queue Guide
:description: Limits of the queue.

== Limits

*--max-jobs*::
The most jobs a queue holds; 512 by default.

NOTE: Retries back off for 30 seconds.

[source,bash]
----
queue start --max-jobs 64 # <1>
----
<1> Sixty-four at most.
`;

/** A long AsciiDoc manual: the page's sections again and again, each under its own heading. */
const manual = (sections: number) =>
  `= Manual\n\n${Array.from({ length: sections }, (_, i) => PAGE.replace('= Queue Guide', `== Part ${i}`).replace(/^== Limits/m, `=== Limits ${i}`)).join('\n')}`;

describe('parseAway', () => {
  it('reads on the worker what is long or AsciiDoc, in place what is short markdown', () => {
    expect(sources.readsAway(PAGE, 'asciidoc')).toBe(true);
    expect(sources.readsAway('# Short\n\nText.', 'markdown')).toBe(false);
    expect(sources.readsAway('x'.repeat(sources.AWAY_BYTES + 1), 'markdown')).toBe(true);
  });

  it('stops a document that takes too long, and reads the documents queued behind it on a new worker', async () => {
    const away = await built();
    const saved = { ...away.LIMITS };
    // A table of a million columns, three times: about half a minute of reading for 101 bytes.
    const hostile = `= T\n\n${'[cols="1000000*"]\n|===\n|a\n|===\n\n'.repeat(3)}`;
    Object.assign(away.LIMITS, { baseMs: 5_000, perMbMs: 0 });
    try {
      const [slow, after] = await Promise.allSettled([away.parseAway(hostile, 'asciidoc'), away.parseAway(PAGE, 'asciidoc')]);
      expect(slow).toMatchObject({ status: 'rejected', reason: { message: 'the document could not be read: it took longer than 5 s to read' } });
      expect(after).toMatchObject({ status: 'fulfilled', value: { title: 'Queue Guide' } });
    } finally {
      Object.assign(away.LIMITS, saved);
    }
  });

  it('gives exactly what parseDocument gives, on the built worker and, without it, in place', async () => {
    const away = await built();
    const html = `<html><body><main><h1>Big</h1>${'<p>The queue holds at most 512 jobs.</p>'.repeat(12_000)}</main></body></html>`;
    expect(html.length).toBeGreaterThan(away.AWAY_BYTES);
    for (const [content, type] of [
      [PAGE, 'asciidoc'],
      [html, 'html'],
      ['# Short\n\nText.', 'markdown'],
    ] as const) {
      const expected = parseDocument(content, type);
      expect(await away.parseAway(content, type)).toEqual(expected);
      expect(await sources.parseAway(content, type)).toEqual(expected);
    }
  });

  it('keeps the event loop turning while a long AsciiDoc document is read, and reads documents given at once', async () => {
    const away = await built();
    const long = manual(400);
    let turns = 0;
    let reading = true;
    const spin = () => {
      turns++;
      if (reading) setImmediate(spin);
    };
    setImmediate(spin);
    const [parsed, other] = await Promise.all([away.parseAway(long, 'asciidoc'), away.parseAway(PAGE, 'asciidoc')]);
    reading = false;
    expect(parsed.body).toContain('### Limits 399');
    expect(parsed.body).toContain('--max-jobs: The most jobs a queue holds; 512 by default.');
    expect(other.title).toBe('Queue Guide');
    // Read in place, the document would have held the loop for the whole reading: no turn at all.
    expect(turns).toBeGreaterThan(50);
  });
});
