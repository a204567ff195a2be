/**
 * The outbound module's public face, for code that fetches URLs (tools reach it as `ctx.services.outbound()`;
 * the CLI and the documentation index may construct an `Outbound` or call `fetchGuarded` directly).
 *
 * Fetching a URL someone supplied (documentation ingest, for instance):
 *
 *   const outbound = await services.outbound();
 *   const response = await outbound.fetch(url, {
 *     policy: publicPolicy('ingest', { allowHttp: true }),
 *     accept: ['text/html', 'text/markdown', 'text/plain'],
 *     maxBytes: 5 * 1024 * 1024,
 *   });
 *
 * Refusals and failures are `OutboundError`s (ToolErrors whose message names the rule that fired).
 */
export { Outbound, ServiceEndpoint, SERVICE_ENDPOINTS, type ServiceName } from './outbound.js';
export { fetchGuarded, type FetchOptions, type FetchedResponse, type GuardedFetchOptions, type NetworkOptions } from './fetch.js';
export { publicPolicy, checkCallerUrl, type DestinationPolicy, type Resolver } from './destination.js';
export { OutboundError, type OutboundFailure } from './errors.js';
