// IndexedDB for the workspace: the replica's rows per network, each under a
// key that names what it is about (web/src/storage.rs decides the keys), so a
// row replaces the one it updates and a removal deletes it. Log entries
// (keys `l:{seq}`) are trimmed to the newest ones after each write; start-up
// reads those and the few other rows, never a history of changes.
//
// Version 1 appended every row to the store `rows`; its rows are taken over
// once per network (appendedRows, kept compacted, then dropAppendedRows).

const DB_NAME = 'agentnet';
const KEPT = 'kept';
const APPENDED = 'rows';
const LOG = 'l:';
const LOG_END = 'l:\uffff';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(KEPT)) db.createObjectStore(KEPT, { keyPath: ['network', 'key'] });
      if (!db.objectStoreNames.contains(APPENDED)) {
        db.createObjectStore(APPENDED, { keyPath: 'n', autoIncrement: true }).createIndex('network', 'network');
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let db = null;
function database() {
  db ??= open();
  return db;
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

function result(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Deletes `network`'s log entries older than the newest `kept`. */
function trimLog(store, network, kept) {
  const log = IDBKeyRange.bound([network, LOG], [network, LOG_END]);
  const cursor = store.openKeyCursor(log, 'prev');
  let skipped = false;
  cursor.onsuccess = () => {
    const at = cursor.result;
    if (!at) return;
    if (!skipped) {
      skipped = true;
      at.advance(kept);
      return;
    }
    // `at` is the newest entry beyond the kept ones: it and everything older go.
    store.delete(IDBKeyRange.bound([network, LOG], at.primaryKey));
  };
}

/**
 * Applies `opsJson` (JSON text of `[{key, row}` to keep, `{key, delete: true}` to forget`]`)
 * for `network` in one transaction, then keeps the newest `logKept` log entries.
 */
export async function writeRows(network, opsJson, logKept) {
  const ops = JSON.parse(opsJson);
  if (ops.length === 0) return;
  const transaction = (await database()).transaction(KEPT, 'readwrite');
  const store = transaction.objectStore(KEPT);
  let logged = false;
  for (const op of ops) {
    if (op.delete) {
      store.delete([network, op.key]);
    } else {
      store.put({ network, key: op.key, row: op.row });
      logged ||= op.key.startsWith(LOG);
    }
  }
  if (logged) trimLog(store, network, logKept);
  await done(transaction);
}

/** The rows kept for `network`, in key order, as JSON text of an array. */
export async function loadRows(network) {
  const store = (await database()).transaction(KEPT, 'readonly').objectStore(KEPT);
  const [before, log, after] = await Promise.all([
    result(store.getAll(IDBKeyRange.bound([network, ''], [network, LOG], false, true))),
    result(store.getAll(IDBKeyRange.bound([network, LOG], [network, LOG_END]))),
    result(store.getAll(IDBKeyRange.bound([network, LOG_END], [network, '\uffff'], true, false))),
  ]);
  return JSON.stringify([...before, ...log, ...after].map((r) => r.row));
}

/** Rows version 1 appended for `network`, oldest first, as JSON text of an array. */
export async function appendedRows(network) {
  const store = (await database()).transaction(APPENDED, 'readonly').objectStore(APPENDED);
  const records = await result(store.index('network').getAll(IDBKeyRange.only(network)));
  records.sort((a, b) => a.n - b.n);
  return JSON.stringify(records.map((r) => r.row));
}

/** Forgets the rows version 1 appended for `network` (once they are kept compacted). */
export async function dropAppendedRows(network) {
  const transaction = (await database()).transaction(APPENDED, 'readwrite');
  const keys = await result(transaction.objectStore(APPENDED).index('network').getAllKeys(IDBKeyRange.only(network)));
  for (const key of keys) transaction.objectStore(APPENDED).delete(key);
  await done(transaction);
}

/** A value kept across reloads (the person's name per network). */
export function remembered(key) {
  return localStorage.getItem(`agentnet:${key}`);
}

/** Keeps a value across reloads. */
export function remember(key, value) {
  try {
    localStorage.setItem(`agentnet:${key}`, value);
  } catch {
    // Over the origin's quota: this value is a cache; the replica's rows in IndexedDB are what counts.
  }
}

// Small values kept across reloads in IndexedDB (the read markers), beside
// the replica's rows but under a network name no network has, so loadRows
// never sees them.
const VALUES = '~values';

/** The value kept under `key`, or null. */
export async function keptValue(key) {
  try {
    const store = (await database()).transaction(KEPT, 'readonly').objectStore(KEPT);
    const record = await result(store.get([VALUES, key]));
    return record ? record.row : null;
  } catch {
    return null;
  }
}

/** Keeps `value` (text) under `key`; true once stored. */
export async function keepValue(key, value) {
  try {
    const transaction = (await database()).transaction(KEPT, 'readwrite');
    transaction.objectStore(KEPT).put({ network: VALUES, key, row: value });
    await done(transaction);
    return true;
  } catch {
    return false;
  }
}
