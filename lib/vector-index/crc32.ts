let tables: Uint32Array[] | undefined;

/** Eight 256-entry tables, for slicing-by-8: eight bytes per step instead of one. */
function crcTables(): Uint32Array[] {
  const first = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    first[n] = c >>> 0;
  }
  const all = [first];
  for (let t = 1; t < 8; t++) {
    const previous = all[t - 1]!;
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) table[n] = (previous[n]! >>> 8) ^ first[previous[n]! & 0xff]!;
    all.push(table);
  }
  return all;
}

/**
 * CRC-32 (IEEE, as zlib and PNG compute it): detects a torn or corrupted
 * record, not an attacker.
 *
 * @example
 * crc32(new TextEncoder().encode("123456789")); // 0xcbf43926
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  tables ??= crcTables();
  const [t0, t1, t2, t3, t4, t5, t6, t7] = tables as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  let crc = (previous ^ 0xffffffff) >>> 0; // `previous`: the CRC of the bytes before these
  let i = 0;
  // Eight bytes a step (about 1 GB/s, twice four at a time): checkpoints are read whole at start.
  for (const end = bytes.length - 7; i < end; i += 8) {
    crc ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    const high = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) |
      (bytes[i + 7]! << 24);
    crc = t7[crc & 0xff]! ^ t6[(crc >>> 8) & 0xff]! ^ t5[(crc >>> 16) & 0xff]! ^ t4[crc >>> 24]! ^
      t3[high & 0xff]! ^ t2[(high >>> 8) & 0xff]! ^ t1[(high >>> 16) & 0xff]! ^ t0[high >>> 24]!;
  }
  for (; i < bytes.length; i++) crc = t0[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
