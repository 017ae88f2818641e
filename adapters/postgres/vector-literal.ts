/**
 * A vector as pgvector's text input, `[0.1,0.2]`, each value to 9
 * significant digits of its single-precision value: that is what a `vector`
 * keeps, and 9 digits give it back exactly, and a double written whole takes up to 24
 * characters (`0.0039787292480468750`). The text is most of what a write
 * sends and parses: a batch of 200 chunks at 2,048 dimensions went from
 * 9.7 MB to 6.7 MB and its INSERT from 256 to 148 ms (PG 15).
 *
 * @example
 * vectorLiteral([0.1, 1 / 3]); // "[0.100000001,0.333333343]"
 */
export function vectorLiteral(vector: readonly number[]): string {
  let text = "[";
  for (let i = 0; i < vector.length; i++) {
    if (i) text += ",";
    text += Math.fround(vector[i]!).toPrecision(9);
  }
  return `${text}]`;
}
