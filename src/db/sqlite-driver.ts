import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3, in the version that is sound on this Node.js. Version 12 wraps its objects with
 * node::ObjectWrap, which aborts on Node.js 24.19 and later when a statement is collected after
 * its thread's environment is gone (nodejs/node#65446). Version 13 is built on Node-API and ships
 * prebuilt addons, but needs Node.js 22 or later and crashes on 20. So: 13 from Node.js 24 on
 * (an optional dependency, installed as better-sqlite3-napi), 12 before that. Their APIs agree.
 */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

function load(): typeof BetterSqlite3 {
  if (NODE_MAJOR < 24) return require('better-sqlite3');
  try {
    return require('better-sqlite3-napi');
  } catch (error) {
    throw new Error(
      `Node.js ${process.versions.node} needs better-sqlite3 13 (better-sqlite3-napi), which npm installs only under Node.js 22 or later: run npm ci with this Node.js (${(error as Error).message})`,
    );
  }
}

export const Database = load();
