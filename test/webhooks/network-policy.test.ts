import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { isLocalName, isPublicAddress, literalAddress } from '../../src/webhooks/network-policy.js';

describe('isPublicAddress', () => {
  test('refuses every special-purpose range', () => {
    const refused = {
      loopback: ['127.0.0.1', '127.255.255.254', '::1'],
      rfc1918: ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1'],
      linkLocal: ['169.254.0.1', '169.254.169.254', 'fe80::1'],
      cgnat: ['100.64.0.1', '100.127.255.254'],
      multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'],
      reserved: ['0.0.0.0', '240.0.0.1', '255.255.255.255', '192.0.2.1', '198.51.100.1', '203.0.113.1', '198.18.0.1', '2001:db8::1'],
      ula: ['fc00::1', 'fd00:ec2::254'],
      mapped: ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:8.8.8.8'],
      nat64: ['64:ff9b::7f00:1', '64:ff9b::808:808'],
      tunnels: ['2002:7f00:1::1', '2001:0:4136:e378::1'],
      unspecified: ['::'],
      ipv4Compatible: ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::8.8.8.8', '::a00:1'],
      notGlobalUnicast: ['4000::1', 'e000::1', '100::1'],
    };
    for (const [range, addresses] of Object.entries(refused)) {
      for (const a of addresses) assert.equal(isPublicAddress(a), false, `${range} ${a}`);
    }
  });

  test('accepts globally routable unicast', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      assert.equal(isPublicAddress(a), true, a);
    }
  });

  test('refuses what is not an address', () => {
    for (const a of ['', 'example.com', '1.2.3', '::g']) assert.equal(isPublicAddress(a), false, a);
  });
});

describe('literalAddress and isLocalName', () => {
  test('literal IPv4 and bracketed IPv6 are recognised; names are not', () => {
    assert.equal(literalAddress('10.0.0.1'), '10.0.0.1');
    assert.equal(literalAddress('[::1]'), '::1');
    assert.equal(literalAddress('example.com'), undefined);
  });
  test('brackets are taken off only as a pair', () => {
    // Each of these would be an address with its first and last characters cut off.
    for (const h of ['[1.2.3.45', '91.2.3.4]', '[::12', '9::1]']) assert.equal(literalAddress(h), undefined, h);
    assert.equal(literalAddress('[1.2.3.4]'), '1.2.3.4');
  });
  test('localhost names are local whatever DNS says', () => {
    for (const n of ['localhost', 'LOCALHOST', 'a.localhost', 'localhost.']) assert.equal(isLocalName(n), true, n);
    for (const n of ['localhost.example.com', 'mylocalhost']) assert.equal(isLocalName(n), false, n);
  });
});
