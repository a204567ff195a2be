import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { LAUNCH_SEQUENCE } from '../../src/tenants/launch.js';
import { call, dayFromToday, harnessOn, sharedDataDir } from './helpers.js';

let data: Awaited<ReturnType<typeof sharedDataDir>>;
let h: Harness;
const T = { tenant_id: 'acme' };
type Task = { id: string; label: string; due_date: string; status: string; category: string; completed_at: string | null; launch_date: string | null };

beforeAll(async () => {
  data = await sharedDataDir();
  h = await harnessOn(data.dir);
});
afterAll(async () => {
  await h.close();
  await data.remove();
});

describe('scheduler tasks', () => {
  it('adds tasks and lists them by due date, then creation, with category and status filters', async () => {
    const later = await call(h, 'scheduler', {
      ...T,
      action: 'add_task',
      label: 'Write docs',
      category: 'content',
      due_date: dayFromToday(10),
      description: 'Getting started guide',
    });
    expect(later.isError).toBe(false);
    expect(later.value.task).toMatchObject({
      label: 'Write docs',
      category: 'content',
      status: 'open',
      completed_at: null,
      description: 'Getting started guide',
    });
    expect(later.value.task.id).toMatch(/^task_[0-9a-f]{24}$/);
    await call(h, 'scheduler', { ...T, action: 'add_task', label: 'Book venue', category: 'prep', due_date: dayFromToday(2) });
    await call(h, 'scheduler', { ...T, action: 'add_task', label: 'Draft thread', category: 'content', due_date: dayFromToday(2) });

    const all = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks' });
    expect(all.value.tasks.map((t) => t.label)).toEqual(['Book venue', 'Draft thread', 'Write docs']);
    const content = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks', category: 'content' });
    expect(content.value.tasks.map((t) => t.label)).toEqual(['Draft thread', 'Write docs']);
  });

  it('completes a task once; completing it again is a no-op that says so', async () => {
    const { value } = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks' });
    const id = value.tasks[0]!.id;
    const first = await call(h, 'scheduler', { ...T, action: 'complete_task', task_id: id });
    expect(first.isError).toBe(false);
    expect(first.value.already_done).toBe(false);
    expect(first.value.task.status).toBe('done');
    const completedAt = first.value.task.completed_at;
    expect(completedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const second = await call(h, 'scheduler', { ...T, action: 'complete_task', task_id: id });
    expect(second.isError).toBe(false);
    expect(second.value.already_done).toBe(true);
    expect(second.value.task.completed_at).toBe(completedAt);
    expect(second.text).toMatch(/already done/);

    const done = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks', status: 'done' });
    expect(done.value.tasks.map((t) => t.id)).toEqual([id]);
    const open = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks', status: 'open' });
    expect(open.value.tasks.map((t) => t.label)).toEqual(['Draft thread', 'Write docs']);
  });

  it('completes a task exactly once under concurrent complete_task calls', async () => {
    const added = await call(h, 'scheduler', { tenant_id: 'race', action: 'add_task', label: 'Once', category: 'prep', due_date: dayFromToday(1) });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => call(h, 'scheduler', { tenant_id: 'race', action: 'complete_task', task_id: added.value.task.id })),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(results.filter((r) => r.value.already_done === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.value.task.completed_at)).size).toBe(1);
  });

  it('keeps every one of 100 parallel add_task calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(h, 'scheduler', { tenant_id: 'bulk', action: 'add_task', label: `Task ${i}`, category: 'community', due_date: dayFromToday(i % 7) }),
      ),
    );
    expect(results.filter((r) => r.isError)).toEqual([]);
    const list = await call<{ tasks: Task[] }>(h, 'scheduler', { tenant_id: 'bulk', action: 'list_tasks' });
    expect(list.value.tasks).toHaveLength(100);
    expect(new Set(list.value.tasks.map((t) => t.label)).size).toBe(100);
  });

  it.each([
    [{ action: 'add_task', label: 'x', category: 'marketing', due_date: '2030-01-01' }, /`category`/],
    [{ action: 'add_task', label: 'x', category: 'prep', due_date: '2030-02-30' }, /`due_date`/],
    [{ action: 'add_task', label: 'x', category: 'prep', due_date: '2030-13-01' }, /`due_date`/],
    [{ action: 'add_task', label: 'x', category: 'prep', due_date: '01/02/2030' }, /`due_date`/],
    [{ action: 'add_task', label: 'x', category: 'prep', due_date: '2030-01-01T10:00:00Z' }, /`due_date`/],
    [{ action: 'add_task', label: 'x', category: 'prep' }, /`due_date` is required for add_task/],
    [{ action: 'add_task', label: 'x', due_date: '2030-01-01' }, /`category` is required for add_task/],
    [{ action: 'add_task', category: 'prep', due_date: '2030-01-01' }, /`label` is required for add_task/],
    [{ action: 'add_task', label: 'x', category: 'prep', due_date: '2030-01-01', task_id: 'task_1' }, /`task_id` does not apply to add_task/],
    [{ action: 'complete_task' }, /`task_id` is required for complete_task/],
    [{ action: 'complete_task', task_id: 'task_000000000000000000000000' }, /No task with id "task_000000000000000000000000"/],
    [{ action: 'complete_task', task_id: "' OR 1=1 --" }, /No task with id/],
    [{ action: 'list_tasks', status: 'closed' }, /`status`/],
  ])('refuses %j naming the field, writing nothing', async (args, message) => {
    const before = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks' });
    const r = await call(h, 'scheduler', { ...T, ...args });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
    const after = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks' });
    expect(after.value.tasks).toEqual(before.value.tasks);
  });
});

