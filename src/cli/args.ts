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

/** The configuration flags of commands that work on the local index (everything but serve and manifest). */
export const LOCAL_FLAGS = ['data-dir', 'tenant', 'log-level'] as const;

export interface ParsedCommand {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** Builds the frozen config from the environment and these flags (ConfigError when invalid). */
  config(overrides?: Record<string, unknown>): Config;
}

/**
 * Parses a command line: the command's own `options` plus the configuration flags it reads (`configFlags`,
 * all of them by default); any other flag is a UsageError.
 */
export function parseCommand(argv: string[], options: Options = {}, configFlags: readonly string[] = Object.keys(CONFIG_OPTIONS)): ParsedCommand {
  const accepted = Object.fromEntries(configFlags.map((name) => [name, CONFIG_OPTIONS[name]!]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...accepted, ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(readableParseError(error as Error & { code?: string }));
  }
  const values = parsed.values as ParsedCommand['values'];
  const positionals = parsed.positionals;
  const flags: Record<string, unknown> = {};
  for (const name of configFlags) if (values[name] !== undefined) flags[name] = values[name];
  return { values, positionals, config: (overrides) => loadConfig({ flags, overrides }) };
}

/**
 * node:util's messages, reworded: they quote with an unbalanced "'" and suggest `--` for positionals, which
 * reads as noise on a command line.
 */
function readableParseError(error: Error & { code?: string }): string {
  const flag = /option '([^' ]+)/i.exec(error.message)?.[1];
  if (!flag) return error.message;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(error.message)) return `option ${flag} needs a value`;
      // A value that starts with a dash reads as the next option.
      if (/argument is ambiguous/.test(error.message)) return `option ${flag} needs a value; one that starts with "-" is written ${flag}=VALUE`;
      return `option ${flag} takes no value`;
    default:
      return error.message;
  }
}

/** Help lines of the configuration flags `names` (all of them by default). */
export function configFlagsHelp(names?: readonly string[]): string {
  return SETTINGS.filter((s) => s.flag && (!names || names.includes(s.flag)))
    .map((s) => `  --${s.flag!.padEnd(14)} ${s.doc}${s.env ? ` [${s.env.join(', ')}]` : ''}`)
    .join('\n');
}
