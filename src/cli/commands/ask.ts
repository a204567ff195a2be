import { rag_query, renderQueryResult } from '../../../tools/rag_query.js';
import { invokeTool } from '../../catalog/invoke.js';
import { explainTrace, renderExplanation } from '../../docs/explain.js';
import type { QueryResult } from '../../docs/types.js';
import { createRuntime } from '../../runtime.js';
import { prepareDataDir } from '../../storage/data-dir.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent ask "<question>" [--library NAME] [--tenant T] [--top-k N] [--json] [--explain]',
  '',
  "Answers from the tenant's documentation (the same path as the rag_query tool): the quoted passages, their",
  'sources and a confidence, or "no match" when the documentation does not answer.',
  '',
  '  --library NAME   search only this document set (see `docent docs list`); all sets by default',
  '  --top-k N        sources to return, 1-20 (default 5)',
  '  --json           print the query result {grounded, answer?, sources, confidence, reason?}',
  '  --explain        also show why: the question as searched, how the documents were ranked, the evidence',
  '                   and its weight in the refusal decision, the confidence (with --json: an `explain` field)',
].join('\n');

export const command: Command = {
  summary: 'Ask the documentation a question',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(
      argv,
      { json: { type: 'boolean' }, explain: { type: 'boolean' }, 'top-k': { type: 'string' }, library: { type: 'string' } },
      LOCAL_FLAGS,
    );
    const question = parsed.positionals.join(' ').trim();
    if (!question) throw new UsageError('give the question as an argument, e.g. docent ask "How do I …?"');
    const topK = parsed.values['top-k'] === undefined ? undefined : Number(parsed.values['top-k']);
    const runtime = createRuntime(parsed.config());
    try {
      await prepareDataDir(runtime.config.dataDir);
      const library = parsed.values.library as string | undefined;
      const args = { question, ...(topK === undefined ? {} : { top_k: topK }), ...(library === undefined ? {} : { library }) };
      const outcome = await invokeTool(rag_query, args, {
        config: runtime.config,
        services: runtime.services,
        logger: runtime.logger,
        tenant: runtime.config.tenant,
        tenantBound: false,
        agentMode: false,
        transport: 'inproc',
      });
      if (!outcome.ok) {
        process.stderr.write(`docent ask: ${outcome.message}\n`);
        return outcome.code === 'invalid_arguments' ? 2 : 1;
      }
      const result = outcome.value as QueryResult;
      // The same question traced again without a model (retrieval and the decision do not depend on one),
      // read with the result given above (a configured model may have declined after the decision).
      const index = parsed.values.explain ? await (await runtime.services.docs()).forTenant(runtime.config.tenant) : undefined;
      const explanation = index ? explainTrace(await index.trace(question, { topK, library }), { documents: topK ?? 5, result }) : undefined;
      if (parsed.values.json) process.stdout.write(`${JSON.stringify(explanation ? { ...result, explain: explanation } : result, null, 2)}\n`);
      else
        process.stdout.write(
          `${result.grounded ? renderQueryResult(result) : `No match in the documentation. ${result.reason ?? ''} (confidence ${Math.round(result.confidence * 100)}%)`.trim()}\n${explanation ? `\n${renderExplanation(explanation)}\n` : ''}`,
        );
      return 0;
    } finally {
      await runtime.close();
    }
  },
};
