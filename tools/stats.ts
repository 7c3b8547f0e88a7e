// The figures the A/B tools (ab-lift, ab-listing, ab-read, pretenure) take of repeated timings.

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
