/**
 * Embeddings from any OpenAI-compatible endpoint (`DOCENT_EMBEDDINGS_BASE_URL`, `DOCENT_EMBEDDINGS_MODEL`),
 * via the `openai` package (src/model is the only place docent imports it). The documentation index loads
 * this module only when embeddings are configured.
 */
import OpenAI from 'openai';
import type { Config } from '../config.js';
import { ConfigError, ToolError } from '../errors.js';

export interface Embedder {
  readonly model: string;
  /** One vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Texts per request; endpoints cap batch sizes (OpenAI at 2048 inputs). */
const BATCH = 64;
/** Characters per text sent (embedding models cap input tokens; chunks are far below this). */
const MAX_INPUT_CHARS = 8000;

export function createEmbedder(config: Config): Embedder {
  const { baseUrl, model, apiKey } = config.embeddings;
  if (!model) throw new ConfigError('DOCENT_EMBEDDINGS_BASE_URL is set but DOCENT_EMBEDDINGS_MODEL is not: set it to the embedding model the endpoint serves.');
  const client = new OpenAI({ baseURL: baseUrl, apiKey: apiKey ?? 'unused', maxRetries: 2, timeout: 60_000 });
  return {
    model,
    async embed(texts, signal) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const input = texts.slice(i, i + BATCH).map((t) => t.slice(0, MAX_INPUT_CHARS) || ' ');
        let response;
        try {
          response = await client.embeddings.create({ model, input, encoding_format: 'float' }, { signal });
        } catch (error) {
          const status = (error as { status?: number }).status;
          throw new ToolError(
            `The embeddings endpoint ${baseUrl ?? 'https://api.openai.com/v1'} failed${status ? ` with HTTP ${status}` : ''}: ${(error as Error).message}. ` +
              'Check DOCENT_EMBEDDINGS_BASE_URL, DOCENT_EMBEDDINGS_MODEL and the API key, or unset them to search lexically.',
            'upstream_error',
          );
        }
        const data = [...response.data].sort((a, b) => a.index - b.index);
        if (data.length !== input.length) {
          throw new ToolError(`The embeddings endpoint returned ${data.length} vectors for ${input.length} inputs.`, 'upstream_error');
        }
        for (const d of data) {
          if (!Array.isArray(d.embedding)) throw new ToolError('The embeddings endpoint returned a vector that is not a list of numbers.', 'upstream_error');
          out.push(d.embedding);
        }
      }
      return out;
    },
  };
}
