import { z } from 'zod';
import { actionInputShape, checkAction, defineActions } from '../src/catalog/actions.js';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { daysBetween, todayUtc } from '../src/tenants/dates.js';
import { required } from '../src/tenants/fields.js';
import { describeOffset, WINDOW_AFTER_DAYS, WINDOW_BEFORE_DAYS, windowCheck } from '../src/tenants/launch.js';
import { TASK_CATEGORIES, TASK_STATUSES, TaskStore, type TaskRow } from '../src/tenants/tasks.js';
import { resolveTenant, tenantIdInput } from '../src/tenants/tenant.js';

const TIMELINE = 'omitted, with category "launch", it lays out the launch timeline instead of one task';

/** The fields each action reads (besides action and tenant_id): validation and field descriptions come from here. */
const SPEC = defineActions({
  selector: 'action',
  selectorDoc: 'What to do',
  fields: {
    label: { schema: z.string().trim().min(1).max(200), doc: 'A short task label' },
    description: { schema: z.string().trim().min(1).max(2000), doc: 'Details of the task (for a timeline: a note added to every task, e.g. the product name)' },
    category: { schema: z.enum(TASK_CATEGORIES), doc: `The task's category: one of ${TASK_CATEGORIES.join(', ')}` },
    due_date: { schema: z.iso.date('a real calendar date as YYYY-MM-DD'), doc: 'The due date as YYYY-MM-DD, ISO 8601 (for a timeline: the launch date)' },
    task_id: { schema: z.string().trim().min(1).max(100), doc: 'The id of the task, from add_task or list_tasks' },
    status: { schema: z.enum(TASK_STATUSES), doc: `A task status: one of ${TASK_STATUSES.join(', ')}` },
  },
  actions: {
    // label is required for a single task; the handler checks it, since without it add_task means a timeline.
    add_task: { label: ['optional', TIMELINE], category: 'required', due_date: 'required', description: 'optional' },
    list_tasks: { category: ['optional', 'a filter'], status: ['optional', 'a filter'] },
    complete_task: { task_id: 'required' },
    check_overdue: { category: ['optional', 'a filter'] },
  },
});
const ACTIONS = Object.keys(SPEC.actions) as [keyof typeof SPEC.actions];

const task = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  category: z.enum(TASK_CATEGORIES),
  due_date: z.string(),
  status: z.enum(TASK_STATUSES),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  launch_date: z.string().nullable().describe('The launch this task belongs to, for tasks of a launch timeline'),
});

const output = z.object({
  action: z.enum(ACTIONS),
  tenant_id: z.string(),
  task: task.optional(),
  tasks: z.array(task).optional(),
  timeline: z
    .object({
      launch_date: z.string(),
      window_start: z.string(),
      window_end: z.string(),
      created: z.boolean().describe('false when this launch date was already laid out (nothing new was written)'),
    })
    .optional(),
  already_done: z.boolean().optional().describe('complete_task: true when the task was done before this call (nothing changed)'),
  today: z.string().optional().describe('check_overdue: the date (UTC) overdue is measured against'),
  overdue: z.array(task.extend({ days_overdue: z.number().int() })).optional(),
  flags: z.array(z.string()).describe('Warnings about dates: past due, or outside the launch window'),
});

type Output = z.infer<typeof output>;

function shown(row: TaskRow): z.infer<typeof task> {
  const { tenant: _tenant, seq: _seq, ...rest } = row;
  return rest;
}

function line(t: TaskRow): string {
  return `- ${t.due_date} [${t.category}] ${t.label} (${t.status}${t.completed_at ? ` ${t.completed_at.slice(0, 10)}` : ''}; id ${t.id})`;
}

/** Flags for a task due on `due`: already past, or outside the window of the tenant's nearest launch. */
function dateFlags(due: string, today: string, launches: readonly string[]): string[] {
  const flags: string[] = [];
  if (due < today) flags.push(`${due} is already past (today is ${today} UTC): the task is overdue from the start.`);
  if (launches.length) {
    const nearest = [...launches].sort((a, b) => Math.abs(daysBetween(a, due)) - Math.abs(daysBetween(b, due)) || a.localeCompare(b))[0]!;
    const { inside, offset } = windowCheck(due, nearest);
    if (!inside) {
      flags.push(
        `${due} is ${describeOffset(offset)} (launch ${nearest}), outside the standard window of ${WINDOW_BEFORE_DAYS} days before to ` +
          `${WINDOW_AFTER_DAYS} days after. Kept as asked; check the date.`,
      );
    }
  }
  return flags;
}

