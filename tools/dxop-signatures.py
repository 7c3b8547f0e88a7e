#!/usr/bin/env python3
# Writes src/dxil/dxop-signatures.ts, the dx.op signature table, from DirectXShaderCompiler's
# utils/hct/hctdb.py (its db_dxil database: each operation's oload_types and the llvm_type of its
# result and parameters). Usage, with a DirectXShaderCompiler checkout at DXC:
#
#   python3 tools/dxop-signatures.py DXC/utils/hct COMMIT > src/dxil/dxop-signatures.ts
#   npx prettier --write src/dxil/dxop-signatures.ts
#
# (hctdb.py reads hctdb_inst_docs.txt beside it.) The output is data only: the facts hctdb.py states.
import sys

sys.path.insert(0, sys.argv[1])
import hctdb  # noqa: E402

commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
db = hctdb.db_dxil()
print("// The dx.op signature table: for each DXIL operation (opcode), the overloads it allows and the")
print("// type of its result and of each parameter, as DirectXShaderCompiler's utils/hct/hctdb.py states")
print(f"// them (commit {commit[:8]}). Generated data, one row per opcode in opcode order, by")
print("// `python3 tools/dxop-signatures.py DXC/utils/hct COMMIT` (then prettier); do not edit by hand.")
print("//")
print("// A row is [opcode, overloads, types]. `overloads` is hctdb's oload_types: 'v' none (the function")
print("// is dx.op.<class>), else one character per scalar overload (h half, f float, d double, 1 i1, 8 i8,")
print("// w i16, i i32, l i64, u a user-defined struct, o an object struct), '<' then the component types")
print("// of the vector overloads allowed, ',' between the dimensions of an extended overload. `types` is")
print("// hctdb's llvm_type of the result then of each parameter after the opcode (an i32), space-separated:")
print("// v void; i1 i8 u8 i16 i32 u32 i64 u64 h f d (LLVM's scalar types; u is unsigned, the same type);")
print("// $o the overload; $o_i1 / $o_i32 i1 / i32 of the overload's shape (a vector of as many lanes);")
print("// $elt the vector overload's element; $r %dx.types.ResRet.<overload>; $cb %dx.types.CBufRet.<overload>;")
print("// $x0..$x3 the extended overload's dimensions ($x_gsN: a groupshared pointer to one); $udt, $obj the")
print("// overload struct (user-defined, object); $vec4 %dx.types.fouri32 / fouri16 of the overload;")
print("// $vec9 <9 x overload>; int2 <2 x i32>; pf32 float*; res %dx.types.Handle; dims %dx.types.Dimensions;")
print("// SamplePos, splitdouble, twoi32, fouri32, i32c, resbind, resproperty, nodehandle, noderecordhandle,")
print("// nodeproperty, noderecordproperty, hit_object: the %dx.types struct of that name (dxc's")
print("// DxilOperations.cpp names them).")
print("")
print("/** [opcode, hctdb's oload_types, result then parameter types (the opcode's i32 left out)]. */")
print("export type DxOpSignature = readonly [number, string, string];")
print("")
print("export const DX_OP_SIGNATURES: readonly DxOpSignature[] = [")
for i in db.get_dxil_ops():
    types = [o.llvm_type for o in i.ops]
    assert types[1] == "i32", i.name  # the opcode
    row = [types[0]] + types[2:]
    print(f"  [{i.dxil_opid}, '{i.oload_types}', '{' '.join(row)}'],")
print("];")
