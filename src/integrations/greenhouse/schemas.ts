import { Type, type Static } from 'typebox';
import { AbsoluteUrl, Email, LIMITS, NAME_PATTERN } from '../../schemas/fields.js';

/** Properties without a value come as null (Greenhouse's general rule), so optional ones may be null. */
const Maybe = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/**
 * A name as Greenhouse holds it: one character is a whole family name in Chinese or Korean, and
 * Greenhouse, not the candidate, typed it, so the caller API's minimum of two would refuse the order.
 */
const GreenhouseName = Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: NAME_PATTERN });

/** send_test's body as Greenhouse documents it; other rules are the caller API's. Unknown properties are ignored. */
export const SendTestBody = Type.Object({
  partner_test_id: Type.String({ minLength: 1, maxLength: 64 }),
  candidate: Type.Object({
    first_name: GreenhouseName,
    last_name: GreenhouseName,
    preferred_name: Maybe(Type.String({ maxLength: 100 })),
    email: Email,
    phone_number: Maybe(Type.String({ maxLength: 100 })),
    resume_url: Maybe(Type.String({ maxLength: 4096 })),
    greenhouse_profile_url: AbsoluteUrl("The candidate's Greenhouse application"),
  }),
  sent_by: Maybe(Type.String({ maxLength: 254 })),
  url: AbsoluteUrl('Where the completion PATCH goes'),
});
export type SendTestBody = Static<typeof SendTestBody>;

export const TestStatusQuery = Type.Object({ partner_interview_id: Type.String({ minLength: 1, maxLength: 64 }) });
export type TestStatusQuery = Static<typeof TestStatusQuery>;

/** response_error: Greenhouse reports a response of ours it could not read. */
export const ResponseErrorBody = Type.Object({
  api_call: Type.String({ maxLength: 100 }),
  errors: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 }),
  partner_test_id: Maybe(Type.String({ maxLength: 64 })),
  partner_interview_id: Maybe(Type.String({ maxLength: 64 })),
});
export type ResponseErrorBody = Static<typeof ResponseErrorBody>;
