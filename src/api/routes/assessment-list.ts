import { Type } from 'typebox';
import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentView } from '../../schemas/assessment.js';
import { Envelope } from '../../schemas/envelopes.js';
import { apiErrors } from '../../schemas/errors.js';
import { ExternalId } from '../../schemas/fields.js';
import { ListCursors } from '../../assessments/list-cursor.js';
import { listOwnAssessments, type AssessmentFilter } from '../../assessments/list-store.js';
import { caseInsensitiveQuery } from '../case-insensitive.js';
import { assessmentViews } from '../../assessments/views.js';
import { assessmentStatus } from '../assessment-view.js';

const Instant = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });

const ListQuery = Type.Object({
  Status: Type.Optional(
    Type.Enum(['Created', 'Started', 'Completed', 'Expired', 'Cancelled'], { description: 'Only assessments with this Status (as the lookup shows it).' }),
  ),
  ExternalId: Type.Optional({ ...ExternalId, description: "Only this candidate's assessments." }),
  UpdatedSince: Type.Optional(
    Instant(
      'Only assessments changed at or after this instant (ISO 8601 with a time zone): created, started, answered, completed, cancelled or released. Expiry is no change: ask Status=Expired. Ordered by that change.',
    ),
  ),
  CompletedSince: Type.Optional(Instant('Only assessments completed at or after this instant (ISO 8601 with a time zone). Ordered by CompletedAt.')),
  Limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'At most this many a page: 1 to 100, default 50.' })),
  Cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: "The previous page's Cursor, unchanged, with the same filters." })),
});

const AssessmentList = Envelope(
  Type.Object({
    Assessments: Type.Array(AssessmentView),
    Cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as Cursor for the next page; null on the last page.' }),
  }),
  200,
);

/** An instant as stored (toISOString), so it compares as text with the rows' timestamps. */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new DomainError('ValidationError', `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T00:00:00Z`, { field, rule: 'format' });
  return new Date(at).toISOString();
}

/** Beyond the spec: the tenant's assessments, page by page, so an ATS that missed a webhook can reconcile. */
export function assessmentList(app: App, deps: Deps): void {
  const cursors = new ListCursors(deps.secretBox.derive('assessment-list-cursor'));
  app.get(
    '/api/anonymous/assessments',
    {
      preValidation: caseInsensitiveQuery(ListQuery),
      schema: {
        summary: "List the tenant's assessments (extension)",
        description:
          'Not in the original specification. Your own assessments, each as the lookup shows it, at most Limit a page, filtered by any of the parameters together. ' +
          'Walk the pages by passing each Cursor back; the last page has Cursor null. Without UpdatedSince a walk sees each assessment once, and ones created during it at its end; ' +
          "with UpdatedSince one that changes during the walk comes again at its end. To reconcile, walk from your last walk's start, less a minute. See docs/API.md.",
        tags: ['Extensions'],
        querystring: ListQuery,
        response: { 200: AssessmentList, ...apiErrors({ body: false }) },
      },
    },
    async (request, reply) => {
      const tenantId = request.caller!.tenantId;
      const q = request.query;
      const filter: AssessmentFilter = {
        status: q.Status as AssessmentFilter['status'],
        externalId: q.ExternalId,
        updatedSince: instant(q.UpdatedSince, 'UpdatedSince'),
        completedSince: instant(q.CompletedSince, 'CompletedSince'),
      };
      const after = q.Cursor === undefined ? undefined : cursors.decode(tenantId, filter, q.Cursor);
      const { rows, next } = await listOwnAssessments(deps.store, tenantId, filter, { after, limit: q.Limit ?? 50 });
      reply.header('cache-control', 'no-store');
      return {
        StatusCode: 200,
        Message: null,
        Data: { Assessments: (await assessmentViews(deps, rows)).map(assessmentStatus), Cursor: next && cursors.encode(tenantId, filter, next) },
      };
    },
  );
}
