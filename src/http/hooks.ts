/**
 * Checks that run on every authenticated request: routes whose `auth` is `key` (with auth `none` too, where
 * the caller has no `keyId`), after the caller is known and before the body is read or the handler runs.
 * This is where per-key plan limits are enforced. A check refuses by throwing an HttpError (e.g. 429 with a
 * `retry-after` header); it may set response headers on `ctx.res` (e.g. remaining quota).
 *
 * The list is ordered; checks run one after another. Register a check with one line below.
 */
import type { Runtime } from '../runtime.js';
import { planLimitsCheck } from './limits.js';
import type { Route, RouteContext } from './route.js';

export type CheckContext = Omit<RouteContext, 'body'> & { route: Route };

export interface AuthenticatedCheck {
  name: string;
  check(ctx: CheckContext): Promise<void>;
  /** Flushes or releases what the check holds for this runtime; called once on shutdown. */
  close?(runtime: Runtime): Promise<void>;
}

export const AUTHENTICATED_CHECKS: readonly AuthenticatedCheck[] = [planLimitsCheck()];
