// Syntax highlighting for the inspector's listings: a small grammar of our own per language (the
// D3DDisassemble listing, dxc's LLVM listing, WGSL, HLSL, JSON), written as one regular expression of
// alternatives each. The output is HTML whose text is the input exactly (every character lands in
// one span or between spans, escaped), one `<span class="ln">` per line, so a <pre>'s textContent
// still equals the core's text byte for byte. Register tokens carry `data-r`, the register as the
// listing names it (r0, v1, o0, cb0, t0, s0, u0, x0), so that panes can light them up together.

export type Language = 'asm' | 'dxil' | 'wgsl' | 'hlsl' | 'json' | 'plain';

interface Grammar {
  /** Alternatives in order; the group that matches names the token class. */
  readonly pattern: RegExp;
  readonly classes: readonly string[];
}

const grammar = (parts: readonly (readonly [string, string])[]): Grammar => ({
  pattern: new RegExp(parts.map(([, re]) => `(${re})`).join('|'), 'gy'),
  classes: parts.map(([cls]) => cls),
});

const NUMBER = String.raw`[-+]?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[a-zA-Z]*`;

const GRAMMARS: Readonly<Record<Exclude<Language, 'plain'>, Grammar>> = {
  asm: grammar([
    ['com', String.raw`//.*|#line.*`],
    ['str', String.raw`"(?:[^"\\]|\\.)*"`],
    ['reg', String.raw`\b(?:icb|cb|r|v|o|x|t|s|u|l|g|m|fb|vicp|vocp|vpc)\d+\b`],
    [
      'sys',
      String.raw`\b(?:vThread\w*|vCoverage|vPrim|vOutputControlPointID|vForkInstanceID|vJoinInstanceID|vDomain|vGSInstanceID|vInnerCoverage|vCycleCounter|oDepth\w*|oMask|oStencilRef|null)\b`,
    ],
    ['kw', String.raw`^[ \t]*[a-z_][A-Za-z0-9_]*(?:\.[a-z0-9_]+)*`],
    ['num', `${NUMBER}\\b`],
  ]),
  dxil: grammar([
    ['com', ';.*'],
    ['str', String.raw`c?"(?:[^"\\]|\\.)*"`],
    ['reg', String.raw`%[\w.$-]+`],
    ['sys', String.raw`@[\w.$-]+|![\w.$-]+`],
    [
      'kw',
      String.raw`\b(?:define|declare|call|ret|br|switch|phi|select|load|store|alloca|getelementptr|extractvalue|insertvalue|icmp|fcmp|add|sub|mul|fadd|fsub|fmul|fdiv|udiv|sdiv|urem|srem|frem|shl|lshr|ashr|and|or|xor|zext|sext|trunc|fptrunc|fpext|fptoui|fptosi|uitofp|sitofp|bitcast|inttoptr|ptrtoint|addrspacecast|atomicrmw|cmpxchg|unreachable|label|type|target|attributes|nounwind|readnone|readonly|private|internal|external|constant|global|undef|null|true|false|to|align|inbounds|fast|nsz|nnan|ninf|arcp|nsw|nuw|exact)\b`,
    ],
    ['ty', String.raw`\b(?:void|half|float|double|i1|i8|i16|i32|i64|metadata)\b`],
    ['num', `${NUMBER}\\b`],
  ]),
  wgsl: grammar([
    ['com', '//.*'],
    ['reg', String.raw`\b(?:cb|r|t|s|u|x|g)\d+\b|\b[vo]\[\d+\]`],
    ['sys', String.raw`@\w+`],
    [
      'kw',
      String.raw`\b(?:fn|var|let|const|struct|return|if|else|loop|for|while|break|continue|continuing|switch|case|default|discard|override|alias|diagnostic|enable|requires|uniform|storage|workgroup|private|function|read|read_write|write)\b`,
    ],
    [
      'ty',
      String.raw`\b(?:bool|f16|f32|i32|u32|vec[234]|mat[234]x[234]|array|atomic|ptr|sampler|sampler_comparison|texture\w*)\b`,
    ],
    ['num', `${NUMBER}\\b`],
  ]),
  hlsl: grammar([
    ['com', String.raw`//.*|/\*.*?\*/|#\w+.*`],
    ['str', String.raw`"(?:[^"\\]|\\.)*"`],
    [
      'kw',
      String.raw`\b(?:cbuffer|tbuffer|struct|return|if|else|for|while|do|break|continue|switch|case|default|discard|register|packoffset|static|const|uniform|in|out|inout|groupshared|row_major|column_major|nointerpolation|linear|centroid|noperspective|sample|precise|true|false)\b`,
    ],
    [
      'ty',
      String.raw`\b(?:void|bool|half|float|double|int|uint|dword|min16float|min16int|min16uint)(?:[1-4](?:x[1-4])?)?\b|\b(?:Texture\w*|RWTexture\w*|Buffer|RWBuffer|\w*StructuredBuffer|\w*ByteAddressBuffer|SamplerState|SamplerComparisonState)\b`,
    ],
    ['sys', String.raw`\bSV_\w+`],
    ['num', `${NUMBER}\\b`],
  ]),
  json: grammar([
    ['sys', String.raw`"(?:[^"\\]|\\.)*"(?=\s*:)`],
    ['str', String.raw`"(?:[^"\\]|\\.)*"`],
    ['kw', String.raw`\b(?:true|false|null)\b`],
    ['num', `${NUMBER}\\b`],
  ]),
};

