/** The ordered preset registry. `general_task` is the default when no preset is named. */
import type { Preset } from '../src/catalog/preset.js';
import { data_analyst } from './data_analyst.js';
import { general_task } from './general_task.js';
import { growth_hacker } from './growth_hacker.js';
import { planner_executor } from './planner_executor.js';
import { rag_data_engineer } from './rag_data_engineer.js';
import { rust_backend_architect } from './rust_backend_architect.js';
import { security_auditor } from './security_auditor.js';

export const DEFAULT_PRESET = 'general_task';

export const PRESETS: readonly Preset[] = Object.freeze([
  general_task,
  rag_data_engineer,
  rust_backend_architect,
  security_auditor,
  data_analyst,
  growth_hacker,
  planner_executor,
]);

export const PRESET_NAMES = PRESETS.map((p) => p.name) as [string, ...string[]];

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
