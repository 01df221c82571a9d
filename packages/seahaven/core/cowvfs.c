/*
** cowvfs: a copy-on-write page layer under SQLite, as a loadable extension.
**
** A base is a fixture's reset image, mapped read-only from a file once per process and shared by every episode
** opened on it. An episode's database is a store: the base plus a map of the chunks (one per page of the base's page
** size) that the episode changed. Reading a chunk the store has not changed reads the base; writing one copies it into
** the store. A chunk written back to the base's bytes (a rolled-back transaction writing the original pages back) is
** dropped again, so a store holds only the pages that differ from its base. Resetting an episode drops its store;
** forking copies the store's map (its changed chunks), never the base.
**
** The extension registers a VFS as the process's default (better-sqlite3 opens every database with the default VFS
** and no URI). It owns the names "<base name>.cow-<anything>" of registered bases and hands every other name to the
** VFS that was the default before it, so files, temporary files and in-memory databases are opened as before.
** Owned databases must run with `PRAGMA journal_mode = MEMORY` (and need no locks: one connection per store), which
** the glue sets when it opens one; opening a journal or WAL for an owned name fails with SQLITE_CANTOPEN.
**
** SQL functions, on the connection that loaded the extension:
**   cow_base(name, path)   map the file at path read-only as base `name` (once; a second call with the same path is a
**                          no-op). Returns the base's size in bytes.
**   cow_copy(src, dst)     make store dst a copy of store src (its changed chunks). dst must not be open. It copies
**                          what the store holds: commit src first, or a page SQLite spilled from an open transaction
**                          would be copied with it.
**   cow_drop(name)         forget a store (its changed chunks). Must not be open.
**   cow_chunks(name)       the number of chunks store `name` holds (its changed pages), or NULL when there is none.
**   cow_size(name)         the size in bytes of store `name`'s database, or NULL when there is none.
**   cow_page(name)         the page size of store `name`'s base (the size of each of its chunks), or NULL.
**   cow_total()            bytes held in changed chunks by every store of the process.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define COW_VFS_NAME "seahaven-cow"
#define COW_MARK ".cow-"
#define LEAF_BITS 9
#define LEAF_SIZE (1 << LEAF_BITS)

typedef struct CowBase CowBase;
struct CowBase {
  char *zName;
  char *zPath;
  const unsigned char *a; /* the mapped image */
  sqlite3_int64 n;        /* its size in bytes */
  int szChunk;            /* its page size */
  CowBase *pNext;
};

typedef struct CowStore CowStore;
struct CowStore {
  char *zName;
  CowBase *pBase;
  sqlite3_int64 size;      /* the database's size in bytes */
  sqlite3_int64 baseLimit; /* bytes of the base still visible (a truncation hides what is past it) */
  unsigned char ***dir;    /* chunk i is dir[i >> LEAF_BITS][i & (LEAF_SIZE - 1)], NULL when unchanged */
  sqlite3_int64 nDir;
  sqlite3_int64 nChunk; /* chunks held */
  int nOpen;
  CowStore *pNext;
};

typedef struct CowFile CowFile;
struct CowFile {
  sqlite3_file base;
  CowStore *pStore;
};

static sqlite3_vfs cowVfs;
static sqlite3_vfs *pOrig = 0;
static CowBase *bases = 0;
static CowStore *stores = 0;
static sqlite3_int64 totalChunks = 0;
static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;

/* ---- stores ---------------------------------------------------------------------------------------------------- */

static CowBase *baseOwning(const char *zName) {
  if (zName == 0) return 0;
  for (CowBase *b = bases; b; b = b->pNext) {
    size_t n = strlen(b->zName);
    if (strncmp(zName, b->zName, n) == 0 && strncmp(zName + n, COW_MARK, strlen(COW_MARK)) == 0) return b;
  }
  return 0;
}

static CowStore *storeNamed(const char *zName) {
  for (CowStore *s = stores; s; s = s->pNext)
    if (strcmp(s->zName, zName) == 0) return s;
  return 0;
}

