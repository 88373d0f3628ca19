import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { AA_CONTRAST, contrastRatio, darken } from '../../src/domain/colour.js';
import { logoType } from '../../src/domain/logo.js';

describe('portal face checks', () => {
  test('contrast follows WCAG 2: black on white is 21:1, and the default brand passes AA', () => {
    assert.equal(Math.round(contrastRatio('#000000', '#ffffff')), 21);
    assert.ok(contrastRatio('#1d4ed8', '#ffffff') >= AA_CONTRAST);
    assert.ok(contrastRatio('#ffd700', '#ffffff') < AA_CONTRAST);
    assert.equal(darken('#646464', 0.5), '#323232');
  });

  test('logos are recognised by their bytes', () => {
    assert.deepEqual(logoType(Buffer.from('89504e470d0a1a0a00', 'hex')), { type: 'image/png' });
    assert.deepEqual(logoType(Buffer.from('ffd8ffe000', 'hex')), { type: 'image/jpeg' });
    assert.deepEqual(logoType(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="x"></svg>')), { type: 'image/svg+xml' });
    assert.ok('problem' in logoType(Buffer.from('<svg><script>x</script></svg>')));
    assert.ok('problem' in logoType(Buffer.from('GIF89a')));
    assert.ok('problem' in logoType(Buffer.alloc(0)));
  });
});
