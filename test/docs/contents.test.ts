import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocIndex } from '../../src/docs/index.js';
import { ingestedIndex } from './helpers.js';

/** A reference page that opens with its table of contents, as framework references often do. */
const SERVER = `---
title: server
section: 1
description: The server factory and its options
---

<h1 align="center">Server</h1>

## Factory
<a id="factory"></a>

The module exports a factory function that is used to create new instances.

* [Factory](#factory)
  * [\`http2\`](#http2)
  * [\`connectionTimeout\`](#connectiontimeout)
  * [\`bodyLimit\`](#bodylimit)

<!-- automatically generated, do not edit -->

### \`connectionTimeout\`
<a id="factory-connection-timeout"></a>

+ Default: \`0\` (no timeout)

Defines the server timeout in milliseconds. See documentation for
[\`server.timeout\` property](https://nodejs.org/api/http.html#http_server_timeout) to understand
the effect of this option.

### \`bodyLimit\`
<a id="factory-body-limit"></a>

+ Default: \`1048576\` (1MiB)

Defines the maximum payload, in bytes, the server is allowed to accept.
The default body reader sends [\`ERR_BODY_TOO_LARGE\`](./errors.md#err_body_too_large)
reply, if the size of the body exceeds this limit.
`;

let index: DocIndex;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ index, close } = await ingestedIndex('contents', { 'server.md': SERVER }));
});
afterAll(() => close());

describe("a page's table of contents", () => {
  it('is neither searched nor quoted: the section it links to answers', async () => {
    const t = await index.trace('How do I set a timeout for connections?');
    expect(t.result.grounded).toBe(true);
    expect(t.retrieval!.candidates[0]!.chunk.section).toBe('Factory › connectionTimeout');
    expect(t.result.answer).toMatch(/^From server\.md › Factory › connectionTimeout \[1\]:\n> \+ Default: `0` \(no timeout\)/);
    expect(t.result.answer).not.toContain('`bodyLimit`');
  });
});