describe('scheduler launch timeline', () => {
  const launch = dayFromToday(20);

  it('lays out the standard sequence from 14 days before to 30 days after launch, once per launch date', async () => {
    const r = await call<{ tasks: Task[]; timeline: Record<string, unknown>; flags: string[] }>(h, 'scheduler', {
      tenant_id: 'launchco',
      action: 'add_task',
      category: 'launch',
      due_date: launch,
      description: 'docent 1.0',
    });
    expect(r.isError).toBe(false);
    expect(r.value.timeline).toEqual({ launch_date: launch, window_start: dayFromToday(6), window_end: dayFromToday(50), created: true });
    expect(r.value.tasks).toHaveLength(LAUNCH_SEQUENCE.length);
    expect(r.value.tasks.map((t) => [t.due_date, t.category, t.label])).toEqual(LAUNCH_SEQUENCE.map((s) => [dayFromToday(20 + s.offset), s.category, s.label]));
    expect(r.value.tasks.every((t) => t.launch_date === launch && t.status === 'open')).toBe(true);
    expect(r.value.flags).toEqual([]);
    expect(new Set(r.value.tasks.map((t) => t.category))).toEqual(new Set(['prep', 'launch', 'post_launch', 'content', 'community']));

    const again = await call(h, 'scheduler', { tenant_id: 'launchco', action: 'add_task', category: 'launch', due_date: launch });
    expect(again.value.timeline.created).toBe(false);
    const list = await call<{ tasks: Task[] }>(h, 'scheduler', { tenant_id: 'launchco', action: 'list_tasks' });
    expect(list.value.tasks).toHaveLength(LAUNCH_SEQUENCE.length);
    // Same-day tasks keep the sequence's order.
    expect(list.value.tasks.filter((t) => t.due_date === launch).map((t) => t.label)).toEqual(['Launch', 'Answer launch-day comments']);
  });

  it('accepts tasks outside the launch window but flags them; tasks inside are not flagged', async () => {
    const inside = await call(h, 'scheduler', { tenant_id: 'launchco', action: 'add_task', label: 'Podcast', category: 'content', due_date: dayFromToday(25) });
    expect(inside.value.flags).toEqual([]);
    const outside = await call(h, 'scheduler', {
      tenant_id: 'launchco',
      action: 'add_task',
      label: 'Conference talk',
      category: 'community',
      due_date: dayFromToday(60),
    });
    expect(outside.isError).toBe(false);
    expect(outside.value.flags).toEqual([
      expect.stringMatching(new RegExp(`40 days after launch \\(launch ${launch}\\), outside the standard window of 14 days before to 30 days after`)),
    ]);
    const past = await call(h, 'scheduler', { tenant_id: 'launchco', action: 'add_task', label: 'Old', category: 'prep', due_date: dayFromToday(-1) });
    expect(past.value.flags).toEqual([expect.stringMatching(/already past/), expect.stringMatching(/21 days before launch/)]);
  });

  it('needs the launch date for a timeline', async () => {
    const r = await call(h, 'scheduler', { tenant_id: 'launchco', action: 'add_task', category: 'launch' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/`due_date` is required for add_task: the due date as YYYY-MM-DD, ISO 8601 \(for a timeline: the launch date\)/);
  });
});

describe('scheduler check_overdue', () => {
  it('lists open tasks past due with days overdue relative to today (UTC), most overdue first', async () => {
    const tenant = { tenant_id: 'late' };
    await call(h, 'scheduler', { ...tenant, action: 'add_task', category: 'launch', due_date: dayFromToday(-20) });
    const r = await call<{ today: string; overdue: (Task & { days_overdue: number })[] }>(h, 'scheduler', { ...tenant, action: 'check_overdue' });
    expect(r.value.today).toBe(dayFromToday(0));
    const expected = LAUNCH_SEQUENCE.filter((s) => s.offset < 20).map((s) => [s.label, 20 - s.offset]);
    expect(r.value.overdue.map((t) => [t.label, t.days_overdue])).toEqual(expected);

    const first = r.value.overdue[0]!;
    await call(h, 'scheduler', { ...tenant, action: 'complete_task', task_id: first.id });
    const after = await call<{ overdue: Task[] }>(h, 'scheduler', { ...tenant, action: 'check_overdue', category: 'prep' });
    expect(first.label).toBe('Set launch goals');
    expect(after.value.overdue.map((t) => t.label)).toEqual(['Prepare launch assets', 'Prepare launch-site listings', 'Final launch checks']);
  });
});

describe('scheduler durability', () => {
  it('keeps tasks and completions across a restart', async () => {
    await h.close();
    h = await harnessOn(data.dir);
    const list = await call<{ tasks: Task[] }>(h, 'scheduler', { ...T, action: 'list_tasks' });
    expect(list.value.tasks.map((t) => [t.label, t.status])).toEqual([
      ['Book venue', 'done'],
      ['Draft thread', 'open'],
      ['Write docs', 'open'],
    ]);
    const bulk = await call<{ tasks: Task[] }>(h, 'scheduler', { tenant_id: 'bulk', action: 'list_tasks' });
    expect(bulk.value.tasks).toHaveLength(100);
  });
});

describe('overdue arithmetic with an injected clock', () => {
  it('counts whole UTC days across month and leap-year boundaries', async () => {
    const { TaskStore } = await import('../../src/tenants/tasks.js');
    const tasks = await TaskStore.open(h.services);
    const tenant = 'clock';
    for (const [label, due] of [
      ['a', '2028-02-28'],
      ['b', '2028-02-29'],
      ['c', '2028-03-01'],
      ['d', '2027-12-31'],
    ] as const) {
      await tasks.add(tenant, { label, category: 'prep', due_date: due }, new Date('2028-01-01T00:00:00Z'));
    }
    const overdue = await tasks.overdue(tenant, '2028-03-01');
    expect(overdue.map((t) => [t.label, t.days_overdue])).toEqual([
      ['d', 61],
      ['a', 2],
      ['b', 1],
    ]);
    expect(await tasks.overdue(tenant, '2027-12-31')).toEqual([]);
  });
});
