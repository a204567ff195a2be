import { createRuntime } from '../../runtime.js';
import { prepareDataDir } from '../../storage/data-dir.js';
import { parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

export const command: Command = {
  summary: 'Serve MCP over stdio (default) or HTTP (--http)',
  usage: [
    'Usage: docent serve                       MCP over stdio (what agent hosts launch)',
    '       docent serve --http [--host 127.0.0.1] [--port 8787] [--auth key|none] [--stateless]',
    '',
    'Over HTTP one process serves streamable HTTP MCP at /mcp, the manifest at /.well-known/agent-manifest.json,',
    'the REST API under /v1 and /healthz. Every route but the manifest and /healthz needs `Authorization: Bearer <key>`',
    '(create one with `docent keys create --tenant T`).',
    '',
    'Replicas: run `docent serve --http --stateless` on each, with the same --data-dir (e.g. s3://bucket/prefix)',
    'and DOCENT_REDIS_URL; see docs/deployment.md.',
  ].join('\n'),
  async run(argv) {
    const parsed = parseCommand(argv, { http: { type: 'boolean' } });
    if (parsed.positionals.length) throw new UsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const runtime = createRuntime(parsed.config());
    // A data directory that cannot be used stops the server now, not on its first tool call.
    await prepareDataDir(runtime.config.dataDir);
    if (parsed.values.http) {
      const { serveHttp } = await import('../../http/serve.js');
      await serveHttp(runtime);
    } else {
      const { serveStdio } = await import('../../mcp/stdio.js');
      await serveStdio(runtime);
    }
    return -1;
  },
};
