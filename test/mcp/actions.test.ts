/**
 * Action tools declare, once, which fields each action requires or accepts (src/catalog/actions.ts): the
 * descriptions the model reads and the check every call passes are both generated from that declaration.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { actionInputShape, checkAction, defineActions } from '../../src/catalog/actions.js';
import { inputJsonSchema } from '../../src/catalog/schema.js';
import { findTool } from '../../tools/index.js';

const SPEC = defineActions({
  selector: 'action',
  selectorDoc: 'What to do',
  fields: {
    name: { schema: z.string(), doc: 'The plan name' },
    limit: { schema: z.number().int(), doc: 'How many to show' },
  },
  actions: { create: { name: 'required' }, list: { limit: ['optional', 'all when omitted'] }, clear: {} },
});

describe('an action spec', () => {
  it('describes each field with the actions that use it', () => {
    const schema = z.toJSONSchema(z.object(actionInputShape(SPEC))) as {
      properties: Record<string, { description?: string; enum?: string[] }>;
      required?: string[];
    };
    expect(schema.properties.action).toMatchObject({ enum: ['create', 'list', 'clear'], description: 'What to do' });
    expect(schema.properties.name!.description).toBe('The plan name. For create (required).');
    expect(schema.properties.limit!.description).toBe('How many to show. For list (optional: all when omitted).');
    expect(schema.required).toEqual(['action']);
  });

  it('checks a call against it: missing required fields and fields the action does not take are refused', () => {
    expect(checkAction(SPEC, { action: 'create', name: 'Pro', tenant_id: 't' })).toEqual({ action: 'create', name: 'Pro', tenant_id: 't' });
    expect(() => checkAction(SPEC, { action: 'create' })).toThrow('`name` is required for create: the plan name. Nothing was changed.');
    expect(() => checkAction(SPEC, { action: 'list', name: 'x', limit: 2 })).toThrow('`name` does not apply to list (it takes `limit`)');
    expect(() => checkAction(SPEC, { action: 'clear', limit: 1 })).toThrow('`limit` does not apply to clear (it takes no other field)');
  });
});

describe('the action tools', () => {
  it.each([
    ['pricing_manager', 'name', 'The plan name, unique per tenant (case-insensitive). For create_plan (required).'],
    [
      'scheduler',
      'category',
      expect.stringMatching(
        /^The task's category: one of .*\. For add_task \(required\); list_tasks \(optional: a filter\); check_overdue \(optional: a filter\)\.$/,
      ),
    ],
    ['social_poster', 'post_id', 'The id of the post, from create_draft or list_posts. For schedule (required); post (required).'],
    [
      'file_operations',
      'path',
      'Relative to the workspace root, "/"-separated (e.g. notes/plan.md). For read (required); write (required); list (optional: the root when omitted); delete (required).',
    ],
  ])('%s publishes the generated description of %s', (tool, field, description) => {
    const properties = inputJsonSchema(findTool(tool)!).properties as Record<string, { description: string }>;
    expect(properties[field]!.description).toEqual(description);
  });
});
