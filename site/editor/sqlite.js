// The browser's SQLite for the idempotency ledger (DOMAIN.md §4): SQLite's
// own WebAssembly build (@sqlite.org/sqlite-wasm, pinned by the lockfile),
// which V8 compiles to machine code, behind the few calls ledger.wasm's Go
// makes (wasm/ledgerdb.go). It replaces, in the browser only, SQLite run
// inside wazero's interpreter inside Go's WebAssembly (ncruces/go-sqlite3),
// which was 40-100x slower there (a ledger lesson page took 13 s
// to be ready and 382 ms per control change). Native builds keep
// ncruces/go-sqlite3 (engine/ledger/sqlite); both are SQLite 3.54.1.
//
// build-sqlite.mjs bundles this file into site/static/sqlite.js, loaded by
// the engine worker (worker.js, importScripts) and, for the synchronous
// mcplab.run of tests and scripts, by the page (app.js), and copies
// sqlite3.wasm beside it. It defines self.mcplabSQLiteInit(wasmURL), a
// Promise of the API below, which both store as self.mcplabSQLite.
//
// Databases are in the memdb VFS under a name beginning with "/", shared
// by every connection of the worker, with SQLite's own locks between them
// (BEGIN IMMEDIATE answers SQLITE_BUSY at once: no busy timeout), as
// engine/ledger/sqlite's memdb natively.
//
//   open(name)             a new connection to database name ("/..."):
//                          a handle (number > 0), or {code, message}
//   exec(h, sql)           runs one or more statements without parameters
//   query(h, sql, params)  runs one statement, prepared once per connection
//                          and reused; params an array of strings and
//                          numbers (bound 1..n; an integral number as an integer)
//   autocommit(h)          true when no transaction is open
//   close(h)               closes the connection and its statements
//
// exec and query answer {rows} (arrays of column values: numbers and
// strings) or {code, message} when SQLite failed (code is the extended
// result code: 5 is SQLITE_BUSY). They never throw.
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";

self.mcplabSQLiteInit = async (wasmURL) => {
  const sqlite3 = await sqlite3InitModule({
    locateFile: () => wasmURL,
    // SQLite logs a failed step (SQLITE_BUSY is an expected answer in a
    // ledger race): keep the console for real errors.
    print: () => {},
    printErr: () => {},
  });
  // A failed step is also logged through config.warn (and SQLITE_BUSY in a
  // race, or a duplicate key, are answers the ledger expects): the caller
  // gets {code, message} instead, so the console stays for real errors.
  sqlite3.config.warn = () => {};
  sqlite3.config.debug = () => {};
  const { oo1, capi } = sqlite3;
  const conns = new Map();
  let next = 0;
  const failure = (e) => ({ code: typeof e.resultCode === "number" ? e.resultCode : 1, message: String((e && e.message) || e) });
  return {
    version: sqlite3.version.libVersion,
    open(name) {
      try {
        const db = new oo1.DB({ filename: "file:" + name + "?vfs=memdb", flags: "c" });
        conns.set(++next, { db, stmts: new Map() });
        return next;
      } catch (e) {
        return failure(e);
      }
    },
    exec(h, sql) {
      const c = conns.get(h);
      if (!c) return { code: 21, message: "no such connection" };
      try {
        c.db.exec(sql);
        return { rows: [] };
      } catch (e) {
        return failure(e);
      }
    },
    query(h, sql, params) {
      const c = conns.get(h);
      if (!c) return { code: 21, message: "no such connection" };
      let st = c.stmts.get(sql);
      try {
        if (!st) {
          st = c.db.prepare(sql);
          c.stmts.set(sql, st);
        }
        if (params && params.length) {
          st.bind(params);
        }
        const rows = [];
        while (st.step()) rows.push(st.get([]));
        return { rows };
      } catch (e) {
        return failure(e);
      } finally {
        // sqlite3_reset repeats a failed step's error, which oo1 throws:
        // the failure is already answered above.
        if (st) {
          try {
            st.reset(true);
          } catch {}
        }
      }
    },
    autocommit(h) {
      const c = conns.get(h);
      return !c || capi.sqlite3_get_autocommit(c.db.pointer) !== 0;
    },
    close(h) {
      const c = conns.get(h);
      if (!c) return;
      conns.delete(h);
      for (const st of c.stmts.values()) st.finalize();
      c.db.close();
    },
  };
};