static unsigned char *chunkAt(CowStore *s, sqlite3_int64 i) {
  sqlite3_int64 d = i >> LEAF_BITS;
  if (d >= s->nDir || s->dir[d] == 0) return 0;
  return s->dir[d][i & (LEAF_SIZE - 1)];
}

static void setChunk(CowStore *s, sqlite3_int64 i, unsigned char *p) {
  sqlite3_int64 d = i >> LEAF_BITS;
  if (d >= s->nDir) {
    sqlite3_int64 n = d + 1 > 2 * s->nDir ? d + 1 : 2 * s->nDir;
    s->dir = realloc(s->dir, n * sizeof(*s->dir));
    memset(s->dir + s->nDir, 0, (n - s->nDir) * sizeof(*s->dir));
    s->nDir = n;
  }
  if (s->dir[d] == 0) s->dir[d] = calloc(LEAF_SIZE, sizeof(unsigned char *));
  unsigned char *old = s->dir[d][i & (LEAF_SIZE - 1)];
  if (old) {
    free(old);
    s->nChunk--;
    __atomic_sub_fetch(&totalChunks, 1, __ATOMIC_RELAXED);
  }
  s->dir[d][i & (LEAF_SIZE - 1)] = p;
  if (p) {
    s->nChunk++;
    __atomic_add_fetch(&totalChunks, 1, __ATOMIC_RELAXED);
  }
}

/* What chunk i reads as: the store's copy, else the base's bytes (NULL when the chunk lies past the base). */
static const unsigned char *chunkRead(CowStore *s, sqlite3_int64 i, sqlite3_int64 *pAvail) {
  int sz = s->pBase->szChunk;
  unsigned char *p = chunkAt(s, i);
  if (p) {
    *pAvail = sz;
    return p;
  }
  sqlite3_int64 off = i * sz;
  if (off >= s->baseLimit) return 0;
  *pAvail = s->baseLimit - off < sz ? s->baseLimit - off : sz;
  return s->pBase->a + off;
}

static void storeFree(CowStore *s) {
  for (sqlite3_int64 d = 0; d < s->nDir; d++) {
    if (s->dir[d] == 0) continue;
    for (int j = 0; j < LEAF_SIZE; j++)
      if (s->dir[d][j]) {
        free(s->dir[d][j]);
        __atomic_sub_fetch(&totalChunks, 1, __ATOMIC_RELAXED);
      }
    free(s->dir[d]);
  }
  free(s->dir);
  free(s->zName);
  free(s);
}

static void storeUnlink(CowStore *s) {
  for (CowStore **pp = &stores; *pp; pp = &(*pp)->pNext)
    if (*pp == s) {
      *pp = s->pNext;
      return;
    }
}

static CowStore *storeNew(const char *zName, CowBase *b) {
  CowStore *s = calloc(1, sizeof(*s));
  s->zName = strdup(zName);
  s->pBase = b;
  s->size = b->n;
  s->baseLimit = b->n;
  s->pNext = stores;
  stores = s;
  return s;
}

/* ---- file methods of an owned database ------------------------------------------------------------------------- */

static int cowClose(sqlite3_file *pFile) {
  CowFile *f = (CowFile *)pFile;
  pthread_mutex_lock(&registry);
  f->pStore->nOpen--;
  pthread_mutex_unlock(&registry);
  return SQLITE_OK;
}

static int cowRead(sqlite3_file *pFile, void *zBuf, int iAmt, sqlite3_int64 iOfst) {
  CowStore *s = ((CowFile *)pFile)->pStore;
  int sz = s->pBase->szChunk;
  unsigned char *out = zBuf;
  int rc = SQLITE_OK;
  if (iOfst + iAmt > s->size) {
    rc = SQLITE_IOERR_SHORT_READ;
    memset(out, 0, iAmt);
  }
  sqlite3_int64 end = iOfst + iAmt < s->size ? iOfst + iAmt : s->size;
  while (iOfst < end) {
    sqlite3_int64 i = iOfst / sz;
    int at = (int)(iOfst - i * sz);
    int n = (int)((end - iOfst) < sz - at ? end - iOfst : sz - at);
    sqlite3_int64 avail = 0;
    const unsigned char *c = chunkRead(s, i, &avail);
    if (c == 0 || at >= avail) memset(out, 0, n);
    else if (at + n <= avail) memcpy(out, c + at, n);
    else {
      memcpy(out, c + at, avail - at);
      memset(out + (avail - at), 0, n - (avail - at));
    }
    out += n;
    iOfst += n;
  }
  return rc;
}

