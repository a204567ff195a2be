/**
 * Who may spawn what, and with which tools. A sub-agent never gets more than its parent: its tools are its
 * preset's, limited to what is registered and, when the parent is itself a sub-agent, to the parent's tools;
 * it cannot spawn beyond the depth limit, and a planner_executor never spawns another planner_executor.
 */
import { findPreset } from '../../presets/index.js';
import type { Preset } from '../catalog/preset.js';
import { ToolError } from '../errors.js';
import { SUB_AGENT_LIMITS } from './limits.js';

export interface Lineage {
  depth: number;
  preset?: string;
}

export const SPAWN_TOOL = 'spawn_sub_agent';

/** Throws a ToolError (code `depth_guard`) when a caller at `lineage` may not spawn a `preset` child. */
export function assertMaySpawn(lineage: Lineage, preset: string): void {
  if (lineage.depth >= SUB_AGENT_LIMITS.maxDepth) {
    throw new ToolError(
      `Refused: sub-agents nest at most ${SUB_AGENT_LIMITS.maxDepth} deep and this caller is already at depth ${lineage.depth}. ` +
        'Do this part of the task yourself with your own tools.',
      'depth_guard',
    );
  }
  if (preset === 'planner_executor' && lineage.preset === 'planner_executor') {
    throw new ToolError(
      'Refused: a planner_executor may not spawn another planner_executor (depth guard). Delegate the step to a ' +
        'sub-agent of another preset (e.g. general_task or data_analyst), or execute it yourself.',
      'depth_guard',
    );
  }
}

/** The tool names a child of `preset`, spawned by a caller at `parent`, may call. */
export function childToolNames(preset: Preset, parent: Lineage, isRegistered: (name: string) => boolean): string[] {
  const parentTools = parent.preset === undefined ? undefined : (findPreset(parent.preset)?.tools ?? []);
  const childDepth = parent.depth + 1;
  return preset.tools.filter(
    (name) =>
      isRegistered(name) &&
      (parentTools === undefined || parentTools.includes(name)) &&
      !(name === SPAWN_TOOL && childDepth >= SUB_AGENT_LIMITS.maxDepth),
  );
}
