// Lists made without an allocation site (issue 17: docs/benchmarks.md, the fourth session).

/** An empty array of objects (its elements' kind already "objects", so a push of one makes no
 * transition), never pushed to: objectList() copies it. */
const OBJECTS: object[] = [{}];
OBJECTS.length = 0;

/**
 * A new empty list for objects, made by copying, not by a literal. V8 gives each `[]` literal an
 * allocation site, and may switch a site for good to allocating in the old generation when its arrays
 * survived young collections during a batch's warm-up (docs/benchmarks.md, issue 17's fourth
 * session). An old list of young objects then keeps each program's instructions and constants alive
 * through the next young collections. A copy has no site and is always made young.
 */
export function objectList<T extends object>(): T[] {
  return OBJECTS.slice() as T[];
}
