/**
 * The four social platforms social_poster knows, and the length limit of each. Lengths are counted in
 * Unicode code points (an emoji is one); a platform may count links differently, but a text within these
 * limits is never refused for its length.
 */
export const PLATFORMS = ['microblog', 'professional_network', 'chat_community', 'launch_site'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface PlatformLimit {
  maxChars: number;
  /** Where the limit comes from, said when it is exceeded. */
  why: string;
}

export const PLATFORM_LIMITS: Readonly<Record<Platform, PlatformLimit>> = {
  microblog: { maxChars: 280, why: 'the microblog limit (280, the strictest common microblog limit, so the text fits X and Mastodon alike)' },
  professional_network: { maxChars: 3000, why: "the professional network limit (3,000, LinkedIn's post commentary limit)" },
  chat_community: { maxChars: 2000, why: "the chat community limit (2,000, Discord's message limit)" },
  launch_site: { maxChars: 260, why: "the launch site limit (260, Product Hunt's description limit; also within Reddit's 300-character title limit)" },
};

export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
