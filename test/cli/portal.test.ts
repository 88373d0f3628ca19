import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { FormClient, startPath } from '../helpers/forms.js';
import { request } from '../helpers/http.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

suiteOnEachDatabase(
  'bin/assay portal set and show',
  { tenant: { portalDomain: ({ db }) => `https://face-${db}.example.test` } },
  ({ server, creds, cliEnv: env }) => {
    const cli = (...args: string[]) => runCli(['portal', ...args], env);

    test('settings are checked: a colour too light for white text, a file that is no image, an SVG with script', async () => {
      const light = await cli('set', '--portal-domain', creds.portalDomain, '--colour', '#ffd700');
      assert.equal(light.code, 1);
      assert.match(light.stderr, /contrast of 1\.\d\d:1 with white text; WCAG AA needs 4\.5:1/);
      const text = join(server.dataDir, 'logo.txt');
      writeFileSync(text, 'not an image');
      assert.match((await cli('set', '--key', creds.apiKeyId, '--logo', text)).stderr, /must be a PNG, JPEG, WebP or SVG/);
      const svg = join(server.dataDir, 'logo.svg');
      writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
      assert.match((await cli('set', '--key', creds.apiKeyId, '--logo', svg)).stderr, /script or event handlers/);
      const big = join(server.dataDir, 'big.png');
      writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(300 * 1024)]));
      assert.match((await cli('set', '--key', creds.apiKeyId, '--logo', big)).stderr, /at most 256 KiB/);
      assert.match((await cli('set', '--key', creds.apiKeyId, '--contact', 'nope')).stderr, /must be an e-mail address/);
      assert.match((await cli('set', '--portal-domain', 'https://nowhere.example.test', '--name', 'X')).stderr, /No active API key on/);
    });

    test('set, then show; the logo is served from the portal with a year of caching, and only at its own hash', async () => {
      const logo = join(server.dataDir, 'ok.png');
      writeFileSync(logo, PNG);
      const set = await cli('set', '--portal-domain', creds.portalDomain, '--name', 'Acme', '--logo', logo, '--colour', '#0b5394', '--json');
      assert.equal(set.code, 0, set.stderr);
      const shown = JSON.parse((await cli('show', '--key', creds.apiKeyId, '--json')).stdout);
      assert.deepEqual([shown.organisationName, shown.logo, shown.colour, shown.candidateFeedback], ['Acme', 'image/png', '#0b5394', false]);

      const a = await newAssessment(server.url, creds);
      const page = await new FormClient(server.url).get(startPath(a.id));
      const src = /<img class="logo" src="([^"]+)"/.exec(page.html)![1]!;
      const img = await request(server.url + src);
      assert.equal(img.status, 200);
      assert.equal(img.headers.get('content-type'), 'image/png');
      assert.match(img.headers.get('cache-control') ?? '', /max-age=31536000/);
      assert.match(img.headers.get('content-security-policy') ?? '', /sandbox/);
      assert.equal((await request(server.url + src.replace(/[0-9a-f]{16}$/, '0000000000000000'))).status, 404);
      const theme = /<link rel="stylesheet" href="(\/anonymous\/analyse\/theme\/[^"]+)"/.exec(page.html)![1]!;
      assert.match((await request(server.url + theme)).text, /--brand: #0b5394/);

      const cleared = await cli('set', '--key', creds.apiKeyId, '--logo', '', '--name', '', '--json');
      assert.equal(cleared.code, 0, cleared.stderr);
      const plain = await new FormClient(server.url).get(startPath(a.id));
      assert.doesNotMatch(plain.html, /class="logo"/);
      assert.match(plain.html, /<span class="brand"><span>Assay<\/span><\/span>/, 'without settings the portal looks as before');
      assert.equal((await request(server.url + src)).status, 404, 'a removed logo is gone');
    });
  },
);