// A carriage return as a character reference: the HTML parser turns a literal CR (of a CRLF source
// file) into LF, a reference it keeps, so the <pre>'s text stays the text.
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
};
export const escapeHtml = (s: string): string => s.replace(/[&<>"\r]/g, (c) => ESCAPES[c]!);

/** The register a token names, as the SM4/5 listing names it ('v[1]' in WGSL is 'v1'). */
export function registerKey(token: string): string {
  return token.replace(/\[(\d+)\]$/, '$1').toLowerCase();
}

/** Highlights one line (no newline in it). */
function highlightLine(line: string, g: Grammar): string {
  let out = '';
  let plain = '';
  let at = 0;
  const flush = (): void => {
    if (plain) out += escapeHtml(plain);
    plain = '';
  };
  while (at < line.length) {
    g.pattern.lastIndex = at;
    const m = g.pattern.exec(line);
    // The `kw` rule of the listing is anchored at the line start: `^` with the sticky flag matches
    // only at 0, which is what it should.
    if (m === null || m[0] === '') {
      plain += line[at];
      at++;
      continue;
    }
    const group = m.findIndex((v, i) => i > 0 && v !== undefined);
    const cls = g.classes[group - 1]!;
    flush();
    const text = escapeHtml(m[0]);
    out +=
      cls === 'reg'
        ? `<span class="t-reg" data-r="${escapeHtml(registerKey(m[0]))}">${text}</span>`
        : `<span class="t-${cls}">${text}</span>`;
    at += m[0].length;
  }
  flush();
  return out;
}

/** Lines per chunk: a chunk is a block the browser may skip laying out while it is off screen. */
export const CHUNK_LINES = 200;
/** Listings of more lines than this are chunked (shorter ones render whole, screenshots included). */
export const CHUNKED_FROM = 2000;

/**
 * The HTML of a listing: each line a `<span class="ln" data-line="N">` (N from 0), the newline after
 * it outside, so the text is unchanged; past CHUNKED_FROM lines, every CHUNK_LINES lines in a `<span class="chunk">` (styled
 * `content-visibility: auto`, so a 10,000-line listing paints as fast as its first screen).
 */
export function highlight(text: string, language: Language): string {
  const g = language === 'plain' ? undefined : GRAMMARS[language];
  const lines = text.split('\n');
  const chunked = lines.length > CHUNKED_FROM;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === lines.length - 1 && line === '') break; // the text's final newline
    const body = g ? highlightLine(line, g) : escapeHtml(line);
    if (chunked && i % CHUNK_LINES === 0) out.push(i === 0 ? '<span class="chunk">' : '</span><span class="chunk">');
    out.push(`<span class="ln" data-line="${i}">${body}</span>${i < lines.length - 1 ? '\n' : ''}`);
  }
  if (chunked && out.length) out.push('</span>');
  return out.join('');
}
