/**
 * The ordered tool registry: every tool docent serves, in the order tools/list and the manifest show them.
 * Adding a tool means adding its file and one line here; the server, manifest and REST surface follow.
 */
import type { AnyTool } from '../src/catalog/definition.js';
import { calculator } from './calculator.js';
import { datetime } from './datetime.js';
import { file_operations } from './file_operations.js';
import { pricing_manager } from './pricing_manager.js';
import { scheduler } from './scheduler.js';
import { social_poster } from './social_poster.js';

export const TOOLS: readonly AnyTool[] = Object.freeze([
  calculator,
  datetime,
  file_operations,
  pricing_manager,
  scheduler,
  social_poster,
]);

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
