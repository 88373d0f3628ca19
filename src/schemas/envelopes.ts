import { Type, type TSchema } from 'typebox';

/** The spec's success envelope: StatusCode equals the HTTP status, Message is null. */
export const Envelope = <T extends TSchema>(data: T, statusCode: number) =>
  Type.Object({
    StatusCode: Type.Integer({ const: statusCode }),
    Message: Type.Null(),
    Data: data,
  });

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable code, see README "Error codes".' }),
      message: Type.String(),
      innererror: Type.Object({}, { additionalProperties: true }),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error, from every endpoint, has this shape.' },
);

export const ErrorRef = Type.Ref('ErrorEnvelope');
