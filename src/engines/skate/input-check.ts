// The input-layout check of ../shared/spec/skate-bindings.md ("Input layouts"): each vertex input
// of a program's signature is matched to an element of the layout, in the spec's three ways: by
// name/index and width, by name/index with the shader reading wider than the stored format (Direct3D
// fills the missing components), and, among what is left, by elimination and width. An element
// carries no semantic name, only a usage byte whose decode is not established: the name of a usage
// is the caller's (`usageNames`); without it no element has a name and only elimination matches.
// System values (SV_VertexID, SV_InstanceID, ...) do not come from a vertex buffer and are skipped.

import type { SignatureElement } from '../../parts/signature.js';
import { vertexFormat } from './dxgi.js';
import { elementFormat, type InputLayout } from './input-layout.js';

export type InputMatch =
  | 'name/index and width'
  | 'name/index, read wider than format'
  | 'name/index, read narrower than format'
  | 'elimination and width';

export interface CheckedInput {
  readonly input: SignatureElement;
  /** The signature's width: the highest component of its mask, plus one. */
  readonly width: number;
  /** The matched element's index in the layout, or null (unmapped). */
  readonly element: number | null;
  readonly match: InputMatch | null;
}

export interface InputCheck {
  readonly inputs: readonly CheckedInput[];
  /** Layout elements no input took. */
  readonly unusedElements: readonly number[];
  readonly counts: {
    readonly inputs: number;
    readonly nameAndWidth: number;
    readonly eliminationAndWidth: number;
    readonly nameWider: number;
    readonly nameNarrower: number;
    readonly unmapped: number;
  };
}

export function maskWidth(mask: number): number {
  return 32 - Math.clz32(mask & 0xf);
}

/** The element's width: its DXGI format's component count (0 for a format no vertex element has). */
export function elementWidth(layout: InputLayout, i: number): number {
  return vertexFormat(elementFormat(layout.elements[i]!))?.components ?? 0;
}

export function checkInputLayout(
  layout: InputLayout,
  signature: readonly SignatureElement[],
  usageNames: ReadonlyMap<number, string> = new Map(),
): InputCheck {
  const inputs = signature.filter((e) => e.systemValue === 0);
  const taken = new Set<number>();
  const result: { input: SignatureElement; width: number; element: number | null; match: InputMatch | null }[] =
    inputs.map((input) => ({ input, width: maskWidth(input.mask), element: null, match: null }));
  for (const r of result) {
    const name = r.input.semanticName.toUpperCase();
    const i = layout.elements.findIndex(
      (e, k) =>
        !taken.has(k) && e.semanticIndex === r.input.semanticIndex && usageNames.get(e.usage)?.toUpperCase() === name,
    );
    if (i < 0) continue;
    const w = elementWidth(layout, i);
    r.element = i;
    r.match =
      w === r.width
        ? 'name/index and width'
        : r.width > w
          ? 'name/index, read wider than format'
          : 'name/index, read narrower than format';
    taken.add(i);
  }
  // Elimination: among what the names left over, a width that exactly one input and exactly one
  // element have pairs them (whatever the order of the signature or the layout).
  const leftInputs = result.filter((r) => r.element === null);
  const leftElements = layout.elements.map((_, k) => k).filter((k) => !taken.has(k));
  for (const r of leftInputs) {
    const inputs = leftInputs.filter((x) => x.width === r.width);
    const elements = leftElements.filter((k) => elementWidth(layout, k) === r.width);
    if (inputs.length !== 1 || elements.length !== 1) continue;
    r.element = elements[0]!;
    r.match = 'elimination and width';
    taken.add(r.element);
  }
  const count = (m: InputMatch | null): number => result.filter((r) => r.match === m).length;
  return {
    inputs: result,
    unusedElements: layout.elements.map((_, k) => k).filter((k) => !taken.has(k)),
    counts: {
      inputs: result.length,
      nameAndWidth: count('name/index and width'),
      eliminationAndWidth: count('elimination and width'),
      nameWider: count('name/index, read wider than format'),
      nameNarrower: count('name/index, read narrower than format'),
      unmapped: count(null),
    },
  };
}
