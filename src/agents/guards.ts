/**
 * Who may spawn what, and with which tools. A sub-agent never gets more than its parent: its tools are its
 * preset's, limited to what is registered and, when the parent is itself a sub-agent, to the parent's tools;
 * it cannot spawn beyond the depth cap (a child's child is refused), and a planner_executor never spawns another planner_executor.
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

/** Agent level of a caller: the agent calling docent directly is 1, its sub-agent 2. */
export function agentLevel(lineage: Lineage): number {
  return lineage.depth + 1;
}

/** Whether a caller at `lineage` may spawn at all (its child would still be within the depth cap). */
export function maySpawnAt(lineage: Lineage): boolean {
  return agentLevel(lineage) + 1 <= SUB_AGENT_LIMITS.maxDepth;
}

/** Throws a ToolError (code `depth_guard`) when a caller at `lineage` may not spawn a `preset` child. */
export function assertMaySpawn(lineage: Lineage, preset: string): void {
  if (preset === 'planner_executor' && lineage.preset === 'planner_executor') {
    throw new ToolError(
      'Refused: a planner_executor may not spawn another planner_executor (depth guard). Delegate the step to a ' +
        'sub-agent of another preset (e.g. general_task or data_analyst), or execute it yourself.',
      'depth_guard',
    );
  }
  if (!maySpawnAt(lineage)) {
    throw new ToolError(
      `Refused: spawning is capped at depth ${SUB_AGENT_LIMITS.maxDepth} (the calling agent is depth 1, its sub-agent depth 2), ` +
        'so a sub-agent cannot spawn sub-agents of its own. Do this part of the task yourself with your own tools.',
      'depth_guard',
    );
  }
}

/** The tool names a child of `preset`, spawned by a caller at `parent`, may call. */
export function childToolNames(preset: Preset, parent: Lineage, isRegistered: (name: string) => boolean): string[] {
  const parentTools = parent.preset === undefined ? undefined : (findPreset(parent.preset)?.tools ?? []);
  const child: Lineage = { depth: parent.depth + 1, preset: preset.name };
  return preset.tools.filter(
    (name) => isRegistered(name) && (parentTools === undefined || parentTools.includes(name)) && !(name === SPAWN_TOOL && !maySpawnAt(child)),
  );
}
