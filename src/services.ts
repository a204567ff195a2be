/**
 * Lazily loaded heavy parts, shared by every tool call of one server process. Each accessor imports its
 * module on first use, so a server that only lists tools never loads LanceDB or `openai`.
 */
import type { Config } from './config.js';
import type { Logger } from './logging.js';
import { ConfirmationLedger } from './policy/confirmation.js';
import type { Store } from './storage/store.js';
import type { Outbound } from './net/outbound.js';
import type { ModelAccess } from './model/index.js';

export class Services {
  private storePromise?: Promise<Store>;
  private outboundPromise?: Promise<Outbound>;
  private socialPromise?: Promise<typeof import('./social/index.js')>;
  private modelPromise?: Promise<ModelAccess>;
  readonly confirmations: ConfirmationLedger;

  constructor(readonly config: Config, readonly logger: Logger) {
    this.confirmations = new ConfirmationLedger(config.policy);
  }

  /** The LanceDB store in the data directory. */
  store(): Promise<Store> {
    this.storePromise ??= import('./storage/store.js').then((m) => m.openStore(this.config.dataDir, this.logger));
    this.storePromise.catch(() => (this.storePromise = undefined));
    return this.storePromise;
  }

  /** Chat models (src/model): `(await services.model()).resolve(ctx.client).complete({...})`. */
  model(): Promise<ModelAccess> {
    this.modelPromise ??= import('./model/index.js').then((m) => new m.ModelAccess(this.config, this.logger));
    return this.modelPromise;
  }

  /** Social platform adapters (src/social), for social_poster. */
  social(): Promise<typeof import('./social/index.js')> {
    this.socialPromise ??= import('./social/index.js');
    return this.socialPromise;
  }

  /** The outbound HTTP client (src/net): every request to the internet goes through its guard. */
  outbound(): Promise<Outbound> {
    this.outboundPromise ??= import('./net/outbound.js').then((m) => new m.Outbound(this.config, this.logger));
    return this.outboundPromise;
  }

  /** Replaces the outbound client; tests hand in one with a stand-in resolver and a test CA. */
  useOutbound(outbound: Outbound): void {
    this.outboundPromise = Promise.resolve(outbound);
  }

  private docsPromise?: Promise<import('./docs/index.js').DocService>;

  /** The documentation index (src/docs): `(await services.docs()).forTenant(tenant)` → DocIndex. */
  docs(): Promise<import('./docs/index.js').DocService> {
    this.docsPromise ??= import('./docs/service.js').then((m) => m.createDocService(this.config, this.logger, () => this.store()));
    this.docsPromise.catch(() => (this.docsPromise = undefined));
    return this.docsPromise;
  }

  async close(): Promise<void> {
    if (this.storePromise) await (await this.storePromise.catch(() => undefined))?.close();
  }
}
