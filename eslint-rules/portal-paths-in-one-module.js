// The candidate portal's paths are built by src/domain/portal-paths.ts alone: a string or template
// that spells the portal's prefix anywhere else is a second copy of a path that will drift.
const PREFIX = '/anonymous/analyse';

export default {
  meta: {
    type: 'problem',
    docs: { description: `forbids '${PREFIX}' in a string or template outside the module of portal paths` },
    messages: { elsewhere: `Portal paths come from src/domain/portal-paths.ts: call its functions instead of spelling '${PREFIX}'` },
    schema: [],
  },
  create(context) {
    return {
      Literal(node) {
        if (typeof node.value === 'string' && node.value.includes(PREFIX)) context.report({ node, messageId: 'elsewhere' });
      },
      TemplateElement(node) {
        if (node.value.raw.includes(PREFIX)) context.report({ node, messageId: 'elsewhere' });
      },
    };
  },
};
