/**
 * What a `file:` store's directory must be before LMDB opens it (./file.ts): a local, writable
 * directory, its `sandbox.mdb` an LMDB file or empty, and both of LMDB's files, when there,
 * regular files it can open read-write outside the kernel's file systems. LMDB takes whatever file
 * has its names for its own and crashes the process (SIGSEGV) on one that is not; these checks
 * refuse it first, naming the file and what it is.
 */
import { closeSync, constants, mkdirSync, openSync, readSync, rmSync, type Stats, statfsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The environment's file inside the store's directory. */
export const FILE_NAME = "sandbox.mdb";

/** File systems that LMDB must not be used on (statfs(2) magic numbers): its locks and memory map need a local one. */
export const NETWORK_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x6969, "NFS"],
  [0xff534d42, "CIFS"],
  [0xfe534d42, "SMB2"],
  [0x517b, "SMB"],
  [0x564c, "NCP"],
  [0x7461636f, "OCFS2"],
  [0x01161970, "GFS2"],
  [0x47504653, "GPFS"],
  [0x0bd00bd0, "Lustre"],
  [0x00c36400, "CephFS"],
]);

/** The kernel's own file systems (statfs(2) magic numbers): their files are no data LMDB can map. */
const KERNEL_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x63677270, "cgroup2"],
  [0x0027e0eb, "cgroup"],
]);

/** The network file system that statfs `type` names, if any. */
export function networkFileSystem(type: number): string | undefined {
  return NETWORK_FILE_SYSTEMS.get(type);
}

/** An error as `CODE: message`, Node's own messages already starting with their code. */
export const describeError = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  if (e?.code && !e.message?.startsWith(`${e.code}:`)) return `${e.code}: ${e.message}`;
  return String(e?.message ?? error);
};

/** LMDB's lock file beside the environment's. */
const LOCK_NAME = `${FILE_NAME}-lock`;
/** MDB_MAGIC (0xBEEFC0DE) as LMDB writes it, little-endian, in the header of the meta page a data file begins with. */
const LMDB_MAGIC = Buffer.from([0xde, 0xc0, 0xef, 0xbe]);
/** How much of a data file's first page holds its meta header (the magic number among it). */
const HEAD_BYTES = 64;

/** The first HEAD_BYTES bytes of the file at `path` (fewer when it is shorter). */
function readHead(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    return head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The file `file` in `dir` (undefined when there is none), checked to be one LMDB can take for `role`:
 * a regular file outside the kernel's file systems. Throws naming what it is instead.
 */
function checkedFile(dir: string, file: string, role: string, name: string): Stats | undefined {
  const path = join(dir, file);
  const found = statSync(path, { throwIfNoEntry: false });
  if (!found) return undefined;
  if (found.isDirectory()) throw new Error(`${name}: ${file} in it is a directory, not ${role}`);
  if (!found.isFile()) throw new Error(`${name}: ${file} in it is a device, a pipe or a socket, not ${role}`);
  const kernel = KERNEL_FILE_SYSTEMS.get(statfsSync(path).type);
  if (kernel) throw new Error(`${name}: ${file} in it is a file of the kernel's ${kernel} file system, not ${role}`);
  return found;
}

/** Makes `dir` if it is missing and checks it is a local, writable directory; throws naming what is wrong. */
export function prepareDirectory(dir: string, name: string): void {
  try {
    if (!statSync(dir).isDirectory())
      throw new Error(`${name}: is a file, not a directory (file:<dir> names the directory the store keeps its files in)`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR") throw new Error(`${name}: a part of the path is a file, not a directory`);
    if (code !== "ENOENT") throw error;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (made) {
      const madeCode = (made as NodeJS.ErrnoException).code;
      if (madeCode === "ENOTDIR" || madeCode === "EEXIST") throw new Error(`${name}: a part of the path is a file, not a directory`);
      throw new Error(`${name}: cannot create the directory (${describeError(made)})`);
    }
  }
  const fsName = networkFileSystem(statfsSync(dir).type);
  if (fsName) throw new Error(`${name}: the directory is on a network file system (${fsName}); LMDB needs a local disk`);
  // LMDB takes whatever file has its names for its own and crashes the process (SIGSEGV) on one that
  // is not: a directory, a device, a pipe or a kernel's file (a link into /proc) as either file, or a
  // data file whose first page has no LMDB magic number. An empty data file is a new environment's.
  const size = checkedFile(dir, FILE_NAME, "the store's file", name)?.size ?? 0;
  if (size > 0 && !readHead(join(dir, FILE_NAME)).includes(LMDB_MAGIC))
    throw new Error(
      `${name}: ${FILE_NAME} in it is not an LMDB file (damaged, or another file took its name); move it away to start an empty store`,
    );
  checkedFile(dir, LOCK_NAME, "LMDB's lock file", name);
  // Writing is what tells: permissions, a read-only mount, root's exemption from both.
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    writeFileSync(probe, "");
  } catch (error) {
    throw new Error(`${name}: the directory is not writable (${describeError(error)})`);
  }
  rmSync(probe, { force: true });
  // LMDB opens its lock file read-write, making it when missing, and crashes the process when it
  // cannot (a link to nowhere, a file this user may not write): opened here first, as LMDB opens it.
  try {
    closeSync(openSync(join(dir, LOCK_NAME), constants.O_RDWR | constants.O_CREAT, 0o664));
  } catch (error) {
    throw new Error(`${name}: cannot open ${LOCK_NAME} in it, LMDB's lock file (${describeError(error)})`);
  }
}
