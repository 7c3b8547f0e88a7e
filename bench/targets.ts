// Issue 17's targets as the bench files measure them: a file reports each target it measures as one
// `target:` line (name, figure, aim, met or not), and bench/run.ts prints them again together at the
// end of `npm run bench`, so the table in docs/benchmarks.md is copied from a command's output, not
// typed by hand.

/** The prefix of a target line (run.ts collects the lines that start with it). */
export const TARGET = 'target: ';

/** Reports one target: `target: NAME | FIGURE | AIM | met` (or `not met`). */
export function target(report: (line: string) => void, name: string, figure: string, aim: string, met: boolean): void {
  report(`${TARGET}${name} | ${figure} | ${aim} | ${met ? 'met' : 'not met'}`);
}
