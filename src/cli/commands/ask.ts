import { rag_query, renderQueryResult } from '../../../tools/rag_query.js';
import { invokeTool } from '../../catalog/invoke.js';
import { explainTrace, renderExplanation } from '../../docs/explain.js';
import type { QueryResult } from '../../docs/types.js';
import { createRuntime } from '../../runtime.js';
import { prepareDataDir } from '../../storage/data-dir.js';
import { LOCAL_FLAGS, parseCommand, UsageError } from '../args.js';
import type { Command } from '../main.js';

const USAGE = [
  'Usage: docent ask "<question>" [--library NAME] [--keywords "a, b"] [--tenant T] [--top-k N] [--json] [--explain]',
  '',
  "Answers from the tenant's documentation (the same path as the rag_query tool): the quoted passages, their",
  'sources and a confidence, or "no match" when the documentation does not answer.',
  '',
  '  --library NAME   search only this document set (see `docent docs list`); all sets by default',
  '  --keywords LIST  comma-separated terms the documentation would use for what is asked, searched beside',
  "                   the question (rag_query's `keywords`: what a calling agent passes), up to 12",
  '  --top-k N        sources to return, 1-20 (default 5)',
  '  --json           print the query result {grounded, answer?, sources, confidence, reason?}',
  '  --explain        also show why: the question as searched, how the documents were ranked, the evidence',
  '                   and its weight in the refusal decision, the confidence (with --json: an `explain` field)',
].join('\n');

const REWRITE_NOT_TRACED =
  'A configured model may also have searched its rewrite of the question for the answer above (DOCENT_QUERY_REWRITE=auto); the trace does not include it: set DOCENT_QUERY_REWRITE=off for an answer it describes exactly.';

export const command: Command = {
  summary: 'Ask the documentation a question',
  usage: USAGE,
  configFlags: LOCAL_FLAGS,
  async run(argv) {
    const parsed = parseCommand(
      argv,
      { json: { type: 'boolean' }, explain: { type: 'boolean' }, 'top-k': { type: 'string' }, library: { type: 'string' }, keywords: { type: 'string' } },
      LOCAL_FLAGS,
    );
    const question = parsed.positionals.join(' ').trim();
    if (!question) throw new UsageError('give the question as an argument, e.g. docent ask "How do I …?"');
    const topK = parsed.values['top-k'] === undefined ? undefined : Number(parsed.values['top-k']);
    const runtime = createRuntime(parsed.config());
    try {
      await prepareDataDir(runtime.config.dataDir);
      const library = parsed.values.library as string | undefined;
      const keywords = (parsed.values.keywords as string | undefined)
        ?.split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const args = {
        question,
        ...(topK === undefined ? {} : { top_k: topK }),
        ...(library === undefined ? {} : { library }),
        ...(keywords === undefined ? {} : { keywords }),
      };
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
      // The same question traced again, with the same keywords and without a model, read with the result given
      // above (a configured model may have written the answer, or declined, after the decision). A configured
      // model's rewrite of the question is not in the trace: the explanation says so.
      const index = parsed.values.explain ? await (await runtime.services.docs()).forTenant(runtime.config.tenant) : undefined;
      const rewritten = index !== undefined && runtime.config.docs.rewrite === 'auto' && (await runtime.services.model()).endpointConfigured;
      const explanation = index
        ? explainTrace(await index.trace(question, { topK, library, ...(keywords?.length ? { alternatives: keywords } : {}) }), {
            documents: topK ?? 5,
            result,
          })
        : undefined;
      if (parsed.values.json)
        process.stdout.write(
          `${JSON.stringify(explanation ? { ...result, explain: { ...explanation, ...(rewritten ? { rewrite_not_traced: true } : {}) } } : result, null, 2)}\n`,
        );
      else
        process.stdout.write(
          `${result.grounded ? renderQueryResult(result) : `No match in the documentation. ${result.reason ?? ''} (confidence ${Math.round(result.confidence * 100)}%)`.trim()}\n${explanation ? `\n${renderExplanation(explanation)}\n${rewritten ? `\n${REWRITE_NOT_TRACED}\n` : ''}` : ''}`,
        );
      return 0;
    } finally {
      await runtime.close();
    }
  },
};
