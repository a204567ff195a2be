import { buildManifest } from '../../catalog/manifest.js';
import { parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

export const command: Command = {
  summary: 'Print the agent manifest JSON',
  usage: 'Usage: docent manifest [--base-url URL]\n\nPrints the agent manifest (the same document served at /.well-known/agent-manifest.json).',
  async run(argv) {
    const parsed = parseCommand(argv);
    if (parsed.positionals.length) throw new UsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const config = parsed.config();
    process.stdout.write(`${JSON.stringify(buildManifest(config.baseUrl), null, 2)}\n`);
    return 0;
  },
};
