/**
 * What hosts read in tools/list, as a real MCP client receives it: the exact annotations of every tool, and
 * JSON Schemas that strict validators (the MCP Inspector's portability check) accept without warnings.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../tools/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let tools: Tool[];
beforeAll(async () => {
  h = await startHarness();
  tools = (await h.client.listTools()).tools;
});
afterAll(async () => h.close());

const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});

describe('tools/list', () => {
  it('announces exactly these annotations for every tool', () => {
    const announced = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    const titles = Object.fromEntries(TOOLS.map((t) => [t.name, t.title]));
    const expected: Record<string, ReturnType<typeof hints>> = {
      calculator: hints(true, false, true, false),
      datetime: hints(true, false, true, false),
      file_operations: hints(false, true, false, false),
      rag_query: hints(true, false, true, false),
      pricing_manager: hints(false, false, true, false),
      scheduler: hints(false, false, false, false),
      social_poster: hints(false, true, false, true),
      analytics_fetcher: hints(true, false, true, true),
      preprint_search: hints(true, false, true, true),
      encyclopedia: hints(true, false, true, true),
      web_search: hints(true, false, false, true),
      rss_feed: hints(true, false, true, true),
      chat_webhook: hints(false, true, false, true),
      spawn_sub_agent: hints(false, true, false, true),
    };
    expect(announced).toEqual(Object.fromEntries(Object.entries(expected).map(([name, a]) => [name, { title: titles[name], ...a }])));
  });

  it('passes a strict portability check: no type arrays, no bare boolean schemas, no schema that constrains nothing', () => {
    const findings: string[] = [];
    const constraining =
      /^(type|enum|const|properties|items|prefixItems|additionalProperties|anyOf|oneOf|allOf|not|\$ref|required|format|pattern|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minLength|maxLength|minItems|maxItems|uniqueItems|propertyNames|patternProperties)$/;
    // Walks schema positions only (not the values of enum, const, default, examples).
    const walk = (node: unknown, at: string, keyword?: string): void => {
      if (typeof node === 'boolean') {
        if (keyword !== 'additionalProperties') findings.push(`${at}: bare ${node}`);
        return;
      }
      if (!node || typeof node !== 'object' || Array.isArray(node)) return;
      const schema = node as Record<string, unknown>;
      if (Array.isArray(schema.type)) findings.push(`${at}: type ${JSON.stringify(schema.type)}`);
      if (!Object.keys(schema).some((k) => constraining.test(k))) findings.push(`${at}: constrains nothing`);
      for (const key of ['properties', 'patternProperties', '$defs']) {
        for (const [name, child] of Object.entries((schema[key] as Record<string, unknown>) ?? {})) walk(child, `${at}.${key}.${name}`, key);
      }
      for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
        (schema[key] as unknown[] | undefined)?.forEach((child, i) => walk(child, `${at}.${key}[${i}]`, key));
      for (const key of ['items', 'additionalProperties', 'not', 'propertyNames']) if (key in schema) walk(schema[key], `${at}.${key}`, key);
    };
    for (const tool of tools) {
      walk(tool.inputSchema, `${tool.name} inputSchema`);
      if (tool.outputSchema) walk(tool.outputSchema, `${tool.name} outputSchema`);
    }
    expect(tools.filter((t) => t.outputSchema).length).toBeGreaterThan(5);
    expect(findings).toEqual([]);
  });

  it('keeps nullable output fields nullable, as anyOf branches of one type each', () => {
    const social = tools.find((t) => t.name === 'social_poster')!;
    const post = (social.outputSchema!.properties as Record<string, { properties: Record<string, unknown> }>).post!;
    expect(post.properties.external_id).toEqual({ description: "The platform's id of the published post", anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
