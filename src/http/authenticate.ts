/**
 * Who is calling: the tenant and plan of the API key in `Authorization: Bearer <key>`, or (auth `none`,
 * loopback only) the configured tenant. Agent mode comes from the request's own headers.
 * A missing, malformed, unknown or revoked key is a 401 carrying `WWW-Authenticate: Bearer`.
 */
import type { IncomingMessage } from 'node:http';
import { apiKeys } from '../auth/keys.js';
import { isAgentRequest } from '../policy/agent-mode.js';
import type { Runtime } from '../runtime.js';
import { HttpError, type Caller } from './route.js';

const CREATE_HINT = 'Create a key with `docent keys create --tenant <tenant>` and send it as "Authorization: Bearer <key>".';

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) {
    throw new HttpError(401, 'invalid_authorization', `The Authorization header must read "Bearer <key>". ${CREATE_HINT}`, undefined, {
      'www-authenticate': 'Bearer realm="docent", error="invalid_request"',
    });
  }
  return match[1];
}

export async function authenticate(runtime: Runtime, req: IncomingMessage): Promise<Caller> {
  const agentMode = isAgentRequest(req.headers);
  if (runtime.config.http.auth === 'none') return { tenant: runtime.config.tenant, agentMode };
  const key = bearer(req);
  if (key === undefined) {
    throw new HttpError(401, 'missing_api_key', `This route needs an API key. ${CREATE_HINT}`, undefined, {
      'www-authenticate': 'Bearer realm="docent"',
    });
  }
  const record = await (await apiKeys(runtime.services)).verify(key);
  if (!record) {
    throw new HttpError(401, 'invalid_api_key', `The API key is not valid (unknown, mistyped or revoked). ${CREATE_HINT}`, undefined, {
      'www-authenticate': 'Bearer realm="docent", error="invalid_token"',
    });
  }
  return { tenant: record.tenant, keyId: record.id, plan: record.plan, agentMode };
}
