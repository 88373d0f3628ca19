import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';

const LINK = /https?:\/\/[^\s"<>]+\/anonymous\/analyse\/[A-Za-z0-9_-]+\/resume\/[A-Za-z0-9_-]{22}/;

suiteOnEachDatabase(
  "the invitation's personal link opens the candidate's session on another device",
  { smtp: true, env: { PORTAL_CODE_GUESSES_PER_ASSESSMENT: '2' } },
  ({ server, sink, creds }) => {
    test("after Start on one device, the link from the mailbox moves the session to another on the candidate's say-so, cutting off the first, and still does once wrong codes have used up the bound", async () => {
      const to = address();
      const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
      const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined));
      const link = new URL(LINK.exec(m!.parsed.text ?? '')![0]);
      assert.ok(link.pathname.startsWith(`/anonymous/analyse/${a.id}/resume/`));
      const q1 = `/anonymous/analyse/${a.id}/questions/1`;

      const laptop = new FormClient(server.url);
      assert.equal((await laptop.submit(startPath(a.id), {})).status, 303);

      const forged = new FormClient(server.url);
      const wrong = await forged.get(link.pathname.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
      assert.equal(wrong.location, startPath(a.id));
      const refused = await forged.get(wrong.location!);
      assert.equal(refused.status, 403, 'a wrong token gives no credential');
      assert.match(refused.html, /started on another device/);

      /** Opens the link in `browser` and says "go on here"; the page it then shows. */
      const moveTo = async (browser: FormClient) => {
        const asked = await browser.get(link.pathname);
        assert.equal(asked.status, 200);
        assert.match(asked.html, /Go on with the questionnaire on this device\?/);
        // Opening it (as a mail scanner does too) moves nothing.
        assert.equal((await browser.get(q1)).status, 403);
        const moved = await browser.post(link.pathname, { _csrf: csrfToken(asked.html) });
        assert.equal(moved.location, startPath(a.id));
        const resumed = await browser.get(moved.location!);
        assert.equal(resumed.status, 200);
        assert.match(resumed.html, /Welcome back/);
        return resumed;
      };

      // The laptop has a page open (its session kept for its post) when the session moves.
      const open = await laptop.get(q1);
      const phone = new FormClient(server.url);
      const onPhone = await moveTo(phone);
      const late: Record<string, string> = { _csrf: csrfToken(open.html), nav: 'next' };
      for (const n of itemNames(open.html)) late[n] = '5';
      assert.equal((await laptop.post(q1, late)).status, 403, 'the page open before the move saves nothing');
      assert.doesNotMatch((await phone.get(q1)).html, /checked/);
      assert.equal((await phone.get(q1)).status, 200);
      const cut = await laptop.get(q1);
      assert.equal(cut.status, 403, 'the first browser is cut off');
      assert.match(cut.html, /started on another device/);
      // The phone shows a new code; it lets the laptop back in.
      const code = /<strong class="code">([0-9A-Z-]{14})<\/strong>/.exec(onPhone.html)![1]!;
      assert.equal((await laptop.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(cut.html), code })).location, q1);

      // Wrong codes use up the assessment's bound: the code is refused from then on, the personal link is not.
      for (const expected of [400, 400, 429]) {
        const asked = await forged.get(startPath(a.id));
        const posted = await forged.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(asked.html), code: '0000-0000-0000' });
        assert.equal(posted.status, expected);
      }
      const tablet = new FormClient(server.url);
      await moveTo(tablet);
      assert.equal((await tablet.get(q1)).status, 200);
    });
  },
);
