// The D3DReflect-shaped JSON view of a reflection: exactly the keys, nesting, order and values of
// the oracle's reflect.json and the corpus's NAME.ms.json (shared/oracle/README.md, "reflect.json";
// shared/corpus/README.md, "NAME.ms.json"), so the two compare as parsed JSON. Enumerations are raw
// numbers, RequiresFlags a "0x%016x" string, default values hex bytes.

import { IridiaError } from '../errors.js';
import type { RdefType } from '../parts/rdef.js';
import type { ReflectedParameter, Reflection } from './reflection.js';

/** Type trees share records; the expanded JSON is refused beyond this many type nodes. */
export const MAX_EXPANDED_TYPES = 1_000_000;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The JSON object D3DReflect's harness writes for the same container. */
export function d3dReflectJson(refl: Reflection): { [key: string]: Json } {
  let budget = MAX_EXPANDED_TYPES;
  const typeJson = (t: RdefType, offset: number): { [key: string]: Json } => {
    if (--budget < 0) {
      throw new IridiaError('E206_PART_TOO_DEEP', `the type trees expand to more than ${MAX_EXPANDED_TYPES} nodes`, {
        part: 'RDEF',
        offset: t.offset,
      });
    }
    const o: { [key: string]: Json } = {
      Class: t.class,
      Type: t.type,
      Rows: t.rows,
      Columns: t.columns,
      Elements: t.elements,
      Members: t.members.length,
      Offset: offset,
      Name: t.name ?? null,
      MemberList: t.members.map((m) => ({ MemberName: m.name, Type: typeJson(m.type, m.offset) })),
    };
    if (t.subType) o['SubType'] = typeJson(t.subType, 0);
    if (t.baseClass) o['BaseClass'] = typeJson(t.baseClass, 0);
    o['NumInterfaces'] = t.interfaces.length;
    if (t.interfaces.length) o['Interfaces'] = t.interfaces.map((i) => typeJson(i, 0));
    return o;
  };
  const param = (p: ReflectedParameter): { [key: string]: Json } => ({
    SemanticName: p.semanticName,
    SemanticIndex: p.semanticIndex,
    Register: p.register,
    SystemValueType: p.systemValueType,
    ComponentType: p.componentType,
    Mask: p.mask,
    ReadWriteMask: p.readWriteMask,
    Stream: p.stream,
    MinPrecision: p.minPrecision,
  });
  const rdef = refl.rdef;
  const [x, y, z] = refl.threadGroupSize;
  return {
    Desc: { ...refl.desc },
    MovInstructionCount: refl.movInstructionCount,
    MovcInstructionCount: refl.movcInstructionCount,
    ConversionInstructionCount: refl.conversionInstructionCount,
    BitwiseInstructionCount: refl.bitwiseInstructionCount,
    GSInputPrimitive: refl.gsInputPrimitive,
    IsSampleFrequencyShader: refl.isSampleFrequencyShader,
    NumInterfaceSlots: refl.numInterfaceSlots,
    MinFeatureLevel: refl.minFeatureLevel,
    ThreadGroupSize: [x, y, z],
    ThreadGroupTotal: x * y * z,
    RequiresFlags: `0x${refl.requiresFlags.toString(16).padStart(16, '0')}`,
    ConstantBuffers: (rdef?.constantBuffers ?? []).map((cb) => ({
      Name: cb.name,
      Type: cb.type,
      Variables: cb.variables.length,
      Size: cb.size,
      uFlags: cb.flags,
      VariableList: cb.variables.map((v) => ({
        Name: v.name,
        StartOffset: v.startOffset,
        Size: v.size,
        uFlags: v.flags,
        DefaultValue: v.defaultValue ? hexBytes(v.defaultValue) : null,
        StartTexture: v.startTexture,
        TextureSize: v.textureSize,
        StartSampler: v.startSampler,
        SamplerSize: v.samplerSize,
        Type: typeJson(v.type, 0),
      })),
    })),
    BoundResources: (rdef?.bindings ?? []).map((b) => ({
      Name: b.name,
      Type: b.type,
      BindPoint: b.bindPoint,
      BindCount: b.bindCount,
      uFlags: b.flags,
      ReturnType: b.returnType,
      Dimension: b.dimension,
      NumSamples: b.numSamples,
      Space: b.space,
      uID: b.id ?? b.bindPoint,
    })),
    InputParameters: refl.inputs.map(param),
    OutputParameters: refl.outputs.map(param),
    PatchConstantParameters: refl.patchConstants.map(param),
  };
}
