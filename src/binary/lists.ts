// Lists and records made without an allocation site (issue 17: docs/benchmarks.md, the fourth
// session). V8 gives each object and array literal a site, and may switch a site for good to
// allocating in the old generation; a copy of an empty one has no site and is always made young.

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

const ONE: object[] = [{}];
const TWO: object[] = [{}, {}];
const THREE: object[] = [{}, {}, {}];

/** A new list of one object, made by copying (see objectList), not by a literal. */
export function objects1<T extends object>(a: T): T[] {
  const l = ONE.slice() as T[];
  l[0] = a;
  return l;
}

/** A new list of two objects, made by copying (see objectList), not by a literal. */
export function objects2<T extends object>(a: T, b: T): T[] {
  const l = TWO.slice() as T[];
  l[0] = a;
  l[1] = b;
  return l;
}

/** A new list of three objects, made by copying (see objectList), not by a literal. */
export function objects3<T extends object>(a: T, b: T, c: T): T[] {
  const l = THREE.slice() as T[];
  l[0] = a;
  l[1] = b;
  l[2] = c;
  return l;
}

const NUMBERS: number[] = [0];
NUMBERS.length = 0;

/** A new empty list for small integers, made by copying (see objectList), not by a literal. */
export function numberList(): number[] {
  return NUMBERS.slice();
}

/**
 * A constructor whose instances have Object.prototype (no class prototype between), for records
 * that must not come from a literal's allocation site (see objectList) yet must be, to
 * deepStrictEqual, JSON and spreads, the literal they replace: `init` sets the literal's fields in
 * its order. Typed by the caller.
 */
export function plainConstructor<A extends unknown[]>(
  init: (this: Record<string, unknown>, ...a: A) => void,
): new (...a: A) => Record<string, unknown> {
  init.prototype = Object.prototype;
  return init as unknown as new (...a: A) => Record<string, unknown>;
}
