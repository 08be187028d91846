// IndexedDB for the workspace: an append-only list of replica rows per network.
// The Rust side (web/src/storage.rs) decides what the rows are; this file only
// stores and returns them, in the order they were written.

const DB_NAME = 'agentnet';
const STORE = 'rows';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'n', autoIncrement: true });
      store.createIndex('network', 'network');
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

/** Appends rows (JSON text of an array) for `network`, in one transaction. */
export async function appendRows(network, rowsJson) {
  const rows = JSON.parse(rowsJson);
  if (rows.length === 0) return;
  const store = (await database()).transaction(STORE, 'readwrite').objectStore(STORE);
  for (const row of rows) store.add({ network, row });
  await new Promise((resolve, reject) => {
    store.transaction.oncomplete = resolve;
    store.transaction.onerror = () => reject(store.transaction.error);
  });
}

/** Every row stored for `network`, oldest first, as JSON text of an array. */
export async function loadRows(network) {
  const store = (await database()).transaction(STORE, 'readonly').objectStore(STORE);
  const request = store.index('network').getAll(IDBKeyRange.only(network));
  const records = await new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  records.sort((a, b) => a.n - b.n);
  return JSON.stringify(records.map((r) => r.row));
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
