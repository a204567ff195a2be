/**
 * A tool is data: one plain object per tool, read by the MCP server, the manifest generator and the REST
 * surface alike. Nothing about a tool is written twice; annotations and JSON Schema are derived from it.
 */
import type { z } from 'zod';
import type { ToolContext } from './context.js';
import type { ToolAnnotations } from './schema.js';

export const SIDE_EFFECTS = ['none', 'external', 'external_paid', 'mutating'] as const;
export type SideEffects = (typeof SIDE_EFFECTS)[number];
export const COST_CLASSES = ['free', 'metered'] as const;
export type CostClass = (typeof COST_CLASSES)[number];

/** What a handler returns: the structured value (checked against `output` when given) and optional text. */
export interface ToolOutput<O = unknown> {
  value: O;
  /** Human/model-readable rendering; defaults to pretty JSON of `value`. */
  text?: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  /** Short display title. */
  title: string;
  /** One line for people: what it does (the README's tool table). */
  summary: string;
  /** Written for the model: what it does, when to use it, when not to. */
  description: string;
  input: I;
  /** When present, results carry `structuredContent` that validates against it. */
  output?: O;
  side_effects: SideEffects;
  cost_class: CostClass;
  requires_secret: boolean;
  hints: string[];
  /**
   * MCP annotations that differ from the ones side_effects implies (annotationsFor), for a tool the class
   * describes only roughly: e.g. a `none` tool that still persists records is not read-only.
   */
  annotations?: Partial<Omit<ToolAnnotations, 'title'>>;
  handler(input: z.infer<I>, ctx: ToolContext): Promise<ToolOutput<z.infer<O>>>;
}

/** Identity with inference: lets a tool file declare its definition with full typing of input and output. */
export function defineTool<I extends z.ZodObject, O extends z.ZodType = z.ZodType>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

// The registry holds tools of many input/output types; handlers are only called through invokeTool.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;
