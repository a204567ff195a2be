/**
 * Tools with several actions (pricing_manager, scheduler, social_poster, file_operations) take one flat
 * argument object: the MCP schema is a plain object, so each action's fields are optional in it. Which fields
 * an action requires or accepts is declared once, in an ActionSpec, and everything else is generated from it:
 * the input schema's field descriptions (what the model reads) and the check a call passes before its
 * handler runs (a missing required field, or a field the action does not take, is refused, not ignored).
 */
import { z } from 'zod';
import { ToolError } from '../errors.js';

export type Need = 'required' | 'optional';
/** How an action uses a field: required or optional, with an optional note on what it means there. */
export type Use = Need | readonly [Need, string];

export interface ActionField {
  /** The field's type (not optional: optionality comes from the actions). */
  schema: z.ZodType;
  /** What the field holds, one sentence for the model, without a final full stop. */
  doc: string;
}

export interface ActionSpec<A extends string = string, F extends string = string> {
  /** The field that names the action, e.g. `action` or `operation`. */
  selector: string;
  /** What the selector means, for the model. */
  selectorDoc: string;
  fields: Record<F, ActionField>;
  /** Per action, the fields it reads (besides the selector and any common field such as tenant_id). */
  actions: Record<A, Partial<Record<F, Use>>>;
}

/** Declares a spec with its literal action and field names kept, so checkAction's result is typed per action. */
export function defineActions<const S extends ActionSpec>(spec: S): S {
  return spec;
}

type Actions<S extends ActionSpec> = keyof S['actions'] & string;
type FieldsOf<S extends ActionSpec, A extends Actions<S>> = keyof S['actions'][A] & keyof S['fields'] & string;
type RequiredOf<S extends ActionSpec, A extends Actions<S>> = {
  [F in FieldsOf<S, A>]: S['actions'][A][F] extends 'required' | readonly ['required', string] ? F : never;
}[FieldsOf<S, A>];
type ValueOf<S extends ActionSpec, F extends keyof S['fields']> = S['fields'][F] extends { schema: infer T extends z.ZodType } ? z.output<T> : never;

/** The arguments of one action: its required fields present, its optional fields possibly absent, no others. */
export type ArgsOf<S extends ActionSpec, A extends Actions<S>> = { readonly [K in S['selector']]: A } & {
  readonly [F in RequiredOf<S, A>]: ValueOf<S, F>;
} & { readonly [F in Exclude<FieldsOf<S, A>, RequiredOf<S, A>>]?: ValueOf<S, F> };

/** The checked arguments of any action of `S`: switch on the selector to narrow to one action's fields. */
export type ActionArgs<S extends ActionSpec> = { [A in Actions<S>]: ArgsOf<S, A> }[Actions<S>];

const needOf = (use: Use): Need => (typeof use === 'string' ? use : use[0]);
const noteOf = (use: Use): string | undefined => (typeof use === 'string' ? undefined : use[1]);

/** "Required by create_plan; optional for list_tasks (a filter)": a field's uses, as the model reads them. */
function usesOf(spec: ActionSpec, field: string): string {
  const uses = Object.entries(spec.actions).flatMap(([action, fields]) => {
    const use = (fields as Record<string, Use | undefined>)[field];
    if (use === undefined) return [];
    const note = noteOf(use);
    return [`${action} (${needOf(use)}${note ? `: ${note}` : ''})`];
  });
  return `For ${uses.join('; ')}.`;
}

/** The input schema's fields of the spec: the selector, and every field optional, described with its uses. */
export function actionInputShape<S extends ActionSpec>(spec: S) {
  const actions = Object.keys(spec.actions) as [Actions<S>, ...Actions<S>[]];
  const fields = Object.fromEntries(
    Object.entries(spec.fields as Record<string, ActionField>).map(([name, field]) => [
      name,
      field.schema.optional().describe(`${field.doc}. ${usesOf(spec, name)}`),
    ]),
  ) as { [F in keyof S['fields']]: z.ZodOptional<S['fields'][F]['schema']> };
  return { [spec.selector]: z.enum(actions).describe(spec.selectorDoc), ...fields } as {
    [K in S['selector']]: z.ZodEnum<{ [A in Actions<S>]: A }>;
  } & typeof fields;
}

const quoted = (names: readonly string[]) => names.map((f) => `\`${f}\``).join(', ');

/**
 * The arguments of the action `args` names, checked against the spec: a field the action does not take, or
 * a required one that is missing, is an `invalid_arguments` ToolError naming it. Fields outside
 * the spec (such as tenant_id) pass through untouched.
 */
export function checkAction<S extends ActionSpec>(spec: S, args: Record<string, unknown>): ActionArgs<S> {
  const action = args[spec.selector] as Actions<S>;
  const uses = spec.actions[action] as Record<string, Use | undefined>;
  const accepted = Object.keys(uses);
  const extra = Object.keys(spec.fields).filter((f) => args[f] !== undefined && uses[f] === undefined);
  if (extra.length) {
    throw new ToolError(
      `${quoted(extra)} ${extra.length === 1 ? 'does' : 'do'} not apply to ${action} ` +
        `(${accepted.length ? `it takes ${quoted(accepted)}` : 'it takes no other field'}). Remove ${extra.length === 1 ? 'it' : 'them'} and call again. Nothing was changed.`,
      'invalid_arguments',
      { field: extra[0] },
    );
  }
  for (const [field, use] of Object.entries(uses)) {
    const value = args[field];
    if (needOf(use!) === 'required' && value === undefined) {
      const doc = (spec.fields as Record<string, ActionField>)[field]!.doc;
      throw new ToolError(`\`${field}\` is required for ${action}: ${doc.charAt(0).toLowerCase()}${doc.slice(1)}. Nothing was changed.`, 'invalid_arguments', {
        field,
      });
    }
  }
  return args as ActionArgs<S>;
}
