/**
 * The ordered tool registry: every tool docent serves, in the order tools/list and the manifest show them.
 * Adding a tool means adding its file and one line here; the server, manifest and REST surface follow.
 */
import type { AnyTool } from '../src/catalog/definition.js';
import { analytics_fetcher } from './analytics_fetcher.js';
import { calculator } from './calculator.js';
import { chat_webhook } from './chat_webhook.js';
import { datetime } from './datetime.js';
import { encyclopedia } from './encyclopedia.js';
import { file_operations } from './file_operations.js';
import { preprint_search } from './preprint_search.js';
import { pricing_manager } from './pricing_manager.js';
import { rag_query } from './rag_query.js';
import { rss_feed } from './rss_feed.js';
import { scheduler } from './scheduler.js';
import { social_poster } from './social_poster.js';
import { spawn_sub_agent } from './spawn_sub_agent.js';
import { web_search } from './web_search.js';

export const TOOLS: readonly AnyTool[] = Object.freeze([
  calculator,
  datetime,
  file_operations,
  rag_query,
  pricing_manager,
  scheduler,
  social_poster,
  analytics_fetcher,
  preprint_search,
  encyclopedia,
  web_search,
  rss_feed,
  chat_webhook,
  spawn_sub_agent,
]);

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
