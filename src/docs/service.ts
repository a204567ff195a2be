/**
 * Builds the process-wide DocService from the configuration: LanceDB chunk stores per tenant, and the
 * embedder when `DOCENT_EMBEDDINGS_BASE_URL` / `DOCENT_EMBEDDINGS_MODEL` are set. Loaded by
 * `services.docs()` on first use.
 */
import type { Config } from '../config.js';
import type { Logger } from '../logging.js';
import { openChunkStore } from '../storage/chunks.js';
import type { Store } from '../storage/store.js';
import { DocService, type DocIndexOptions } from './index.js';

export function embeddingsConfigured(config: Config): boolean {
  return Boolean(config.embeddings.baseUrl || config.embeddings.model);
}

export function createDocService(config: Config, logger: Logger, store: () => Promise<Store>, options: DocIndexOptions = {}): DocService {
  return new DocService(async (tenant) => openChunkStore(await store(), tenant), {
    logger: logger.child({ component: 'docs' }),
    ...(embeddingsConfigured(config) ? { embedder: () => import('../model/embeddings.js').then((m) => m.createEmbedder(config)) } : {}),
    ...options,
  });
}