export const scheduler = defineTool({
  name: 'scheduler',
  title: 'Launch scheduler',
  summary: 'Per-tenant launch tasks, overdue checks, a −14…+30-day launch timeline',
  description:
    "Plans a tenant's launch campaign as dated tasks. Actions: `add_task` (label, category, due_date " +
    'YYYY-MM-DD, optional description); to lay out the standard launch timeline instead, call add_task with ' +
    'category "launch", the launch date as due_date and NO label: it creates the sequence from 14 days before ' +
    'launch to 30 days after (preparation, content, community, launch day, follow-up), once per launch date. ' +
    '`list_tasks` (optional category and status filters; ordered by due date), `complete_task` (task_id; a task ' +
    'already done stays as it is), `check_overdue` (open tasks past their due date, with days overdue, relative to ' +
    'today in UTC). Dates outside the launch window are accepted and flagged. Use it to plan and track launch work; ' +
    'not a calendar or reminder service (it sends no notifications).',
  input: z.object({ ...actionInputShape(SPEC), tenant_id: tenantIdInput }),
  output,
  side_effects: 'mutating',
  // Tasks live in the data directory and are only added or marked done, never removed.
  annotations: { destructiveHint: false, openWorldHint: false },
  cost_class: 'free',
  requires_secret: false,
  hints: ['Dates are calendar dates in UTC, YYYY-MM-DD.', 'Launch timeline: add_task with category "launch", due_date = launch date, and no label.'],
  async handler(input, ctx) {
    const tenant = resolveTenant(ctx, input.tenant_id);
    const args = checkAction(SPEC, input);
    const action = args.action;
    const tasks = await TaskStore.open(ctx.services);
    const today = todayUtc();
    const base = { action, tenant_id: tenant, flags: [] as string[] };

    switch (args.action) {
      case 'add_task': {
        if (args.label === undefined && args.category === 'launch') {
          const launch = args.due_date;
          await ctx.confirm({ kind: 'safe', summary: `Lay out the launch timeline for ${launch} (tenant "${tenant}")` });
          const { tasks: rows, created } = await tasks.addTimeline(tenant, launch, args.description);
          const flags: string[] = [];
          const past = rows.filter((r) => r.due_date < today).length;
          if (launch < today) flags.push(`The launch date ${launch} is already past (today is ${today} UTC).`);
          if (past) flags.push(`${past} of the ${rows.length} tasks are due before today and are overdue already.`);
          const timeline = {
            launch_date: launch,
            window_start: rows[0]!.due_date,
            window_end: rows.at(-1)!.due_date,
            created,
          };
          const value: Output = { ...base, tasks: rows.map(shown), timeline, flags };
          const head = created
            ? `Laid out the launch timeline for ${launch}: ${rows.length} tasks from ${timeline.window_start} to ${timeline.window_end}.`
            : `A launch timeline for ${launch} already exists (${rows.length} tasks); nothing new was written.`;
          return { value, text: [head, ...rows.map(line), ...flags].join('\n') };
        }
        const label = required(
          args.label,
          'label',
          action,
          'a short task label (or, to lay out a launch timeline, category "launch" with the launch date and no label)',
        );
        const { category, due_date: due } = args;
        const flags = dateFlags(due, today, await tasks.launchDates(tenant));
        await ctx.confirm({ kind: 'safe', summary: `Add task "${label}" due ${due} (tenant "${tenant}")` });
        const row = await tasks.add(tenant, { label, category, due_date: due, description: args.description });
        return { value: { ...base, task: shown(row), flags }, text: [`Added task "${row.label}" due ${row.due_date} (id ${row.id}).`, ...flags].join('\n') };
      }
      case 'list_tasks': {
        const rows = await tasks.list(tenant, { category: args.category, status: args.status });
        const filter = [args.category && `category ${args.category}`, args.status && `status ${args.status}`].filter(Boolean).join(', ');
        const text = rows.length
          ? `${rows.length} task${rows.length === 1 ? '' : 's'} for tenant "${tenant}"${filter ? ` (${filter})` : ''}:\n${rows.map(line).join('\n')}`
          : `No tasks for tenant "${tenant}"${filter ? ` with ${filter}` : ''}.`;
        return { value: { ...base, tasks: rows.map(shown) }, text };
      }
      case 'complete_task': {
        const taskId = args.task_id;
        await ctx.confirm({ kind: 'safe', summary: `Mark task ${taskId} done (tenant "${tenant}")` });
        const { task: row, alreadyDone } = await tasks.complete(tenant, taskId);
        const text = alreadyDone
          ? `Task "${row.label}" (${row.id}) was already done on ${row.completed_at}; nothing changed.`
          : `Completed task "${row.label}" (${row.id}).`;
        return { value: { ...base, task: shown(row), already_done: alreadyDone }, text };
      }
      case 'check_overdue': {
        const rows = await tasks.overdue(tenant, today, args.category);
        const value: Output = { ...base, today, overdue: rows.map((r) => ({ ...shown(r), days_overdue: r.days_overdue })) };
        const text = rows.length
          ? `${rows.length} overdue task${rows.length === 1 ? '' : 's'} (today is ${today} UTC):\n${rows
              .map((r) => `- ${r.label}: due ${r.due_date}, ${r.days_overdue} day${r.days_overdue === 1 ? '' : 's'} overdue (id ${r.id})`)
              .join('\n')}`
          : `No overdue tasks for tenant "${tenant}" (today is ${today} UTC).`;
        return { value, text };
      }
    }
    throw new ToolError(`Unknown action ${String(action)}.`, 'invalid_arguments', { field: 'action' });
  },
});
