/**
 * Incoming-webhook URLs for chat_webhook. The URL is a credential (its path is the secret), so it is
 * checked strictly and only ever shown redacted.
 *
 * A webhook URL is accepted only when it is written exactly as the chat platform issues it:
 * `https://<configured host>/services/<segments>`, no user name or password, no port other than the
 * configured one, no query or fragment, no case, percent-encoding, trailing-dot, backslash, IDN or
 * full-width spelling variants (the raw string must already be in canonical form). Look-alike hosts
 * (`hooks.slack.com.evil.test`, `hooks-slack.com`) and subdomains (`x.hooks.slack.com`) differ from the
 * configured host and are refused. The destination guard then still checks the address it resolves to.
 */
import { ToolError } from '../errors.js';
import type { DestinationPolicy } from './destination.js';

const WEBHOOK_PATH = /^\/services(\/[A-Za-z0-9_-]{1,128}){1,4}$/;

export interface WebhookTarget {
  url: URL;
  /** Safe to show and log: `https://hooks.slack.com/services/[redacted]`. */
  redacted: string;
  policy: DestinationPolicy;
}

const refuse = (reason: string, host: string, rule: string) =>
  new ToolError(`refused: ${reason}. chat_webhook posts only to incoming-webhook URLs of the form https://${host}/services/...`, 'refused', { rule });

/** Validates a webhook URL against the configured host; errors never repeat the URL's path. */
export function checkWebhookUrl(raw: string, configuredHost: string): WebhookTarget {
  const host = configuredHost.toLowerCase().replace(/:443$/, '');
  const port = Number(/:(\d+)$/.exec(host)?.[1] ?? 443);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('the webhook URL is not a valid absolute URL', host, 'invalid_url');
  }
  if (url.protocol !== 'https:') throw refuse(`the ${url.protocol.replace(/:$/, '')} scheme is not allowed, only https`, host, 'scheme');
  if (url.username || url.password) throw refuse('webhook URLs with a user name or password are not allowed', host, 'userinfo');
  if (url.hostname.replace(/\.$/, '') !== host.replace(/:\d+$/, '')) {
    throw refuse(`${url.hostname} is not the chat webhook host ${host.replace(/:\d+$/, '')}`, host, 'host');
  }
  if (url.host !== host) throw refuse(`port ${url.port || 443} is not allowed`, host, 'port');
  const expectedPrefix = `https://${host}/`;
  if (!raw.startsWith(expectedPrefix) || raw !== `https://${host}${url.pathname}`) {
    throw refuse(
      'the webhook URL must be written exactly as the platform issued it (no case, encoding, trailing-dot, query or fragment variants)',
      host,
      'spelling',
    );
  }
  if (!WEBHOOK_PATH.test(url.pathname)) throw refuse('the path is not an incoming-webhook path (/services/...)', host, 'path');
  return {
    url,
    redacted: `https://${host}/services/[redacted]`,
    policy: {
      label: 'chat_webhook',
      schemes: ['https:'],
      ports: [port],
      rule: `chat_webhook posts only to ${host} on a public IPv4 address`,
    },
  };
}
