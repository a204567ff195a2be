/**
 * The agent manifest published at /.well-known/agent-manifest.json, built from the same tool and preset
 * definitions the MCP server serves. `input_schema` is the very JSON Schema of tools/list.
 */
import { PRESETS } from '../../presets/index.js';
import { TOOLS } from '../../tools/index.js';
import { AGENT_MODE } from '../policy/agent-mode.js';
import { inputJsonSchema, type ObjectJsonSchema } from './schema.js';
import type { CostClass, SideEffects } from './definition.js';

/** Version of the manifest format (major.minor). Bump minor for additions, major for breaking changes. */
export const MANIFEST_SCHEMA_VERSION = '1.0';
export const MANIFEST_PATH = '/.well-known/agent-manifest.json';
export const PROVIDER = 'docent';

export interface AgentManifest {
  schema_version: string;
  provider: string;
  manifest_url: string;
  tools: {
    name: string;
    description: string;
    input_schema: ObjectJsonSchema;
    side_effects: SideEffects;
    cost_class: CostClass;
    requires_secret: boolean;
    hints: string[];
  }[];
  presets: { name: string; description: string }[];
  agent_mode: { header: string; user_agent_prefixes: string[]; env_vars_detected: string[]; auto_confirm_safe_ops: boolean };
}

export function buildManifest(baseUrl: string): AgentManifest {
  return {
    schema_version: MANIFEST_SCHEMA_VERSION,
    provider: PROVIDER,
    manifest_url: `${baseUrl.replace(/(?<!\/)\/+$/, '')}${MANIFEST_PATH}`,
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: inputJsonSchema(tool),
      side_effects: tool.side_effects,
      cost_class: tool.cost_class,
      requires_secret: tool.requires_secret,
      hints: [...tool.hints],
    })),
    presets: PRESETS.map((preset) => ({ name: preset.name, description: preset.description })),
    agent_mode: {
      header: AGENT_MODE.header,
      user_agent_prefixes: [...AGENT_MODE.user_agent_prefixes],
      env_vars_detected: [...AGENT_MODE.env_vars_detected],
      auto_confirm_safe_ops: AGENT_MODE.auto_confirm_safe_ops,
    },
  };
}
