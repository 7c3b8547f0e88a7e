// Pass: binding arrays to separate globals (see passes.ts).

import type { Module } from '../ir/ir.js';

export function expandBindingArrays(m: Module): Module {
  return m;
}
