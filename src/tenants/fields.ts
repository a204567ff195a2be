/**
 * Shared helpers of the tenant tools: action-dependent required fields, record ids and timestamps.
 */
import { randomBytes } from 'node:crypto';
import { ToolError } from '../errors.js';

/**
 * The value of a field an action needs, or a ToolError naming it. Inputs are optional in the schema (one
 * schema serves every action), so each action states what it requires here, before anything is written.
 */
export function required<T>(value: T | undefined, field: string, action: string, what: string): T {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
    throw new ToolError(`\`${field}\` is required for ${action}: ${what}. Nothing was changed.`, 'invalid_arguments', { field });
  }
  return value;
}

/** A record id: a readable prefix plus 96 random bits, e.g. `task_3f9c0a1b2c3d4e5f6a7b8c9d`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Ids are opaque; anything that cannot be one of ours is simply "not found" (never echoed into a filter unchecked). */
export const RECORD_ID = /^[a-z]{2,8}_[0-9a-f]{24}$/;

export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
