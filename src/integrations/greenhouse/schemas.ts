import { Type, type Static } from 'typebox';
import { AbsoluteUrl, Email, FirstName, LastName } from '../../schemas/fields.js';

/** Properties without a value come as null (Greenhouse's general rule), so optional ones may be null. */
const Maybe = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/** send_test's body as Greenhouse documents it; names follow the caller API's rules. Unknown properties are ignored. */
export const SendTestBody = Type.Object({
  partner_test_id: Type.String({ minLength: 1, maxLength: 64 }),
  candidate: Type.Object({
    first_name: FirstName,
    last_name: LastName,
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
