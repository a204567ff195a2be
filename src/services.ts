/**
 * Lazily loaded heavy parts, shared by every tool call of one server process. Each accessor imports its
 * module on first use, so a server that only lists tools never loads LanceDB or `openai`. A load that fails
 * is forgotten, so the next call tries again (e.g. after the operator fixes a setting).
 */
import { storageOptions, type Config } from './config.js';
import type { DocService } from './docs/index.js';
import type { Logger } from './logging.js';
import type { ModelAccess } from './model/index.js';
import type { Outbound } from './net/outbound.js';
import { ConfirmationLedger } from './policy/confirmation.js';
import { InProcessState, type SharedState } from './shared/state.js';
import type { Store } from './storage/store.js';

type SocialModule = typeof import('./social/index.js');

/** A value loaded once on first use; a failed load is retried on the next use. */
class Lazy<T> {
  private promise?: Promise<T>;
  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.promise) {
      const loading = this.load();
      this.promise = loading;
      loading.catch(() => {
        if (this.promise === loading) this.promise = undefined;
      });
    }
    return this.promise;
  }

  set(value: T): void {
    this.promise = Promise.resolve(value);
  }

  /** The value if it was loaded successfully; never starts a load. */
  async loaded(): Promise<T | undefined> {
    return this.promise?.catch(() => undefined);
  }
}

export class Services {
  readonly confirmations: ConfirmationLedger;
  private readonly sharedLazy = new Lazy<SharedState>(async () => {
    const url = this.config.redis.url;
    if (!url) return new InProcessState();
    const { RedisState } = await import('./shared/redis.js');
    return RedisState.connect(url, this.logger, { lockLeaseMs: this.config.redis.lockLeaseMs });
  });
  private readonly storeLazy = new Lazy<Store>(async () => {
    const [m, shared] = await Promise.all([import('./storage/store.js'), this.shared()]);
    return m.openStore(this.config.dataDir, this.logger, { storageOptions: storageOptions(this.config), locks: shared.locks });
  });
  private readonly docsLazy = new Lazy<DocService>(() =>
    import('./docs/service.js').then((m) => m.createDocService(this.config, this.logger, () => this.store())),
  );
  private readonly modelLazy = new Lazy<ModelAccess>(() => import('./model/index.js').then((m) => new m.ModelAccess(this.config, this.logger)));
  private readonly socialLazy = new Lazy<SocialModule>(() => import('./social/index.js'));
  private readonly outboundLazy = new Lazy<Outbound>(() => import('./net/outbound.js').then((m) => new m.Outbound(this.config, this.logger)));

  constructor(
    readonly config: Config,
    readonly logger: Logger,
  ) {
    this.confirmations = new ConfirmationLedger(config.policy, () => this.shared());
  }

  /** State shared by the replicas of a deployment: Redis with DOCENT_REDIS_URL, else this process's memory. */
  shared(): Promise<SharedState> {
    return this.sharedLazy.get();
  }

  /** The LanceDB store in the data directory. */
  store(): Promise<Store> {
    return this.storeLazy.get();
  }

  /** The documentation index (src/docs): `(await services.docs()).forTenant(tenant)` → DocIndex. */
  docs(): Promise<DocService> {
    return this.docsLazy.get();
  }

  /** Chat models (src/model): `(await services.model()).resolve(ctx.client).complete({...})`. */
  model(): Promise<ModelAccess> {
    return this.modelLazy.get();
  }

  /** Social platform adapters (src/social), for social_poster. */
  social(): Promise<SocialModule> {
    return this.socialLazy.get();
  }

  /** The outbound HTTP client (src/net): every request to the internet goes through its guard. */
  outbound(): Promise<Outbound> {
    return this.outboundLazy.get();
  }

  /** Replaces the outbound client; tests hand in one with a stand-in resolver and a test CA. */
  useOutbound(outbound: Outbound): void {
    this.outboundLazy.set(outbound);
  }

  async close(): Promise<void> {
    await (await this.storeLazy.loaded())?.close();
    await (await this.sharedLazy.loaded())?.close();
  }
}
