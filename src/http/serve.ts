import { ConfigError } from '../errors.js';
import type { Runtime } from '../runtime.js';

// Placeholder until the HTTP surface lands (issue 2): refuses clearly rather than pretending to serve.
export async function serveHttp(_runtime: Runtime): Promise<void> {
  throw new ConfigError('docent serve --http is not available in this build yet; use stdio (docent serve).');
}
