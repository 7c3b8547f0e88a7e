// The RTS0 part, a serialized root signature (DxilRootSignature.h's DxilContainerRootSignatureDesc
// and friends): version (1 = 1.0, 2 = 1.1, 3 = 1.2), root parameters (descriptor tables with their
// ranges, 32-bit constants, root CBV/SRV/UAV descriptors), static samplers (52 bytes, 56 with the
// 1.2 flags) and flags. Offsets are from the start of the part.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

export interface RootDescriptorRange {
  readonly rangeType: number; // 0 SRV, 1 UAV, 2 CBV, 3 sampler
  readonly numDescriptors: number;
  readonly baseShaderRegister: number;
  readonly registerSpace: number;
  readonly flags: number;
  readonly offsetInDescriptorsFromTableStart: number;
}

export type RootParameter =
  | { readonly type: 'table'; readonly visibility: number; readonly ranges: readonly RootDescriptorRange[] }
  | {
      readonly type: 'constants';
      readonly visibility: number;
      readonly shaderRegister: number;
      readonly registerSpace: number;
      readonly num32BitValues: number;
    }
  | {
      readonly type: 'cbv' | 'srv' | 'uav';
      readonly visibility: number;
      readonly shaderRegister: number;
      readonly registerSpace: number;
      readonly flags: number;
    };

export interface StaticSampler {
  readonly filter: number;
  readonly addressU: number;
  readonly addressV: number;
  readonly addressW: number;
  readonly mipLODBias: number;
  readonly maxAnisotropy: number;
  readonly comparisonFunc: number;
  readonly borderColor: number;
  readonly minLOD: number;
  readonly maxLOD: number;
  readonly shaderRegister: number;
  readonly registerSpace: number;
  readonly visibility: number;
  readonly flags: number;
}

export interface RootSignature {
  /** 1 (1.0), 2 (1.1) or 3 (1.2). */
  readonly version: number;
  readonly versionText: string;
  readonly parameters: readonly RootParameter[];
  readonly staticSamplers: readonly StaticSampler[];
  readonly flags: number;
}

const PARAM_TYPES = ['table', 'constants', 'cbv', 'srv', 'uav'] as const;

export function readRts0(data: Uint8Array, base = 0): RootSignature {
  const r = new ByteReader(data, { base, where: 'RTS0', code: 'E201_PART_TRUNCATED' });
  const version = r.u32At(0, 'the version');
  if (version < 1 || version > 3)
    throw r.fail('E208_PART_UNSUPPORTED', `root signature version ${version} is not 1 (1.0), 2 (1.1) or 3 (1.2)`, 0);
  const numParams = r.u32At(4, 'the parameter count');
  const paramsAt = r.u32At(8, 'the parameter offset');
  const numSamplers = r.u32At(12, 'the static sampler count');
  const samplersAt = r.u32At(16, 'the static sampler offset');
  const flags = r.u32At(20, 'the flags');
  const fits = (at: number, n: number, size: number, what: string, field: number): void => {
    if (at > data.byteLength || n > Math.floor((data.byteLength - at) / size))
      throw r.fail('E203_PART_BAD_COUNT', `${n} ${what} of ${size} bytes at ${hex(at)} do not fit in the part`, field);
  };
  fits(paramsAt, numParams, 12, 'root parameters', 4);
  const parameters: RootParameter[] = [];
  for (let i = 0; i < numParams; i++) {
    const at = paramsAt + 12 * i;
    const t = r.u32At(at);
    const visibility = r.u32At(at + 4);
    const payload = r.u32At(at + 8);
    const type = PARAM_TYPES[t];
    if (!type) throw r.fail('E207_PART_BAD_VALUE', `root parameter ${i} has type ${t}`, at);
    if (type === 'table') {
      const n = r.u32At(payload, 'a descriptor table');
      const rangesAt = r.u32At(payload + 4, 'a descriptor table');
      const size = version === 1 ? 20 : 24;
      fits(rangesAt, n, size, 'descriptor ranges', payload);
      const ranges: RootDescriptorRange[] = [];
      for (let k = 0; k < n; k++) {
        const ra = rangesAt + size * k;
        ranges.push({
          rangeType: r.u32At(ra),
          numDescriptors: r.u32At(ra + 4),
          baseShaderRegister: r.u32At(ra + 8),
          registerSpace: r.u32At(ra + 12),
          flags: version === 1 ? 0 : r.u32At(ra + 16),
          offsetInDescriptorsFromTableStart: r.u32At(ra + size - 4),
        });
      }
      parameters.push({ type, visibility, ranges });
    } else if (type === 'constants') {
      parameters.push({
        type,
        visibility,
        shaderRegister: r.u32At(payload, 'root constants'),
        registerSpace: r.u32At(payload + 4, 'root constants'),
        num32BitValues: r.u32At(payload + 8, 'root constants'),
      });
    } else {
      parameters.push({
        type,
        visibility,
        shaderRegister: r.u32At(payload, 'a root descriptor'),
        registerSpace: r.u32At(payload + 4, 'a root descriptor'),
        flags: version === 1 ? 0 : r.u32At(payload + 8, 'a root descriptor'),
      });
    }
  }
  const ss = version === 3 ? 56 : 52;
  fits(samplersAt, numSamplers, ss, 'static samplers', 12);
  const staticSamplers: StaticSampler[] = [];
  for (let i = 0; i < numSamplers; i++) {
    const at = samplersAt + ss * i;
    staticSamplers.push({
      filter: r.u32At(at),
      addressU: r.u32At(at + 4),
      addressV: r.u32At(at + 8),
      addressW: r.u32At(at + 12),
      mipLODBias: r.f32At(at + 16),
      maxAnisotropy: r.u32At(at + 20),
      comparisonFunc: r.u32At(at + 24),
      borderColor: r.u32At(at + 28),
      minLOD: r.f32At(at + 32),
      maxLOD: r.f32At(at + 36),
      shaderRegister: r.u32At(at + 40),
      registerSpace: r.u32At(at + 44),
      visibility: r.u32At(at + 48),
      flags: version === 3 ? r.u32At(at + 52) : 0,
    });
  }
  return { version, versionText: ['', '1.0', '1.1', '1.2'][version]!, parameters, staticSamplers, flags };
}
