// One entry for every kind of program iridia disassembles: a DXBC container with a Shader Model
// 4/5/5.1 program (disassemble), a bare Direct3D 9 program (version token's high word 0xFFFE
// vertex / 0xFFFF pixel: src/d3d9's disassembleD3D9), a bare fx_5_0 effect (0xFEFF2001), a DXIL
// container (src/dxil's disassembleDxil, which takes no flag word), and a root-signature container
// (RTS0 and no program: its root signature as DirectX Shader Compiler's printRootSignature writes
// it, rts0.ts).

import { hasContainerMagic, parseContainer } from '../container/container.js';
import { isD3D9Program } from '../d3d9/decode.js';
import { disassembleD3D9 } from '../d3d9/disasm.js';
import { disassembleDxil } from '../dxil/disassemble.js';
import { IridiaError } from '../errors.js';
import { disassemble, type DisassembleOptions } from './disassemble.js';
import { isBareEffect } from './effect.js';
import { readRts0 } from '../dxil/rts0.js';
import { rootSignatureText } from './rts0.js';

/** Disassembles a container or a bare Direct3D 9 program as Microsoft's D3DDisassemble does. */
export function disassembleAny(bytes: Uint8Array, flags = 0, options: DisassembleOptions = {}): string {
  if (hasContainerMagic(bytes)) {
    const c = parseContainer(bytes);
    if (c.parts.some((p) => p.kind === 'DXIL') && !c.parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR'))
      return disassembleDxil(c);
    const rts0 = c.parts.find((p) => p.kind === 'RTS0');
    if (rts0 && !c.parts.some((p) => p.kind === 'SHEX' || p.kind === 'SHDR' || p.kind === 'DXIL' || p.kind === 'ILDB'))
      return rootSignatureText(readRts0(rts0.data, rts0.offset + 8));
    return disassemble(c, flags, options);
  }
  if (isD3D9Program(bytes)) return disassembleD3D9(bytes, flags);
  if (isBareEffect(bytes)) return disassemble(bytes, flags, options);
  throw new IridiaError('E102_BAD_MAGIC', 'neither a DXBC container, a Direct3D 9 program nor an fx_5_0 effect', {
    offset: 0,
  });
}
