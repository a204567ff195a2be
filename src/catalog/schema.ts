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

function toObjectJsonSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectJsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
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

/** MCP annotations, derived from side_effects and nothing else. */
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
  return error.issues
    .map((issue) => `${issue.path.length ? `\`${issue.path.join('.')}\`` : 'arguments'}: ${issue.message}`)
    .join('; ');
}