static int cowWrite(sqlite3_file *pFile, const void *zBuf, int iAmt, sqlite3_int64 iOfst) {
  CowStore *s = ((CowFile *)pFile)->pStore;
  int sz = s->pBase->szChunk;
  const unsigned char *in = zBuf;
  sqlite3_int64 end = iOfst + iAmt;
  while (iOfst < end) {
    sqlite3_int64 i = iOfst / sz;
    int at = (int)(iOfst - i * sz);
    int n = (int)((end - iOfst) < sz - at ? end - iOfst : sz - at);
    unsigned char *c = chunkAt(s, i);
    sqlite3_int64 off = i * sz;
    int inBase = off + sz <= s->baseLimit;
    if (c == 0) {
      /* Writing the base's own bytes over an unchanged chunk changes nothing. */
      if (inBase && memcmp(s->pBase->a + off + at, in, n) == 0) goto next;
      c = malloc(sz);
      if (c == 0) return SQLITE_IOERR_NOMEM;
      sqlite3_int64 avail = 0;
      const unsigned char *from = chunkRead(s, i, &avail);
      if (from) memcpy(c, from, avail);
      if (avail < sz) memset(c + avail, 0, sz - avail);
      setChunk(s, i, c);
    }
    memcpy(c + at, in, n);
    /* A chunk written back to the base's bytes (a rollback) is dropped: the store keeps only what differs. */
    if (inBase && memcmp(c, s->pBase->a + off, sz) == 0) setChunk(s, i, 0);
  next:
    in += n;
    iOfst += n;
  }
  if (end > s->size) s->size = end;
  return SQLITE_OK;
}

static int cowTruncate(sqlite3_file *pFile, sqlite3_int64 size) {
  CowStore *s = ((CowFile *)pFile)->pStore;
  int sz = s->pBase->szChunk;
  if (size >= s->size) return SQLITE_OK;
  sqlite3_int64 first = (size + sz - 1) / sz; /* the first chunk wholly past the end */
  for (sqlite3_int64 i = first; i * sz < s->size; i++)
    if (chunkAt(s, i)) setChunk(s, i, 0);
  if (size % sz) {
    /* The chunk the end falls in keeps its head; what is past the end reads as zeros if the file grows again. */
    sqlite3_int64 i = size / sz;
    unsigned char *c = chunkAt(s, i);
    if (c == 0 && i * sz < s->baseLimit) {
      c = malloc(sz);
      if (c == 0) return SQLITE_IOERR_NOMEM;
      sqlite3_int64 avail = 0;
      const unsigned char *from = chunkRead(s, i, &avail);
      memcpy(c, from, avail);
      if (avail < sz) memset(c + avail, 0, sz - avail);
      setChunk(s, i, c);
    }
    if (c) memset(c + (size % sz), 0, sz - (size % sz));
  }
  if (size < s->baseLimit) s->baseLimit = size - size % sz;
  s->size = size;
  return SQLITE_OK;
}

static int cowSync(sqlite3_file *pFile, int flags) { return SQLITE_OK; }

static int cowFileSize(sqlite3_file *pFile, sqlite3_int64 *pSize) {
  *pSize = ((CowFile *)pFile)->pStore->size;
  return SQLITE_OK;
}

static int cowLock(sqlite3_file *pFile, int eLock) { return SQLITE_OK; }
static int cowUnlock(sqlite3_file *pFile, int eLock) { return SQLITE_OK; }
static int cowCheckReservedLock(sqlite3_file *pFile, int *pResOut) {
  *pResOut = 0;
  return SQLITE_OK;
}

