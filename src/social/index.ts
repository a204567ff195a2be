/** The adapter of each platform. Loaded lazily through `services.social()`. */
import type { PlatformAdapter } from './adapter.js';
import { discord } from './discord.js';
import { linkedin } from './linkedin.js';
import { mastodon } from './mastodon.js';
import type { Platform } from './platforms.js';
import { reddit } from './reddit.js';

export type { Delivered, PlatformAdapter, SendRequest, Setting } from './adapter.js';
export { SendFailure } from './http.js';

export const ADAPTERS: Readonly<Record<Platform, PlatformAdapter>> = {
  microblog: mastodon,
  professional_network: linkedin,
  chat_community: discord,
  launch_site: reddit,
};

export function adapterFor(platform: Platform): PlatformAdapter {
  return ADAPTERS[platform];
}
