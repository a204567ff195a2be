import { describe, expect, it } from 'vitest';
import { retrying } from '../src/storage/store.js';

/** An error as LanceDB's native code throws it: a message and no JavaScript frames. */
function nativeError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

async function keysCreateLikeCaller(op: () => Promise<unknown>, retryable: (e: unknown) => boolean) {
  return retrying(op, retryable);
}

describe('storage operations that fail', () => {
  it('give an error without frames of its own the frames of the call that made the operation', async () => {
    const error = await keysCreateLikeCaller(
      () => Promise.reject(nativeError('lance error: Generic S3 error: Range started at 0 and ended at 0')),
      () => false,
    ).catch((e: unknown) => e as Error);
    expect(error.message).toBe('lance error: Generic S3 error: Range started at 0 and ended at 0');
    expect(error.stack).toContain('keysCreateLikeCaller');
    expect(error.stack).not.toContain('attempts');
  });

  it('say how many attempts a retried operation took before it gave up', async () => {
    let calls = 0;
    const error = await retrying(
      () => Promise.reject(nativeError(`transient ${++calls}`)),
      () => calls < 3,
    ).catch((e: unknown) => e as Error);
    expect(calls).toBe(3);
    expect(error.stack!.split('\n')[0]).toBe('Error: transient 3 (after 3 attempts)');
  });

  it('keep an error’s own frames, and return what a retried operation finally gives', async () => {
    const own = new Error('disk full');
    const ownStack = own.stack;
    const error = await retrying(
      () => Promise.reject(own),
      () => false,
    ).catch((e: unknown) => e as Error);
    expect(error.stack).toBe(ownStack);
    let calls = 0;
    const value = await retrying(
      async () => {
        if (++calls < 3) throw nativeError('transient');
        return 'read';
      },
      () => true,
    );
    expect([value, calls]).toEqual(['read', 3]);
  });
});
