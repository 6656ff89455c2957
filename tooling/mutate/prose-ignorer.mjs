// A Stryker ignorer (https://stryker-mutator.io/docs/stryker-js/configuration#ignorers-string):
// the mutants of a refusal's or an error's message text are equivalent for conformance. The spec
// fixes every refusal's code and data, never the wording of its message (docs/protocol.md: the
// message is for people), so no golden case can or should see `""` in place of a sentence.
// Stryker reports these mutants as ignored, with the reason below, outside the score.
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const REASON =
  'message text: the spec fixes refusal codes and data, never the wording of a message (docs/conformance-quality.md)';

/** The static text of a string or template literal, or null for any other node. */
function textOf(node) {
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('');
  return null;
}

const calleeName = (callee) =>
  callee.type === 'Identifier'
    ? callee.name
    : callee.type === 'MemberExpression'
      ? callee.property?.name
      : null;

class ProseIgnorer {
  shouldIgnore(path) {
    const text = textOf(path.node);
    if (text === null) return undefined;
    const parent = path.parent;
    // `{ message: '...' }`
    if (parent.type === 'ObjectProperty' && parent.value === path.node) {
      const key = parent.key.type === 'Identifier' ? parent.key.name : parent.key.value;
      return key === 'message' ? REASON : undefined;
    }
    // `refuse(code, '...')`, `new Error('...')`: a sentence handed to a refusal or an error.
    if (
      (parent.type === 'CallExpression' || parent.type === 'NewExpression') &&
      parent.arguments.includes(path.node)
    ) {
      const name = calleeName(parent.callee) ?? '';
      if (/Error$/.test(name)) return REASON;
      if (/^refus/i.test(name) && parent.arguments.indexOf(path.node) > 0 && text.includes(' '))
        return REASON;
    }
    return undefined;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'prose', ProseIgnorer)];
