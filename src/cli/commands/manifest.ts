import { buildManifest } from '../../catalog/manifest.js';
import { parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

/** The manifest's URLs come from --base-url, else from the listen address. */
const MANIFEST_FLAGS = ['base-url', 'host', 'port'];

export const command: Command = {
  configFlags: MANIFEST_FLAGS,
  summary: 'Print the agent manifest JSON',
  usage: 'Usage: docent manifest [--base-url URL]\n\nPrints the agent manifest (the same document served at /.well-known/agent-manifest.json).',
  async run(argv) {
    const parsed = parseCommand(argv, {}, MANIFEST_FLAGS);
    if (parsed.positionals.length) throw new UsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const config = parsed.config();
    process.stdout.write(`${JSON.stringify(buildManifest(config.baseUrl), null, 2)}\n`);
    return 0;
  },
};
