import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';

/** Significant digits of a quotient that does not terminate. */
export const QUOTIENT_PRECISION = 34;

// Wide enough that any quotient of two doubles that terminates is found to terminate.
const Exact = Decimal.clone({ precision: 2200, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 60 });
const Rounded = Exact.clone({ precision: QUOTIENT_PRECISION });

const output = z.object({
  operation: z.enum(['add', 'subtract', 'multiply', 'divide']),
  a: z.number(),
  b: z.number(),
  result: z.string().describe('The result as a decimal string (exact unless `exact` is false)'),
  result_number: z.number().optional().describe('The result as a JSON number, present only when that number is exactly the result'),
  exact: z.boolean(),
  precision: z.string().optional().describe('How the result was rounded, when it is not exact'),
});

export const calculator = defineTool({
  name: 'calculator',
  title: 'Exact calculator',
  summary: 'Exact decimal arithmetic on two numbers (0.1 + 0.2 = 0.3)',
  description:
    'Exact decimal arithmetic on two numbers: add, subtract, multiply or divide `a` by `b`. Results are decimal ' +
    'strings with no binary floating-point error (0.1 + 0.2 is exactly 0.3). Use it whenever a figure must be ' +
    'right to the last digit (money, counts, ratios). A quotient that does not terminate is rounded to ' +
    `${QUOTIENT_PRECISION} significant digits and marked inexact. Not for expressions, unit conversion or symbolic ` +
    'math: break those into single operations.',
  input: z.object({
    operation: z.enum(['add', 'subtract', 'multiply', 'divide']).describe('The operation to apply'),
    a: z.number().describe('First operand'),
    b: z.number().describe('Second operand'),
  }),
  output,
  side_effects: 'none',
  cost_class: 'free',
  requires_secret: false,
  hints: ['Operands are JSON numbers; each is taken at its shortest decimal spelling (0.1 is exactly 0.1).'],
  async handler({ operation, a, b }) {
    const x = new Exact(a);
    const y = new Exact(b);
    let result: Decimal;
    let exact = true;
    switch (operation) {
      case 'add':
        result = x.plus(y);
        break;
      case 'subtract':
        result = x.minus(y);
        break;
      case 'multiply':
        result = x.times(y);
        break;
      case 'divide': {
        if (y.isZero()) throw new ToolError('Division by zero is undefined. Use a non-zero `b`.', 'invalid_arguments');
        result = x.dividedBy(y);
        if (!result.times(y).equals(x)) {
          exact = false;
          result = new Rounded(a).dividedBy(b);
        }
        break;
      }
    }
    const text = result.toString();
    const asNumber = result.toNumber();
    const value: z.infer<typeof output> = { operation, a, b, result: text, exact };
    if (exact && Number.isFinite(asNumber) && new Exact(asNumber).equals(result)) value.result_number = asNumber;
    if (!exact) value.precision = `${QUOTIENT_PRECISION} significant digits, rounded half to even (the quotient does not terminate)`;
    const symbol = { add: '+', subtract: '-', multiply: '×', divide: '÷' }[operation];
    return {
      value,
      text: `${a} ${symbol} ${b} = ${text}${exact ? '' : ` (rounded to ${QUOTIENT_PRECISION} significant digits; the exact quotient does not terminate)`}`,
    };
  },
});
