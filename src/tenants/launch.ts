/**
 * The standard launch sequence: what to do from 14 days before a launch to 30 days after it. Laid out by the
 * scheduler when asked for a launch timeline; the window also flags tasks dated far from any launch.
 */
import { addDays, daysBetween } from './dates.js';
import type { TaskCategory } from './tasks.js';

export const WINDOW_BEFORE_DAYS = 14;
export const WINDOW_AFTER_DAYS = 30;

export interface LaunchStep {
  /** Days relative to the launch date (negative: before). */
  offset: number;
  category: TaskCategory;
  label: string;
  description: string;
}

export const LAUNCH_SEQUENCE: readonly LaunchStep[] = [
  {
    offset: -14,
    category: 'prep',
    label: 'Set launch goals',
    description: 'Write down the launch goals and the metrics that will show whether they were met (sign-ups, active users, revenue).',
  },
  {
    offset: -12,
    category: 'content',
    label: 'Draft the launch announcement',
    description: 'Draft the announcement post and the short versions for each platform, grounded in the product documentation.',
  },
  { offset: -10, category: 'prep', label: 'Prepare launch assets', description: 'Screenshots, a short demo video, logo and a one-line tagline.' },
  {
    offset: -7,
    category: 'community',
    label: 'Preview for early users',
    description: 'Share a preview with early users and the community; collect testimonials and questions.',
  },
  {
    offset: -5,
    category: 'prep',
    label: 'Prepare launch-site listings',
    description: 'Create the listings on launch sites and line up people who will try the product on launch day.',
  },
  {
    offset: -3,
    category: 'content',
    label: 'Schedule launch-day posts',
    description: 'Create and schedule the social posts for launch day on every platform.',
  },
  {
    offset: -1,
    category: 'prep',
    label: 'Final launch checks',
    description: 'Check the landing page, sign-up flow, pricing page, docs and monitoring; freeze risky changes.',
  },
  { offset: 0, category: 'launch', label: 'Launch', description: 'Publish the launch on launch sites and post the announcement on every platform.' },
  {
    offset: 0,
    category: 'community',
    label: 'Answer launch-day comments',
    description: 'Reply to every comment and question on launch sites and social platforms during the day.',
  },
  { offset: 1, category: 'post_launch', label: 'Thank supporters', description: 'Thank supporters publicly and share the first results.' },
  {
    offset: 3,
    category: 'post_launch',
    label: 'Triage launch feedback',
    description: 'Collect the feedback and bug reports from launch and decide what to fix first.',
  },
  { offset: 7, category: 'content', label: 'Publish a launch recap', description: 'Post a recap with numbers and lessons learned.' },
  {
    offset: 14,
    category: 'post_launch',
    label: 'Review launch metrics',
    description: 'Compare the metrics with the launch goals; note what worked and what did not.',
  },
  {
    offset: 30,
    category: 'post_launch',
    label: '30-day launch retrospective',
    description: 'Retention after 30 days, the retrospective, and the plan for the next launch.',
  },
];

/** Whether `date` falls inside the standard window around `launch`, and by how much it misses when not. */
export function windowCheck(date: string, launch: string): { inside: boolean; offset: number } {
  const offset = daysBetween(launch, date);
  return { inside: offset >= -WINDOW_BEFORE_DAYS && offset <= WINDOW_AFTER_DAYS, offset };
}

export function describeOffset(offset: number): string {
  if (offset === 0) return 'on launch day';
  const n = Math.abs(offset);
  return `${n} day${n === 1 ? '' : 's'} ${offset < 0 ? 'before' : 'after'} launch`;
}

export function stepDate(launch: string, step: LaunchStep): string {
  return addDays(launch, step.offset);
}
