// A PMTiles v3 reader for the browser, over HTTP range requests, so a map can read one archive
// from any static host. Written from the PMTiles v3 specification; no dependencies, no build step.
//
//   maplibregl.addProtocol("pmtiles", QuakePMTiles.protocol);
//   map.addSource("quakes", { type: "vector", url: "pmtiles://quakes.pmtiles" });
//
// After "pmtiles://" comes the archive's URL, relative to the page or absolute (http:// or
// https://); "/{z}/{x}/{y}" after it asks for a tile, nothing after it for a TileJSON.
(function () {
  "use strict";

  const HEADER_LENGTH = 127;
  // The spec keeps the header and the root directory in the first 16 KiB: one request reads both.
  const FIRST_READ = 16384;
  const LEAF_CACHE = 64;
  const NONE = 1, GZIP = 2;  // Compression, as the header numbers it (0 is "unknown").

  // A uint64 as a Number: exact up to 2^53, more than any real archive's offsets.
  function uint64(view, at) {
    const value = view.getUint32(at + 4, true) * 2 ** 32 + view.getUint32(at, true);
    if (!Number.isSafeInteger(value)) throw new RangeError(`a 64-bit field at byte ${at} is beyond 2^53`);
    return value;
  }

  // The tile's place in the archive: all tiles of lower zooms, then its place on the Hilbert curve
  // of its zoom. Bit operations stay on x and y (< 2^26); the sums use Numbers, exact to 2^53.
  function tileID(z, x, y) {
    if (!(Number.isInteger(z) && z >= 0 && z <= 26)) throw new RangeError(`zoom ${z} is outside 0…26`);
    const side = 2 ** z;
    if (!(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < side && y < side)) {
      throw new RangeError(`tile ${z}/${x}/${y} is outside its zoom`);
    }
    let id = (4 ** z - 1) / 3;
    for (let s = side / 2; s >= 1; s /= 2) {
      const rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
      id += s * s * ((3 * rx) ^ ry);
      x &= s - 1;
      y &= s - 1;
      // Turn the quadrant so the curve inside it runs the way the curve around it does.
      if (ry === 0) {
        if (rx === 1) { x = s - 1 - x; y = s - 1 - y; }
        [x, y] = [y, x];
      }
    }
    return id;
  }

  async function decompress(bytes, compression, what) {
    if (compression === NONE || compression === 0) return bytes;
    if (compression !== GZIP) throw new Error(`${what}: compression ${compression} is not supported (only none and gzip)`);
    // Writing straight into the stream costs a third of piping a Blob's stream through it.
    const stream = new DecompressionStream("gzip"), writer = stream.writable.getWriter();
    writer.write(bytes).catch(() => {});  // a failure also ends the readable side, and is reported there
    writer.close().catch(() => {});
    try {
      return new Uint8Array(await new Response(stream.readable).arrayBuffer());
    } catch (error) {
      throw new Error(`${what}: not valid gzip (${error.message})`);
    }
  }

  // A directory: varint columns (count; id deltas; run lengths; lengths; offsets, where 0 means
  // "right after the entry before" and anything else is the offset + 1).
  function parseDirectory(bytes) {
    let at = 0;
    function varint() {
      let value = 0, scale = 1, byte;
      do {
        if (at >= bytes.length) throw new Error("a directory ends inside a number");
        byte = bytes[at++];
        value += (byte & 0x7f) * scale;
        scale *= 128;
      } while (byte & 0x80);
      return value;
    }
    const count = varint();
    const ids = new Array(count), runs = new Array(count), lengths = new Array(count), offsets = new Array(count);
    let id = 0;
    for (let i = 0; i < count; i++) ids[i] = id += varint();
    for (let i = 0; i < count; i++) runs[i] = varint();
    for (let i = 0; i < count; i++) lengths[i] = varint();
    for (let i = 0; i < count; i++) {
      const value = varint();
      offsets[i] = value === 0 && i > 0 ? offsets[i - 1] + lengths[i - 1] : value - 1;
    }
    return { ids, runs, lengths, offsets };
  }

  // The entry that may hold `id`: the last one starting at or before it. A leaf directory's entry
  // (run 0) covers everything up to the next entry; a tile's entry covers its run.
  function findEntry(directory, id) {
    let low = 0, high = directory.ids.length - 1, found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (directory.ids[middle] <= id) { found = middle; low = middle + 1; } else { high = middle - 1; }
    }
    if (found < 0) return null;
    const run = directory.runs[found];
    if (run > 0 && id >= directory.ids[found] + run) return null;
    return { offset: directory.offsets[found], length: directory.lengths[found], leaf: run === 0 };
  }

  class Archive {
    constructor(url) {
      this.url = url;
      this.leaves = new Map();  // "offset:length" → Promise of a directory; insertion order is recency
    }

    // `length` bytes from `offset`. A host that ignores Range sends the whole file with 200:
    // then that body is kept and every later read is a slice of it, rather than another download.
    async bytes(offset, length, signal) {
      if (this.whole) return (await this.whole).subarray(offset, offset + length);
      const response = await fetch(this.url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` }, signal });
      if (response.status === 200) {
        this.whole = response.arrayBuffer().then((body) => new Uint8Array(body));
        this.whole.catch(() => { this.whole = null; });
        return (await this.whole).subarray(offset, offset + length);
      }
      if (response.status !== 206) throw new Error(`${this.url}: HTTP ${response.status} for bytes ${offset}–${offset + length - 1}`);
      return new Uint8Array(await response.arrayBuffer());
    }

    // The header, its fields as numbers (offsets, zooms, bounds in degrees).
    async header() {
      return (await this.start()).header;
    }

    // The header and the root directory, read together once.
    start() {
      if (!this.first) {
        this.first = this.readFirst();
        this.first.catch(() => { this.first = null; });  // a failure is not kept: the next call tries again
      }
      return this.first;
    }

    async readFirst() {
      const bytes = await this.bytes(0, FIRST_READ);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const magic = String.fromCharCode(...bytes.subarray(0, 7));
      if (bytes.length < HEADER_LENGTH || magic !== "PMTiles" || bytes[7] !== 3) {
        throw new Error(`${this.url}: not a PMTiles v3 archive`);
      }
      const e7 = (at) => view.getInt32(at, true) / 1e7;
      const header = {
        rootDirectoryOffset: uint64(view, 8), rootDirectoryLength: uint64(view, 16),
        metadataOffset: uint64(view, 24), metadataLength: uint64(view, 32),
        leafDirectoriesOffset: uint64(view, 40), leafDirectoriesLength: uint64(view, 48),
        tileDataOffset: uint64(view, 56), tileDataLength: uint64(view, 64),
        addressedTiles: uint64(view, 72), tileEntries: uint64(view, 80), tileContents: uint64(view, 88),
        clustered: bytes[96] === 1, internalCompression: bytes[97], tileCompression: bytes[98], tileType: bytes[99],
        minZoom: bytes[100], maxZoom: bytes[101],
        minLon: e7(102), minLat: e7(106), maxLon: e7(110), maxLat: e7(114),
        centerZoom: bytes[118], centerLon: e7(119), centerLat: e7(123),
      };
      const start = header.rootDirectoryOffset, end = start + header.rootDirectoryLength;
      // A writer that broke the 16 KiB rule costs one more request, not a failure.
      const rootBytes = end <= bytes.length ? bytes.subarray(start, end) : await this.bytes(start, header.rootDirectoryLength);
      const root = parseDirectory(await decompress(rootBytes, header.internalCompression, `${this.url}: the root directory`));
      return { header, root };
    }

    // The archive's JSON metadata (name, attribution, vector_layers, …).
    metadata() {
      if (!this.json) {
        this.json = (async () => {
          const header = await this.header();
          const bytes = await this.bytes(header.metadataOffset, header.metadataLength);
          const text = new TextDecoder().decode(await decompress(bytes, header.internalCompression, `${this.url}: the metadata`));
          try { return JSON.parse(text); } catch (error) { throw new Error(`${this.url}: the metadata is not JSON (${error.message})`); }
        })();
        this.json.catch(() => { this.json = null; });
      }
      return this.json;
    }

    // Leaf directories are shared by the tiles around them, so they are kept, the least recently
    // used dropped first. They are read without the caller's signal: one tile's abort must not
    // fail the other tiles waiting for the same directory.
    leaf(offset, length) {
      const key = `${offset}:${length}`;
      let directory = this.leaves.get(key);
      if (directory) {
        this.leaves.delete(key);
      } else {
        directory = this.header().then(async (header) => {
          const bytes = await this.bytes(header.leafDirectoriesOffset + offset, length);
          return parseDirectory(await decompress(bytes, header.internalCompression, `${this.url}: a leaf directory`));
        });
        directory.catch(() => this.leaves.delete(key));
        if (this.leaves.size >= LEAF_CACHE) this.leaves.delete(this.leaves.keys().next().value);
      }
      this.leaves.set(key, directory);
      return directory;
    }

    // The tile's bytes, decompressed; null when the archive has no such tile.
    async tile(z, x, y, signal) {
      const id = tileID(z, x, y);
      const { header, root } = await this.start();
      let directory = root;
      for (let depth = 0; depth < 4; depth++) {  // the spec allows the root and three levels of leaves
        const entry = findEntry(directory, id);
        if (!entry) return null;
        if (!entry.leaf) {
          const bytes = await this.bytes(header.tileDataOffset + entry.offset, entry.length, signal);
          return decompress(bytes, header.tileCompression, `${this.url}: tile ${z}/${x}/${y}`);
        }
        directory = await this.leaf(entry.offset, entry.length);
      }
      throw new Error(`${this.url}: leaf directories nest deeper than the spec allows`);
    }
  }

  const archives = new Map();

  // One Archive per URL (resolved against the page), so its header and directories are read once.
  function archive(url) {
    const base = typeof document !== "undefined" ? document.baseURI : self.location.href;
    const absolute = new URL(url, base).href;
    if (!archives.has(absolute)) archives.set(absolute, new Archive(absolute));
    return archives.get(absolute);
  }

  // MapLibre 5's addProtocol handler: "pmtiles://<archive>/{z}/{x}/{y}" is a tile (empty when
  // absent, so MapLibre draws nothing rather than reporting an error), "pmtiles://<archive>" a TileJSON.
  async function protocol(request, abortController) {
    const rest = request.url.replace(/^pmtiles:\/\//, "");
    const zxy = rest.match(/^(.+)\/(\d+)\/(\d+)\/(\d+)$/);
    if (zxy) {
      const data = await archive(zxy[1]).tile(+zxy[2], +zxy[3], +zxy[4], abortController && abortController.signal);
      return { data: data || new Uint8Array() };
    }
    const source = archive(rest);
    const [header, metadata] = await Promise.all([source.header(), source.metadata()]);
    const tileJSON = {
      tilejson: "3.0.0",
      tiles: [`pmtiles://${rest}/{z}/{x}/{y}`],
      minzoom: header.minZoom, maxzoom: header.maxZoom,
      bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
      center: [header.centerLon, header.centerLat, header.centerZoom],
    };
    for (const key of ["name", "description", "attribution", "vector_layers", "version"]) {
      if (metadata[key] !== undefined) tileJSON[key] = metadata[key];
    }
    return { data: tileJSON };
  }

  window.QuakePMTiles = { Archive, archive, protocol, tileID };
})();
