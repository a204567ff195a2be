/**
 * Scheduler tasks, one table for every tenant, every read and write filtered by tenant.
 *
 * A task is `open` until completed, then `done` for good. Completion is a conditional update inside the
 * table's exclusive section, so concurrent completions of one task complete it exactly once. A launch
 * timeline is inserted in one write: all of its tasks exist, or none.
 */
import { ToolError } from '../errors.js';
import type { Services } from '../services.js';
import type { RecordTable, TableSpec } from '../storage/store.js';
import { daysBetween } from './dates.js';
import { newId, nowIso, RECORD_ID } from './fields.js';
import { LAUNCH_SEQUENCE, stepDate } from './launch.js';
import { openTenantTable } from './maintenance.js';

export const TASK_CATEGORIES = ['prep', 'launch', 'post_launch', 'content', 'community'] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number];
export const TASK_STATUSES = ['open', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskRow {
  [column: string]: unknown;
  id: string;
  tenant: string;
  label: string;
  description: string | null;
  category: TaskCategory;
  due_date: string;
  status: TaskStatus;
  created_at: string;
  completed_at: string | null;
  /** Set on tasks laid out by a launch timeline: the launch they belong to. */
  launch_date: string | null;
  /** Position within one write (timeline order for tasks due the same day). */
  seq: number;
}

export const TASKS_TABLE: TableSpec = {
  name: 'scheduler_tasks',
  columns: {
    id: 'string',
    tenant: 'string',
    label: 'string',
    description: 'string',
    category: 'string',
    due_date: 'string',
    status: 'string',
    created_at: 'string',
    completed_at: 'string',
    launch_date: 'string',
    seq: 'number',
  },
};

/** Due date, then creation, then position: the order tasks are always listed in. */
export function byDueDate(a: TaskRow, b: TaskRow): number {
  return a.due_date.localeCompare(b.due_date) || a.created_at.localeCompare(b.created_at) || a.seq - b.seq || a.id.localeCompare(b.id);
}

export interface NewTask {
  label: string;
  description?: string;
  category: TaskCategory;
  due_date: string;
}

export function taskNotFound(taskId: string, tenant: string): ToolError {
  return new ToolError(`No task with id "${taskId}" for tenant "${tenant}". Call list_tasks to see the tenant's task ids. Nothing was changed.`, 'not_found', {
    field: 'task_id',
  });
}

export class TaskStore {
  private constructor(
    private readonly table: RecordTable<TaskRow>,
    private readonly wrote: () => void,
  ) {}

  static async open(services: Services): Promise<TaskStore> {
    const { table, wrote } = await openTenantTable<TaskRow>(services, TASKS_TABLE);
    return new TaskStore(table, wrote);
  }

  async add(tenant: string, task: NewTask, now = new Date()): Promise<TaskRow> {
    const row: TaskRow = {
      id: newId('task'),
      tenant,
      label: task.label.trim(),
      description: task.description?.trim() || null,
      category: task.category,
      due_date: task.due_date,
      status: 'open',
      created_at: nowIso(now),
      completed_at: null,
      launch_date: null,
      seq: 0,
    };
    await this.table.exclusive(() => this.table.insert([row]));
    this.wrote();
    return row;
  }

  /**
   * Lays out the standard launch sequence for `launchDate` in one write. When the tenant already has a
   * timeline for that date, returns it unchanged (`created: false`): asking twice never duplicates it.
   */
  async addTimeline(tenant: string, launchDate: string, note: string | undefined, now = new Date()): Promise<{ tasks: TaskRow[]; created: boolean }> {
    return this.table.exclusive(async () => {
      const existing = await this.table.find({ tenant, launch_date: launchDate });
      if (existing.length) return { tasks: existing.sort(byDueDate), created: false };
      const created_at = nowIso(now);
      const rows: TaskRow[] = LAUNCH_SEQUENCE.map((step, seq) => ({
        id: newId('task'),
        tenant,
        label: step.label,
        description: note ? `${step.description} (${note.trim()})` : step.description,
        category: step.category,
        due_date: stepDate(launchDate, step),
        status: 'open',
        created_at,
        completed_at: null,
        launch_date: launchDate,
        seq,
      }));
      await this.table.insert(rows);
      this.wrote();
      return { tasks: rows, created: true };
    });
  }

  /** Launch dates of the tenant's timelines, ascending. */
  async launchDates(tenant: string): Promise<string[]> {
    const rows = await this.table.find({ tenant, seq: 0 });
    return [...new Set(rows.map((r) => r.launch_date).filter((d): d is string => d !== null))].sort();
  }

  async list(tenant: string, filter: { category?: TaskCategory; status?: TaskStatus } = {}): Promise<TaskRow[]> {
    const rows = await this.table.find({
      tenant,
      ...(filter.category ? { category: filter.category } : {}),
      ...(filter.status ? { status: filter.status } : {}),
    });
    return rows.sort(byDueDate);
  }

  /** Completes an open task once. A task already done is returned with `alreadyDone` and left as it is. */
  async complete(tenant: string, taskId: string, now = new Date()): Promise<{ task: TaskRow; alreadyDone: boolean }> {
    if (!RECORD_ID.test(taskId)) throw taskNotFound(taskId, tenant);
    return this.table.exclusive(async () => {
      const [task] = await this.table.find({ tenant, id: taskId }, { limit: 1 });
      if (!task) throw taskNotFound(taskId, tenant);
      if (task.status === 'done') return { task, alreadyDone: true };
      const completed_at = nowIso(now);
      const matched = await this.table.update({ tenant, id: taskId, status: 'open' }, { status: 'done', completed_at });
      if (matched !== 1) throw new Error(`complete_task matched ${matched} rows for ${taskId}`);
      this.wrote();
      return { task: { ...task, status: 'done', completed_at }, alreadyDone: false };
    });
  }

  /** Open tasks due before `today`, most overdue first, with how many days overdue each is. */
  async overdue(tenant: string, today: string, category?: TaskCategory): Promise<(TaskRow & { days_overdue: number })[]> {
    const open = await this.list(tenant, { status: 'open', ...(category ? { category } : {}) });
    return open.filter((t) => t.due_date < today).map((t) => ({ ...t, days_overdue: daysBetween(t.due_date, today) }));
  }
}
