/** The tools/list entry of a tool, derived from its definition (the manifest's input_schema is the same). */
import type { AnyTool } from '../catalog/definition.js';
import { annotationsOf, inputJsonSchema, outputJsonSchema } from '../catalog/schema.js';

export function describeTool(tool: AnyTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool),
    ...(tool.output ? { outputSchema: outputJsonSchema(tool) } : {}),
    annotations: annotationsOf(tool),
  };
}

export type ListedTool = ReturnType<typeof describeTool>;

/** The tools/list entry of every tool, in registry order (also what the build writes to the catalog). */
export function describeTools(tools: readonly AnyTool[]): ListedTool[] {
  return tools.map(describeTool);
}
