/** Calendar dates (`YYYY-MM-DD`, UTC) and day arithmetic, without time zones getting in the way. */

const DAY_MS = 86_400_000;

/** Today's date in UTC. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function toDays(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** `date` plus `days` (negative to go back). */
export function addDays(date: string, days: number): string {
  return new Date((toDays(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return toDays(to) - toDays(from);
}
