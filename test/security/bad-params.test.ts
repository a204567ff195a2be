import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'params' } });
});
afterAll(async () => h.close());

async function errorOf(method: string, params: unknown): Promise<McpError> {
  const error = await h.client.request({ method, params } as never, z.any()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('invalid params', () => {
  it.each([
    ['tools/call', { name: 'calculator', arguments: [] }, /`params\.arguments`: .*expected record, received array/],
    ['tools/call', { name: 'calculator', arguments: true }, /`params\.arguments`: .*received boolean/],
    ['tools/call', { name: 'calculator', arguments: 42 }, /`params\.arguments`: .*received number/],
    ['tools/call', { name: 'calculator', arguments: null }, /`params\.arguments`/],
    ['prompts/get', { name: 123 }, /`params\.name`: .*expected string, received number/],
    ['logging/setLevel', { level: 'nope' }, /`params\.level`: .*expected one of "debug"\|"info"/],
  ])('%s with %j is -32602 naming the field, not an internal error', async (method, params, message) => {
    const error = await errorOf(method, params);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(new RegExp(`Invalid params for ${method.replace('/', '\\/')}: `));
    expect(error.message).toMatch(message);
  });

  it('leaves the session usable afterwards', async () => {
    await errorOf('tools/call', { name: 'calculator', arguments: [] });
    const ok = await h.call('calculator', { operation: 'add', a: 1, b: 2 });
    expect(ok.isError).toBeFalsy();
  });
});
