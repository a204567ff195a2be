/**
 * Bench section `rag`: ingest throughput (documents and chunks per second) and query latency (p50, p95) of
 * the documentation index at about 1k, 10k and 100k chunks, with each run's peak memory (RSS).
 *
 * Larger corpora are generated from the shared evaluation corpus (../shared/eval/corpus, else the test
 * fixtures): copy k of every document is filed under `copy-k/` and a fifth of its words get a `k` suffix,
 * so the vocabulary grows with the corpus as it would with real, different documents. Each size runs in
 * its own child process so that its peak RSS is its own. Lexical configuration (no embeddings).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const name = 'rag';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SIZES = [1_000, 10_000, 100_000];
const QUERIES = 60;

async function sourceCorpus(): Promise<{ dir: string; questions: string[] }> {
  const shared = path.resolve(ROOT, '..', 'shared', 'eval');
  if (existsSync(path.join(shared, 'corpus'))) {
    const questions = (await readFile(path.join(shared, 'questions.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { question: string }).question);
    return { dir: path.join(shared, 'corpus'), questions };
  }
  return {
    dir: path.join(ROOT, 'test', 'fixtures', 'docs'),
    questions: ['How do I install without dev dependencies?', 'What does nestedKey do?', 'How do I rotate log files?', 'Which Node.js versions are supported?'],
  };
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full, base)));
    else if (/\.(md|mdx|markdown|txt|rst|html?)$/i.test(entry.name) && entry.name !== 'SOURCES.md') out.push(path.relative(base, full));
  }
  return out.sort();
}

function vary(text: string, copy: number): string {
  if (copy === 0) return text;
  return text.replace(/\b[A-Za-z]{4,}\b/g, (word) => {
    let h = copy;
    for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) >>> 0;
    return h % 5 === 0 ? `${word}${copy}` : word;
  });
}

/** Worker: builds a corpus of about `target` chunks, ingests it, queries it; prints JSON. */
async function worker(target: number): Promise<void> {
  const { loadConfig } = await import('../../src/config.js');
  const { silentLogger } = await import('../../src/logging.js');
  const { Services } = await import('../../src/services.js');
  const source = await sourceCorpus();
  const files = await listFiles(source.dir);
  const texts = await Promise.all(files.map((f) => readFile(path.join(source.dir, f), 'utf8')));
  const root = await mkdtemp(path.join(os.tmpdir(), 'docent-bench-rag-'));
  try {
    const corpus = path.join(root, 'corpus');
    const services = new Services(loadConfig({ env: {}, overrides: { dataDir: path.join(root, 'data'), tenant: 'bench' } }), silentLogger());
    const index = await (await services.docs()).forTenant('bench');

    // Chunks per copy, measured on copy 0, decides how many copies reach the target.
    let written = 0;
    const writeCopy = async (k: number) => {
      for (let i = 0; i < files.length; i++) {
        const file = path.join(corpus, `copy-${k}`, files[i]!);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, vary(texts[i]!, k));
        written++;
      }
    };
    await writeCopy(0);
    const probe = await index.ingestPath([corpus]);
    const perCopy = Math.max(1, probe.chunks);
    const copies = Math.max(1, Math.round(target / perCopy));
    await rm(path.join(root, 'data'), { recursive: true, force: true });
    await services.close();

    for (let k = 1; k < copies; k++) await writeCopy(k);
    const fresh = new Services(loadConfig({ env: {}, overrides: { dataDir: path.join(root, 'data2'), tenant: 'bench' } }), silentLogger());
    const idx = await (await fresh.docs()).forTenant('bench');
    const started = performance.now();
    const summary = await idx.ingestPath([corpus]);
    const seconds = (performance.now() - started) / 1000;

    const questions = Array.from({ length: QUERIES }, (_, i) => source.questions[i % source.questions.length]!);
    await idx.query(questions[0]!); // first query loads corpus statistics
    const latencies: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      await idx.query(q);
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]! * 10) / 10;
    await fresh.close();
    process.stdout.write(
      JSON.stringify({
        documents: written,
        chunks: summary.chunks,
        ingest_seconds: Math.round(seconds * 100) / 100,
        docs_per_s: Math.round(written / seconds),
        chunks_per_s: Math.round(summary.chunks / seconds),
        query_p50_ms: pct(50),
        query_p95_ms: pct(95),
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      }),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const sizes = process.env.DOCENT_BENCH_RAG_SIZES ? process.env.DOCENT_BENCH_RAG_SIZES.split(',').map(Number) : SIZES;
  const out: Record<string, unknown> = {};
  for (const size of sizes) {
    const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--rag-worker', String(size)], {
      maxBuffer: 1 << 20,
      timeout: 30 * 60_000,
    });
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    out[label] = JSON.parse(stdout);
  }
  return out;
}

if (process.argv[2] === '--rag-worker' && process.argv[1] === fileURLToPath(import.meta.url)) {
  worker(Number(process.argv[3])).catch((error: unknown) => {
    process.stderr.write(`bench rag worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
