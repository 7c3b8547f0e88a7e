// Test helper: the comment an old fxc wrote into a listing, which its container does not hold (the
// era listings of ../shared/corpus/dxbc, test/disasm/era.test.ts): its command line in `//   ` lines
// after the creator's `//` and the two `//` after them, or the `///` some projects left in its place.

/** What a listing carries that its container cannot: fxc's command line, or the `///` left in its place. */
export type CommentKind = 'command line' | '///';

/** Removes fxc's comment (the lines after the creator's `//`): returns the listing, how many lines
 * went and which kind they were. */
export function withoutComment(listing: string): { text: string; removed: number; kind?: CommentKind } {
  const lines = listing.split('\n');
  if (lines[4] === '///') {
    lines.splice(4, 1);
    return { text: lines.join('\n'), removed: 1, kind: '///' };
  }
  if (!lines[4]?.startsWith('//   ')) return { text: listing, removed: 0 };
  let k = 4;
  while (lines[k]?.startsWith('//   ')) k++;
  let e = k;
  while (e < k + 2 && lines[e] === '//') e++;
  lines.splice(4, e - 4);
  return { text: lines.join('\n'), removed: e - 4, kind: 'command line' };
}
