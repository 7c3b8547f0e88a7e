// The executor's budgets (docs/exec.md, "Budgets"): statements a batch may run, bytes of memory a run
// may allocate, lanes a run may dispatch. Each is checked before the work it bounds starts (memory
// before an allocation, lanes before a batch), and a run past one is an IridiaError E702_EXEC_BUDGET
// naming the budget and the option that sets it. A run is synchronous, so the budgets of the run in
// progress are module state, set by startRun as it starts.

import { IridiaError } from '../errors.js';

/** Statements one batch may execute (ExecBindings.budget). */
export const DEFAULT_STATEMENT_BUDGET = 1 << 24;
/** Bytes one batch (a thread group; a pixel or vertex run; a geometry run; a hull phase of a patch)
 * may hold in its locals, private and groupshared memory and constant-buffer copies, and bytes one
 * value may take (ExecBindings.memoryBudget): 1 GiB. */
export const DEFAULT_MEMORY_BUDGET = 1 << 30;
/** Lanes a run may dispatch in all (thread groups × threads, pixels, vertices, primitives × instances,
 * patches × control points or domain points; ExecBindings.dispatchBudget). */
export const DEFAULT_DISPATCH_BUDGET = 1 << 24;

export interface BudgetOptions {
  readonly budget?: number;
  readonly memoryBudget?: number;
  readonly dispatchBudget?: number;
}

let memoryLimit = DEFAULT_MEMORY_BUDGET;
let memoryUsed = 0;
let laneLimit = DEFAULT_DISPATCH_BUDGET;

export function budgetError(budget: 'statement' | 'memory' | 'dispatch', detail: string): IridiaError {
  const option = budget === 'statement' ? 'budget' : budget === 'memory' ? 'memoryBudget' : 'dispatchBudget';
  return new IridiaError('E702_EXEC_BUDGET', `${detail}: past the run's ${budget} budget (ExecBindings.${option})`);
}

/** Starts a run under the budgets of `b` (every run entry calls it first; runs are synchronous and do
 * not nest, so the budgets stay the last run's until the next starts). */
export function startRun(b: BudgetOptions): void {
  memoryLimit = b.memoryBudget ?? DEFAULT_MEMORY_BUDGET;
  laneLimit = b.dispatchBudget ?? DEFAULT_DISPATCH_BUDGET;
  memoryUsed = 0;
}

/** A new batch: what the previous one held is released. */
export function startBatch(): void {
  memoryUsed = 0;
}

/** Counts `words` of memory the run keeps (locals, globals, copies) against the memory budget. */
export function reserveWords(words: number, what: string): void {
  const bytes = words * 4;
  if (!(bytes >= 0 && memoryUsed + bytes <= memoryLimit))
    throw budgetError('memory', `${what} needs ${bytes} bytes with ${memoryUsed} already allocated of ${memoryLimit}`);
  memoryUsed += bytes;
}

/** One value of `words` words (lanes × components) fits the memory budget. */
export function checkValueWords(words: number): void {
  if (!(words * 4 <= memoryLimit)) throw budgetError('memory', `a value of ${words * 4} bytes`);
}

/** A run of `lanes` lanes fits the dispatch budget. */
export function checkLanes(lanes: number, what: string): void {
  if (!(Number.isSafeInteger(lanes) && lanes >= 0 && lanes <= laneLimit))
    throw budgetError('dispatch', `${what} is ${lanes} lanes, more than ${laneLimit}`);
}
