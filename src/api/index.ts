import type { App, Deps } from '../app-types.js';
import { DomainError } from '../domain/errors.js';
import { WindowLimiter } from '../security/window-limiter.js';
import type { Caller } from './auth.js';
import { countAgainstKey } from '../http/key-limit.js';
import { analysisResult } from './routes/analysis-result.js';
import { assessmentCancel } from './routes/assessment-cancel.js';
import { assessmentCreate } from './routes/assessment-create.js';
import { assessmentGet } from './routes/assessment-get.js';
import { assessmentList } from './routes/assessment-list.js';
import { candidateCreate } from './routes/candidate-create.js';
import { candidateDelete } from './routes/candidate-delete.js';
import { candidateGet } from './routes/candidate-get.js';
import { report } from './routes/report.js';
import { reportLinksRevoke } from './routes/report-links-revoke.js';
import { webhookLog } from './routes/webhook-log.js';
import { webhookRedeliver } from './routes/webhook-redeliver.js';
import { assessmentEmails } from './routes/assessment-emails.js';
import { assessmentInvitation } from './routes/assessment-invitation.js';
import { assessmentTypes } from './routes/assessment-types.js';

function isJson(contentType: string | undefined): boolean {
  // The exact common spelling needs no splitting or case folding.
  return contentType === 'application/json' || (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The caller-facing API under /api: JSON only, authenticated on every request. */
export async function apiPlugin(app: App, deps: Deps): Promise<void> {
  // Fastify also parses text/plain by default; the API speaks JSON and nothing else.
  app.removeContentTypeParser('text/plain');

  // Counted after authentication: only real keys have a budget.
  const perKey = new WindowLimiter(deps.config.rateLimit.perKeyPerMinute);
  // Callback hooks rather than async ones: on the hot path (a cached caller) nothing is awaited.
  app.addHook('onRequest', (request, reply, done) => {
    let result: Caller | Promise<Caller>;
    try {
      result = deps.authenticator.authenticate(headerValue(request.headers['api-key']), headerValue(request.headers.authorization), request.ip);
    } catch (error) {
      return done(error as Error);
    }
    if (!(result instanceof Promise)) {
      request.caller = result;
      return done(countAgainstKey(perKey, result.apiKeyId, reply));
    }
    result.then((caller) => {
      request.caller = caller;
      done(countAgainstKey(perKey, caller.apiKeyId, reply));
    }, done);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    // A POST that sends a body sends JSON; one without (redeliver) needs no Content-Type.
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (request.method === 'POST' && hasBody && !isJson(request.headers['content-type'])) {
      return done(new DomainError('UnsupportedMediaType', 'Content-Type must be application/json'));
    }
    done();
  });

  candidateCreate(app, deps);
  assessmentCreate(app, deps);
  assessmentGet(app, deps);
  assessmentList(app, deps);
  analysisResult(app, deps);
  report(app, deps);
  reportLinksRevoke(app, deps);
  assessmentCancel(app, deps);
  candidateGet(app, deps);
  candidateDelete(app, deps);
  webhookLog(app, deps);
  webhookRedeliver(app, deps);
  assessmentInvitation(app, deps);
  assessmentEmails(app, deps);
  assessmentTypes(app, deps);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
