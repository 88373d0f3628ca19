// Store functions take one kind of handle: the store, or a transaction that `store.write` handed out.
// The store's raw Kysely instance (`store.db`) stays in src/db and the rooms' `*-store.ts` files; there
// it is only the receiver of a read (`store.db.selectFrom(…)`) or the argument of a query builder the
// file keeps to itself (neither imported nor exported). A call that hands it on elsewhere would let a
// function written for a transaction run outside one.
const OWN_BUILDER = new Set(['FunctionName', 'Variable']);

/** Whether `callee` names a function declared in this module and not exported. */
function isPrivateBuilder(context, callee) {
  if (callee.type !== 'Identifier') return false;
  for (let scope = context.sourceCode.getScope(callee); scope; scope = scope.upper) {
    const variable = scope.set.get(callee.name);
    if (!variable) continue;
    const def = variable.defs[0];
    if (!def || !OWN_BUILDER.has(def.type)) return false;
    const declaration = def.type === 'Variable' ? def.node.parent : def.node;
    const exported =
      declaration.parent?.type === 'ExportNamedDeclaration' ||
      declaration.parent?.type === 'ExportDefaultDeclaration' ||
      variable.references.some((r) => r.identifier.parent?.type === 'ExportSpecifier');
    return !exported;
  }
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "keeps the store's raw Kysely instance (`.db`) inside src/db and the reads of a *-store.ts" },
    messages: {
      outside: "The store's raw handle (`.db`) stays in src/db and the *-store.ts files: pass the store, or the transaction from store.write",
      handedOn:
        "In a *-store.ts, `.db` only starts a read (`store.db.selectFrom(…)`) or goes to this file's own query builder: pass the store (`read(store, query)` from db/prepared.ts) or a transaction",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename.replaceAll('\\', '/');
    if (/\/src\/db\//.test(file)) return {};
    const inStore = /-store\.ts$/.test(file);
    return {
      MemberExpression(node) {
        if (node.computed || node.property.type !== 'Identifier' || node.property.name !== 'db') return;
        if (!inStore) return context.report({ node, messageId: 'outside' });
        const parent = node.parent;
        const readsFrom = parent.type === 'MemberExpression' && parent.object === node && !parent.computed && parent.property.name === 'selectFrom';
        const toOwnBuilder = parent.type === 'CallExpression' && parent.arguments.includes(node) && isPrivateBuilder(context, parent.callee);
        if (!readsFrom && !toOwnBuilder) context.report({ node, messageId: 'handedOn' });
      },
      // `const { db } = store` and `({ db }: Store) => …` hand it on as well.
      'ObjectPattern > Property'(node) {
        if (!node.computed && node.key.type === 'Identifier' && node.key.name === 'db') context.report({ node, messageId: inStore ? 'handedOn' : 'outside' });
      },
    };
  },
};
