/**
 * Command-line parsing shared by every command: the configuration flags (from SETTINGS) plus the
 * command's own options, parsed strictly so a typo is an error rather than silently ignored.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, SETTINGS, type Config } from '../config.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

const BOOLEAN_FLAGS = new Set(['stateless']);

export const CONFIG_OPTIONS: Options = Object.fromEntries(
  SETTINGS.filter((s) => s.flag).map((s) => [s.flag!, { type: BOOLEAN_FLAGS.has(s.flag!) ? 'boolean' : 'string' }]),
);

export interface ParsedCommand {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** Builds the frozen config from the environment and these flags (ConfigError when invalid). */
  config(overrides?: Record<string, unknown>): Config;
}

export function parseCommand(argv: string[], options: Options = {}): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...CONFIG_OPTIONS, ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as ParsedCommand['values'];
  const positionals = parsed.positionals;
  const flags: Record<string, unknown> = {};
  for (const name of Object.keys(CONFIG_OPTIONS)) if (values[name] !== undefined) flags[name] = values[name];
  return { values, positionals, config: (overrides) => loadConfig({ flags, overrides }) };
}

export function configFlagsHelp(): string {
  return SETTINGS.filter((s) => s.flag)
    .map((s) => `  --${s.flag!.padEnd(14)} ${s.doc}${s.env ? ` [${s.env.join(', ')}]` : ''}`)
    .join('\n');
}
