import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, textOf, type Harness } from './helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('calculator', () => {
  it('adds decimals exactly', async () => {
    const result = await h.call('calculator', { operation: 'add', a: 0.1, b: 0.2 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ operation: 'add', a: 0.1, b: 0.2, result: '0.3', result_number: 0.3, exact: true });
  });

  it.each([
    ['subtract', 1.1, 0.2, '0.9'],
    ['multiply', 1.1, 1.1, '1.21'],
    ['divide', 1, 8, '0.125'],
    ['divide', -7.5, 2.5, '-3'],
    ['multiply', 9007199254740993, 1, '9007199254740992'], // eslint-disable-line no-loss-of-precision -- the point: JSON numbers arrive rounded
    ['add', 1e21, 1, '1000000000000000000001'],
  ])('%s(%s, %s) = %s', async (operation, a, b, expected) => {
    const result = await h.call('calculator', { operation, a, b });
    expect((result.structuredContent as { result: string }).result).toBe(expected);
  });

  it('omits result_number when no JSON number equals the result', async () => {
    const result = await h.call('calculator', { operation: 'add', a: 1e21, b: 1 });
    expect(result.structuredContent).not.toHaveProperty('result_number');
    expect((result.structuredContent as { exact: boolean }).exact).toBe(true);
  });

  it('says when a quotient does not terminate, and at what precision', async () => {
    const result = await h.call('calculator', { operation: 'divide', a: 1, b: 3 });
    const value = result.structuredContent as { result: string; exact: boolean; precision: string };
    expect(value.exact).toBe(false);
    expect(value.result).toBe('0.3333333333333333333333333333333333');
    expect(value.precision).toMatch(/34 significant digits/);
    expect(textOf(result)).toMatch(/does not terminate/);
  });

  it('refuses division by zero as a tool error', async () => {
    const result = await h.call('calculator', { operation: 'divide', a: 1, b: 0 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Division by zero/);
  });

  it.each([
    [{ operation: 'power', a: 2, b: 3 }, /operation/],
    [{ operation: 'add', a: '1+1', b: 2 }, /`a`/],
    [{ operation: 'add', a: 1 }, /`b`/],
    [{}, /operation/],
  ])('rejects bad input %j with a message naming the field', async (args, field) => {
    const result = await h.call('calculator', args as Record<string, unknown>);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments for calculator/);
    expect(textOf(result)).toMatch(field);
  });
});
