/**
 * The baseline artifact's zip reader (src/action/artifactBaseline/zipArchive.ts): ordinary archives read back exactly, and every
 * malicious or unsupported one refused with a message naming the entry. The archives are built here
 * (test/helpers/zipWriter.ts) so each lie is explicit.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  crc32Of,
  tableCrc32,
  extractRunDatabase,
  extractZipEntry,
  listZipEntries,
  pickRunDatabase,
} from '../src/action/artifactBaseline/zipArchive.js';
import { writeZip } from './helpers/zipWriter.js';

const WHERE = 'artifact evalverdict-baseline';
const DB = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4000, 7)]);
const limits = { maxEntryBytes: 1 << 20, maxTotalBytes: 2 << 20, maxEntries: 100 };

function refusal(zip: Buffer, options: { path?: string | null } = {}): string {
  try {
    extractRunDatabase(zip, WHERE, { ...options, limits });
  } catch (error) {
    expect((error as Error).name).toBe('InputError');
    return (error as Error).message;
  }
  throw new Error('the archive was accepted');
}

describe('an ordinary artifact zip', () => {
  it('reads stored and deflate entries back byte for byte, and picks the one run database', () => {
    const zip = writeZip([
      { name: 'notes/readme.txt', data: 'hello', method: 'stored' },
      { name: 'notes/', mode: 0o040755 },
      { name: 'eval/baseline.sqlite', data: DB, method: 'deflate' },
    ]);
    const entries = listZipEntries(zip, WHERE, limits);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['notes/readme.txt', 'stored', 5],
      ['eval/baseline.sqlite', 'deflate', DB.length],
    ]);
    expect(extractZipEntry(zip, entries[0], WHERE).toString()).toBe('hello');
    const db = extractRunDatabase(zip, WHERE, { limits });
    expect(db.name).toBe('eval/baseline.sqlite');
    expect(db.data.equals(DB)).toBe(true);
  });

  it('takes the entry named by baseline-path among several databases (a leading ./ ignored)', () => {
    const zip = writeZip([
      { name: 'a.db', data: 'a' },
      { name: 'runs/b.sqlite', data: DB },
    ]);
    expect(extractRunDatabase(zip, WHERE, { path: './runs/b.sqlite', limits }).data.equals(DB)).toBe(true);
    expect(refusal(zip, { path: 'c.sqlite' })).toBe(
      `${WHERE}: no entry "c.sqlite" (input \`baseline-path\`); it holds "a.db", "runs/b.sqlite"`,
    );
  });

  it('reads an archive with a trailing comment and an empty file', () => {
    const zip = writeZip([{ name: 'empty.txt' }, { name: 'run.sqlite', data: DB }], { comment: 'made by a test' });
    expect(extractRunDatabase(zip, WHERE, { limits }).name).toBe('run.sqlite');
  });

  it('computes zip CRC-32 like zlib (the table fallback too)', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(crc32Of(data)).toBe(0x414fa339);
    expect(tableCrc32(data)).toBe(0x414fa339);
    expect(tableCrc32(DB)).toBe(crc32Of(DB));
  });
});

describe('a run database', () => {
  it('none in the archive: an error naming its files', () => {
    expect(refusal(writeZip([{ name: 'report.md', data: '#' }]))).toBe(
      `${WHERE}: no run database (*.sqlite, *.sqlite3 or *.db) in the archive; it holds "report.md"`,
    );
    expect(refusal(writeZip([]))).toBe(
      `${WHERE}: no run database (*.sqlite, *.sqlite3 or *.db) in the archive; it holds no files`,
    );
  });

  it('two in the archive: an error naming both and the input that chooses', () => {
    expect(
      refusal(
        writeZip([
          { name: 'main.sqlite', data: DB },
          { name: 'old/main.db', data: DB },
        ]),
      ),
    ).toBe(
      `${WHERE}: 2 run databases ("main.sqlite", "old/main.db"); name the one to use with input \`baseline-path\``,
    );
  });

  it('pickRunDatabase ignores other files', () => {
    const entries = listZipEntries(writeZip([{ name: 'x.json' }, { name: 'y.SQLITE3', data: 'z' }]), WHERE, limits);
    expect(pickRunDatabase(entries, WHERE, null).name).toBe('y.SQLITE3');
  });
});

describe('malicious archives are refused as a whole', () => {
  const withDb = (entry: Parameters<typeof writeZip>[0][number]) =>
    writeZip([{ name: 'baseline.sqlite', data: DB }, entry]);

  it.each([
    ['../evil.sqlite', 'entry "../evil.sqlite" climbs out of the archive with `..`'],
    ['a/../../evil', 'entry "a/../../evil" climbs out of the archive with `..`'],
    ['/etc/passwd', 'entry "/etc/passwd" is an absolute path'],
    ['C:/Windows/x.db', 'entry "C:/Windows/x.db" starts with a drive letter'],
    ['a\\..\\b.db', 'entry "a\\\\..\\\\b.db" has a backslash in its name (a Windows path)'],
    ['a\nb', 'entry "a\\\\nb" has a control character in its name'],
  ])('path traversal: %j', (name, message) => {
    expect(refusal(withDb({ name, data: 'x' }))).toBe(`${WHERE}: ${message}`);
  });

  it('a symbolic link, even one named like a database', () => {
    expect(
      refusal(writeZip([{ name: 'baseline.sqlite', data: '/etc/passwd', mode: 0o120777, method: 'stored' }])),
    ).toBe(`${WHERE}: entry "baseline.sqlite" is a symbolic link, not a regular file`);
  });

  it('a FIFO or device', () => {
    expect(refusal(withDb({ name: 'pipe', mode: 0o010644 }))).toBe(
      `${WHERE}: entry "pipe" is a special file (mode 10000), not a regular file`,
    );
  });

  it('an entry over the size cap', () => {
    const big = Buffer.alloc((1 << 20) + 1);
    expect(refusal(writeZip([{ name: 'baseline.sqlite', data: big }]))).toBe(
      `${WHERE}: entry "baseline.sqlite" is ${big.length} bytes, over the ${1 << 20}-byte cap for one file`,
    );
  });

  it('a zip bomb: entries adding up past the total cap', () => {
    const part = Buffer.alloc(900 << 10);
    const zip = writeZip([
      { name: 'a.bin', data: part },
      { name: 'b.bin', data: part },
      { name: 'c.bin', data: part },
      { name: 'baseline.sqlite', data: DB },
    ]);
    expect(zip.length).toBeLessThan(10_000); // zeros compress ~1000:1
    expect(refusal(zip)).toBe(
      `${WHERE}: the entries add up to more than ${2 << 20} bytes uncompressed (a zip bomb?); refused at "c.bin"`,
    );
  });

  it('a zip bomb: a deflate entry that inflates past its declared size', () => {
    const bomb = Buffer.alloc(50 << 20); // 50 MiB of zeros, declared as 100 bytes
    const zip = writeZip([{ name: 'baseline.sqlite', data: bomb, size: 100 }]);
    expect(refusal(zip)).toBe(`${WHERE}: entry "baseline.sqlite" inflates past its declared 100 bytes (a zip bomb?)`);
  });

  it('declared size larger than the data, and a wrong CRC', () => {
    expect(refusal(writeZip([{ name: 'baseline.sqlite', data: DB, size: DB.length + 10 }]))).toBe(
      `${WHERE}: entry "baseline.sqlite" holds ${DB.length} bytes, not the ${DB.length + 10} its header declares`,
    );
    expect(refusal(writeZip([{ name: 'baseline.sqlite', data: DB, crc: 1234 }]))).toBe(
      `${WHERE}: entry "baseline.sqlite" fails its CRC-32 check (damaged or altered)`,
    );
  });

  it('a stored entry whose two sizes disagree', () => {
    expect(refusal(writeZip([{ name: 'baseline.sqlite', data: DB, method: 'stored', compressedSize: 10 }]))).toContain(
      'is stored but declares 10 bytes stored',
    );
  });

  it('overlapping entries (the overlapping-file zip bomb)', () => {
    // Entry "a.bin" stores, as its data, a complete local record of "b.sqlite"; b's central entry points inside it.
    const inner = writeZip([{ name: 'b.sqlite', data: DB, method: 'stored' }]);
    const record = inner.subarray(0, 30 + 'b.sqlite'.length + DB.length);
    const zip = writeZip([
      { name: 'a.bin', data: record, method: 'stored' },
      { name: 'b.sqlite', data: DB, method: 'stored', pointAt: 30 + 'a.bin'.length },
    ]);
    expect(refusal(zip)).toBe(`${WHERE}: entries "a.bin" and "b.sqlite" overlap`);
  });

  it('a central entry whose local header names another file', () => {
    expect(refusal(writeZip([{ name: 'baseline.sqlite', data: DB, localName: '../x.sqlite' }]))).toBe(
      `${WHERE}: entry "baseline.sqlite": its local header names another file`,
    );
  });

  it('the same name twice', () => {
    expect(refusal(withDb({ name: 'baseline.sqlite', data: 'other' }))).toBe(
      `${WHERE}: entry "baseline.sqlite" appears twice`,
    );
  });

  it('an encrypted entry', () => {
    expect(refusal(withDb({ name: 'secret.txt', data: 'x', flags: 0x801 }))).toBe(
      `${WHERE}: entry "secret.txt" is encrypted`,
    );
    expect(refusal(withDb({ name: 'aes.txt', data: 'x', methodCode: 99 }))).toBe(
      `${WHERE}: entry "aes.txt" is encrypted`,
    );
  });

  it('another compression method', () => {
    expect(refusal(withDb({ name: 'x.bz2', data: 'x', methodCode: 12 }))).toBe(
      `${WHERE}: entry "x.bz2" uses compression method 12 (only stored and deflate are read)`,
    );
  });

  it('zip64, by name', () => {
    expect(refusal(withDb({ name: 'huge.bin', data: 'x', size: 0xffffffff }))).toContain(
      'entry "huge.bin" uses zip64 sizes (a zip64 archive (over 4 GiB or 65,535 entries), which EvalVerdict does not read)',
    );
    const zip = writeZip([{ name: 'baseline.sqlite', data: DB }]);
    zip.writeUInt16LE(0xffff, zip.length - 22 + 10);
    expect(refusal(zip)).toBe(
      `${WHERE}: a zip64 archive (over 4 GiB or 65,535 entries), which EvalVerdict does not read`,
    );
  });

  it('not a zip at all, a truncated one, and invalid deflate data', () => {
    expect(refusal(Buffer.from('SQLite format 3\0 plus more bytes to pass 22'))).toBe(
      `${WHERE}: not a zip archive (no end of central directory record)`,
    );
    expect(refusal(Buffer.alloc(3))).toBe(`${WHERE}: not a zip archive (3 bytes)`);
    const zip = writeZip([{ name: 'baseline.sqlite', data: DB }]);
    expect(refusal(zip.subarray(0, zip.length - 5))).toBe(
      `${WHERE}: not a zip archive (no end of central directory record)`,
    );
    const garbage = writeZip([
      { name: 'baseline.sqlite', data: Buffer.from([0xff, 0xff, 0xff]), method: 'stored', methodCode: 8, size: 10 },
    ]);
    expect(refusal(garbage)).toMatch(/entry "baseline.sqlite" is not valid deflate data/);
  });

  it('a deflate stream that ends early is not mistaken for the declared size', () => {
    const cut = deflateRawSync(DB).subarray(0, 20);
    const zip = writeZip([
      { name: 'baseline.sqlite', data: cut, method: 'stored', methodCode: 8, size: DB.length, crc: crc32Of(DB) },
    ]);
    expect(refusal(zip)).toMatch(/entry "baseline.sqlite" (is not valid deflate data|holds \d+ bytes, not the)/);
  });
});