static int cowFileControl(sqlite3_file *pFile, int op, void *pArg) {
  if (op == SQLITE_FCNTL_VFSNAME) {
    *(char **)pArg = sqlite3_mprintf("%s", COW_VFS_NAME);
    return SQLITE_OK;
  }
  if (op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK;
  return SQLITE_NOTFOUND;
}

static int cowSectorSize(sqlite3_file *pFile) { return 4096; }

static int cowDeviceCharacteristics(sqlite3_file *pFile) {
  return SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static const sqlite3_io_methods cowIo = {
    1,
    cowClose,
    cowRead,
    cowWrite,
    cowTruncate,
    cowSync,
    cowFileSize,
    cowLock,
    cowUnlock,
    cowCheckReservedLock,
    cowFileControl,
    cowSectorSize,
    cowDeviceCharacteristics,
};

/* ---- the VFS ---------------------------------------------------------------------------------------------------- */

static int cowOpen(sqlite3_vfs *pVfs, const char *zName, sqlite3_file *pFile, int flags, int *pOutFlags) {
  pthread_mutex_lock(&registry);
  CowBase *b = baseOwning(zName);
  if (b == 0) {
    pthread_mutex_unlock(&registry);
    return pOrig->xOpen(pOrig, zName, pFile, flags, pOutFlags);
  }
  if (!(flags & SQLITE_OPEN_MAIN_DB)) {
    /* A journal or WAL of an owned database: the glue runs them with journal_mode = MEMORY. */
    pthread_mutex_unlock(&registry);
    pFile->pMethods = 0;
    return SQLITE_CANTOPEN;
  }
  CowStore *s = storeNamed(zName);
  if (s == 0) {
    if (!(flags & SQLITE_OPEN_CREATE)) {
      pthread_mutex_unlock(&registry);
      pFile->pMethods = 0;
      return SQLITE_CANTOPEN;
    }
    s = storeNew(zName, b);
  }
  s->nOpen++;
  pthread_mutex_unlock(&registry);
  CowFile *f = (CowFile *)pFile;
  f->pStore = s;
  pFile->pMethods = &cowIo;
  if (pOutFlags) *pOutFlags = flags;
  return SQLITE_OK;
}

static int cowDelete(sqlite3_vfs *pVfs, const char *zName, int syncDir) {
  pthread_mutex_lock(&registry);
  CowBase *b = baseOwning(zName);
  pthread_mutex_unlock(&registry);
  if (b == 0) return pOrig->xDelete(pOrig, zName, syncDir);
  /* Journals of owned databases never exist; stores are dropped with cow_drop(). */
  return SQLITE_OK;
}

static int cowAccess(sqlite3_vfs *pVfs, const char *zName, int flags, int *pResOut) {
  pthread_mutex_lock(&registry);
  CowBase *b = baseOwning(zName);
  if (b == 0) {
    pthread_mutex_unlock(&registry);
    return pOrig->xAccess(pOrig, zName, flags, pResOut);
  }
  *pResOut = storeNamed(zName) != 0;
  pthread_mutex_unlock(&registry);
  return SQLITE_OK;
}

static int cowFullPathname(sqlite3_vfs *pVfs, const char *zName, int nOut, char *zOut) {
  pthread_mutex_lock(&registry);
  CowBase *b = baseOwning(zName);
  pthread_mutex_unlock(&registry);
  if (b == 0) return pOrig->xFullPathname(pOrig, zName, nOut, zOut);
  sqlite3_snprintf(nOut, zOut, "%s", zName);
  return SQLITE_OK;
}

static void *cowDlOpen(sqlite3_vfs *v, const char *z) { return pOrig->xDlOpen(pOrig, z); }
static void cowDlError(sqlite3_vfs *v, int n, char *z) { pOrig->xDlError(pOrig, n, z); }
static void (*cowDlSym(sqlite3_vfs *v, void *p, const char *z))(void) { return pOrig->xDlSym(pOrig, p, z); }
static void cowDlClose(sqlite3_vfs *v, void *p) { pOrig->xDlClose(pOrig, p); }
static int cowRandomness(sqlite3_vfs *v, int n, char *z) { return pOrig->xRandomness(pOrig, n, z); }
static int cowSleep(sqlite3_vfs *v, int n) { return pOrig->xSleep(pOrig, n); }
static int cowCurrentTime(sqlite3_vfs *v, double *p) { return pOrig->xCurrentTime(pOrig, p); }
static int cowGetLastError(sqlite3_vfs *v, int n, char *z) {
  return pOrig->xGetLastError ? pOrig->xGetLastError(pOrig, n, z) : 0;
}
static int cowCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *p) {
  return pOrig->xCurrentTimeInt64(pOrig, p);
}

/* ---- SQL functions ---------------------------------------------------------------------------------------------- */

static void fnBase(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_value_text(argv[0]);
  const char *zPath = (const char *)sqlite3_value_text(argv[1]);
  if (zName == 0 || zPath == 0) {
    sqlite3_result_error(ctx, "cow_base(name, path): name and path are required", -1);
    return;
  }
  pthread_mutex_lock(&registry);
  for (CowBase *b = bases; b; b = b->pNext)
    if (strcmp(b->zName, zName) == 0) {
      pthread_mutex_unlock(&registry);
      if (strcmp(b->zPath, zPath) != 0)
        sqlite3_result_error(ctx, "cow_base: that name is already the base of another file", -1);
      else
        sqlite3_result_int64(ctx, b->n);
      return;
    }
  int fd = open(zPath, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 100) {
    if (fd >= 0) close(fd);
    pthread_mutex_unlock(&registry);
    sqlite3_result_error(ctx, "cow_base: cannot read the image file (missing, or not a database)", -1);
    return;
  }
  void *a = mmap(0, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (a == MAP_FAILED) {
    pthread_mutex_unlock(&registry);
    sqlite3_result_error(ctx, "cow_base: cannot map the image file", -1);
    return;
  }
  const unsigned char *h = a;
  int pgsz = (h[16] << 8) | h[17];
  if (pgsz == 1) pgsz = 65536;
  if (memcmp(h, "SQLite format 3", 16) != 0 || pgsz < 512 || (pgsz & (pgsz - 1)) || st.st_size % pgsz) {
    munmap(a, st.st_size);
    pthread_mutex_unlock(&registry);
    sqlite3_result_error(ctx, "cow_base: the file is not an SQLite database image", -1);
    return;
  }
  CowBase *b = calloc(1, sizeof(*b));
  b->zName = strdup(zName);
  b->zPath = strdup(zPath);
  b->a = a;
  b->n = st.st_size;
  b->szChunk = pgsz;
  b->pNext = bases;
  bases = b;
  pthread_mutex_unlock(&registry);
  sqlite3_result_int64(ctx, b->n);
}

static void fnCopy(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zSrc = (const char *)sqlite3_value_text(argv[0]);
  const char *zDst = (const char *)sqlite3_value_text(argv[1]);
  pthread_mutex_lock(&registry);
  CowStore *src = zSrc ? storeNamed(zSrc) : 0;
  CowStore *old = zDst ? storeNamed(zDst) : 0;
  CowBase *b = baseOwning(zDst);
  const char *err = 0;
  if (src == 0) err = "cow_copy: there is no store by the source name";
  else if (b != src->pBase) err = "cow_copy: the destination name must name a store of the same base";
  else if (old && old->nOpen) err = "cow_copy: the destination store is open; close it first";
  if (err) {
    pthread_mutex_unlock(&registry);
    sqlite3_result_error(ctx, err, -1);
    return;
  }
  if (old) {
    storeUnlink(old);
    storeFree(old);
  }
  CowStore *dst = storeNew(zDst, b);
  dst->size = src->size;
  dst->baseLimit = src->baseLimit;
  int sz = b->szChunk;
  for (sqlite3_int64 d = 0; d < src->nDir; d++) {
    if (src->dir[d] == 0) continue;
    for (int j = 0; j < LEAF_SIZE; j++) {
      unsigned char *c = src->dir[d][j];
      if (c == 0) continue;
      unsigned char *copy = malloc(sz);
      memcpy(copy, c, sz);
      setChunk(dst, (d << LEAF_BITS) | j, copy);
    }
  }
  pthread_mutex_unlock(&registry);
  sqlite3_result_int64(ctx, dst->nChunk);
}

static void fnDrop(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_value_text(argv[0]);
  pthread_mutex_lock(&registry);
  CowStore *s = zName ? storeNamed(zName) : 0;
  if (s && s->nOpen) {
    pthread_mutex_unlock(&registry);
    sqlite3_result_error(ctx, "cow_drop: the store is open; close its database first", -1);
    return;
  }
  if (s) {
    storeUnlink(s);
    storeFree(s);
  }
  pthread_mutex_unlock(&registry);
  sqlite3_result_int(ctx, s != 0);
}

static void fnChunks(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_value_text(argv[0]);
  pthread_mutex_lock(&registry);
  CowStore *s = zName ? storeNamed(zName) : 0;
  if (s) sqlite3_result_int64(ctx, s->nChunk);
  else sqlite3_result_null(ctx);
  pthread_mutex_unlock(&registry);
}

static void fnSize(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_value_text(argv[0]);
  pthread_mutex_lock(&registry);
  CowStore *s = zName ? storeNamed(zName) : 0;
  if (s) sqlite3_result_int64(ctx, s->size);
  else sqlite3_result_null(ctx);
  pthread_mutex_unlock(&registry);
}

static void fnPage(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *zName = (const char *)sqlite3_value_text(argv[0]);
  pthread_mutex_lock(&registry);
  CowStore *s = zName ? storeNamed(zName) : 0;
  if (s) sqlite3_result_int(ctx, s->pBase->szChunk);
  else sqlite3_result_null(ctx);
  pthread_mutex_unlock(&registry);
}

static void fnTotal(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sqlite3_int64 bytes = 0;
  pthread_mutex_lock(&registry);
  for (CowStore *s = stores; s; s = s->pNext) bytes += s->nChunk * (sqlite3_int64)s->pBase->szChunk;
  pthread_mutex_unlock(&registry);
  sqlite3_result_int64(ctx, bytes);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_cowvfs_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  pthread_mutex_lock(&registry);
  if (pOrig == 0) {
    pOrig = sqlite3_vfs_find(0);
    if (pOrig == 0) {
      pthread_mutex_unlock(&registry);
      return SQLITE_ERROR;
    }
    cowVfs.iVersion = 2;
    cowVfs.szOsFile = pOrig->szOsFile > (int)sizeof(CowFile) ? pOrig->szOsFile : (int)sizeof(CowFile);
    cowVfs.mxPathname = pOrig->mxPathname;
    cowVfs.zName = COW_VFS_NAME;
    cowVfs.xOpen = cowOpen;
    cowVfs.xDelete = cowDelete;
    cowVfs.xAccess = cowAccess;
    cowVfs.xFullPathname = cowFullPathname;
    cowVfs.xDlOpen = cowDlOpen;
    cowVfs.xDlError = cowDlError;
    cowVfs.xDlSym = cowDlSym;
    cowVfs.xDlClose = cowDlClose;
    cowVfs.xRandomness = cowRandomness;
    cowVfs.xSleep = cowSleep;
    cowVfs.xCurrentTime = cowCurrentTime;
    cowVfs.xGetLastError = cowGetLastError;
    cowVfs.xCurrentTimeInt64 = cowCurrentTimeInt64;
    int rc = sqlite3_vfs_register(&cowVfs, 1);
    if (rc != SQLITE_OK) {
      pOrig = 0;
      pthread_mutex_unlock(&registry);
      return rc;
    }
  }
  pthread_mutex_unlock(&registry);
  int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  sqlite3_create_function(db, "cow_base", 2, flags, 0, fnBase, 0, 0);
  sqlite3_create_function(db, "cow_copy", 2, flags, 0, fnCopy, 0, 0);
  sqlite3_create_function(db, "cow_drop", 1, flags, 0, fnDrop, 0, 0);
  sqlite3_create_function(db, "cow_chunks", 1, flags, 0, fnChunks, 0, 0);
  sqlite3_create_function(db, "cow_size", 1, flags, 0, fnSize, 0, 0);
  sqlite3_create_function(db, "cow_page", 1, flags, 0, fnPage, 0, 0);
  sqlite3_create_function(db, "cow_total", 0, flags, 0, fnTotal, 0, 0);
  /* The VFS stays registered after this connection closes, so the library must stay loaded. */
  return SQLITE_OK_LOAD_PERMANENTLY;
}
