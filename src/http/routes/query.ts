/**
 * `POST /v1/query` `{ question, top_k?, library? }`: asks the key's tenant's documentation. The answer is the Query
 * result of DESIGN.md exactly (`{ grounded, answer?, sources, confidence, reason? }`), produced by the
 * rag_query tool through invokeTool: one query path for MCP, REST and this route, with the tool's own input
 * schema (question 1..2000 characters, top_k 1..20, default 5, library: one document set, all when absent).
 *
 * 200 with the result (a refusal, `grounded: false`, is a result too); 400 naming the field for bad input;
 * 404 `not_found` for a `library` the tenant does not have.
 */
import type { QueryRequest, QueryResult } from '../../client/types.js';
import { toolRegistry } from '../../mcp/catalog.js';
import { HttpError, type Route } from '../route.js';
import { invokeForRequest, statusForToolError } from './tools.js';

const FIELDS: readonly (keyof QueryRequest)[] = ['question', 'top_k', 'library'];

export const routes: Route[] = [
  {
    method: 'POST',
    path: '/v1/query',
    auth: 'key',
    body: 'json',
    async handle(ctx) {
      const body = ctx.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new HttpError(400, 'invalid_arguments', 'Send a JSON object { "question": "...", "top_k": 5 }.', { field: 'body' });
      }
      const unknown = Object.keys(body).filter((k) => !(FIELDS as readonly string[]).includes(k));
      if (unknown.length) {
        throw new HttpError(400, 'invalid_arguments', `Unknown field "${unknown[0]!.slice(0, 50)}"; accepted: ${FIELDS.join(', ')}.`, {
          field: unknown[0]!.slice(0, 50),
        });
      }
      const tool = (await toolRegistry()).findTool('rag_query');
      if (!tool) throw new Error('the rag_query tool is missing from the registry');
      const checked = tool.input.safeParse(body);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        const field = issue.path.map(String).join('.') || 'body';
        const missing = (body as Record<string, unknown>)[field] === undefined && issue.code === 'invalid_type';
        throw new HttpError(400, 'invalid_arguments', missing ? `"${field}" is required.` : `Invalid "${field}": ${issue.message}.`, { field });
      }

      const outcome = await invokeForRequest(ctx, tool, body);
      if (!outcome.ok) throw new HttpError(statusForToolError(outcome.code), outcome.code, outcome.message, outcome.details);
      return { status: 200, body: outcome.value as QueryResult };
    },
  },
];
