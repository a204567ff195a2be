#!/usr/bin/env node
/**
 * The `docent` command. Each subcommand lives in src/cli/commands/<name>.ts and is loaded only when run,
 * so `docent serve` starts without loading what ingest or ask need.
 */
import { ConfigError } from '../errors.js';
import { VERSION } from '../version.js';
import { configFlagsHelp, UsageError } from './args.js';

export interface Command {
  summary: string;
  usage: string;
  /** The configuration flags the command reads (parseCommand accepts only these); all of them when absent. */
  configFlags?: readonly string[];
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: () => import('./commands/serve.js').then((m) => m.command),
  manifest: () => import('./commands/manifest.js').then((m) => m.command),
  keys: () => import('./commands/keys.js').then((m) => m.command),
  ingest: () => import('./commands/ingest.js').then((m) => m.command),
  ask: () => import('./commands/ask.js').then((m) => m.command),
  docs: () => import('./commands/docs.js').then((m) => m.command),
};

const SUMMARIES: Record<string, string> = {
  serve: 'Serve MCP over stdio (default) or HTTP (--http)',
  manifest: 'Print the agent manifest JSON',
  keys: 'Create, list and revoke API keys for the HTTP API',
  ingest: 'Ingest documentation files, folders or URLs into the index',
  ask: 'Ask the documentation a question',
  docs: 'List or remove ingested documents',
};

function mainHelp(): string {
  const lines = Object.keys(COMMANDS).map((name) => `  ${name.padEnd(10)} ${SUMMARIES[name] ?? ''}`);
  return [
    `docent ${VERSION}: grounded documentation answers and an agent tool catalog, over MCP.`,
    '',
    'Usage: docent <command> [options]   (no command: serve over stdio)',
    '',
    'Commands:',
    ...lines,
    '',
    "Run `docent <command> --help` for a command's options.",
    '',
    'Configuration flags (every command; environment variables in brackets):',
    configFlagsHelp(),
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  // A reader that stops early (`docent ask … | head -c1`) closes the pipe: that ends the output, quietly.
  // (serve keeps its own stdout: there a closed pipe is the host going away, handled by the transport.)
  if (first !== 'serve' && first !== undefined && !first.startsWith('-')) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(mainHelp());
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`docent: unknown command "${name}". Run \`docent --help\` for the list.\n`);
    return 2;
  }
  const command = await load();
  try {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${command.usage}\n\nConfiguration flags:\n${configFlagsHelp(command.configFlags)}\n`);
      return 0;
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`docent ${name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`docent: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running on its own handles; other commands end here.
    if (code !== -1) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`docent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
