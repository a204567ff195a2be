/**
 * Everything derived from a tool definition: its effective input schema, the JSON Schema shown in
 * tools/list and the manifest (one function, so the two can never differ), and its MCP annotations.
 */
import { z } from 'zod';
import type { AnyTool, SideEffects } from './definition.js';

/** Tools whose calls may need a confirmation accept the token that carries it on a second call. */
export function mayNeedConfirmation(tool: Pick<AnyTool, 'side_effects'>): boolean {
  return tool.side_effects === 'mutating' || tool.side_effects === 'external_paid';
}

export const CONFIRMATION_TOKEN_FIELD = 'confirmation_token';

const confirmationToken = z
  .string()
  .max(200)
  .optional()
  .describe('Only when a previous call answered "confirmation required": the token it returned, to confirm that exact call.');

const effectiveInputs = new WeakMap<AnyTool, z.ZodObject>();

/** The schema arguments are validated against (the tool's input plus the confirmation token where applicable). */
export function effectiveInput(tool: AnyTool): z.ZodObject {
  let schema = effectiveInputs.get(tool);
  if (!schema) {
    const base = tool.input as z.ZodObject;
    schema = mayNeedConfirmation(tool) ? base.extend({ [CONFIRMATION_TOKEN_FIELD]: confirmationToken }) : base;
    effectiveInputs.set(tool, schema);
  }
  return schema;
}

export interface ObjectJsonSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  [key: string]: unknown;
}

/** Keywords that describe a schema rather than constrain its instances; they stay beside an `anyOf`. */
const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * Rewrites every `"type": ["string", "null"]` (what zod emits for `.nullable()`) as `anyOf` branches of one
 * type each: several MCP clients read `type` as a single string and drop the constraint or refuse the tool
 * (the MCP Inspector's strict portability check warns about it). The constraints move into the branch of
 * their type; annotations stay on the node. Same meaning, portable spelling.
 */
export function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : withoutTypeArrays(value);
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const kept: Record<string, unknown> = {};
  const constraints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATION_KEYWORDS.has(key) ? kept : constraints)[key] = value;
  }
  const branch = (type: string) => (type === 'null' ? { type } : { type, ...constraints });
  return { ...kept, anyOf: types.map(branch) };
}

function toObjectJsonSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectJsonSchema {
  const json = withoutTypeArrays(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object', properties: (json.properties as Record<string, unknown>) ?? {}, required: (json.required as string[]) ?? [] };
}

const inputJson = new WeakMap<AnyTool, ObjectJsonSchema>();

/** The JSON Schema of a tool's arguments: tools/list `inputSchema` and manifest `input_schema`. */
export function inputJsonSchema(tool: AnyTool): ObjectJsonSchema {
  let json = inputJson.get(tool);
  if (!json) {
    json = toObjectJsonSchema(effectiveInput(tool), 'input');
    inputJson.set(tool, json);
  }
  return json;
}

export function outputJsonSchema(tool: AnyTool): ObjectJsonSchema | undefined {
  return tool.output ? toObjectJsonSchema(tool.output, 'output') : undefined;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The MCP annotations of a tool: those its side_effects imply, overridden by any the definition states. */
export function annotationsOf(tool: Pick<AnyTool, 'side_effects' | 'title' | 'annotations'>): ToolAnnotations {
  return { ...annotationsFor(tool.side_effects, tool.title), ...tool.annotations };
}

/** The MCP annotations side_effects implies: the default for every tool that states none of its own. */
export function annotationsFor(sideEffects: SideEffects, title?: string): ToolAnnotations {
  switch (sideEffects) {
    case 'none':
      return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'external':
      return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    case 'external_paid':
      return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'mutating':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

/** "`a.b`: message" lines for a failed parse, phrased for the model that sent the arguments. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? `\`${issue.path.join('.')}\`` : 'arguments'}: ${issue.message}`).join('; ');
}
