/** API key records (stored hashed in LanceDB by src/auth/keys.ts). The secret itself is never stored. */
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface ApiKeyRecord {
  /** Public identifier, safe to log and show (`keys list`, `keys revoke <id>`). */
  id: string;
  tenant: string;
  plan: Plan;
  label: string | null;
  /** Hash of the secret key (never the key itself). */
  hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}
